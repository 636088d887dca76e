// The ONNX calls of a build without ONNX's library (RILL_ONNX=OFF, or libonnx-dev missing
// at configure time): each says so and how to build with it.
#include "rill/core/status.h"
#include "rill/runtime/onnx/onnx.h"

namespace rill::onnx {
namespace {

absl::Status Unavailable() {
  return errors::Unimplemented(
      "this rill was built without ONNX; install libonnx-dev and libprotobuf-dev and "
      "configure with -DRILL_ONNX=ON");
}

}  // namespace

Output ImportedModel::input(absl::string_view) const { return Output(); }
Output ImportedModel::output(absl::string_view) const { return Output(); }

absl::StatusOr<ImportedModel> ImportModel(const Scope&, absl::string_view, const ImportOptions&) {
  return Unavailable();
}
absl::StatusOr<ImportedModel> ImportModelFile(const Scope&, const std::string&,
                                              const ImportOptions&) {
  return Unavailable();
}
absl::StatusOr<std::vector<UnsupportedNode>> FindUnsupportedNodes(absl::string_view,
                                                                  const ImportOptions&) {
  return Unavailable();
}
absl::StatusOr<Tensor> ParseTensorProto(absl::string_view, std::string*) { return Unavailable(); }
absl::StatusOr<Tensor> ReadTensorProtoFile(const std::string&, std::string*) {
  return Unavailable();
}
std::vector<ConverterInfo> SupportedOps() { return {}; }
absl::StatusOr<std::string> ExportModel(const std::vector<Output>&, const std::vector<Output>&,
                                        const ExportOptions&) {
  return Unavailable();
}
absl::Status ExportModelFile(const std::string&, const std::vector<Output>&,
                             const std::vector<Output>&, const ExportOptions&) {
  return Unavailable();
}

}  // namespace rill::onnx
