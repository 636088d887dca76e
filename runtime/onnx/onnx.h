// ONNX models as rill graphs. An .onnx file (or its bytes) becomes nodes in a Scope:
//
//   Scope root = Scope::NewRootScope();
//   RILL_ASSIGN_OR_RETURN(onnx::ImportedModel m, onnx::ImportModelFile(root, "model.onnx"));
//   ClientSession session(root);
//   std::vector<Tensor> out;
//   RILL_RETURN_IF_ERROR(session.Run({{m.input("x"), x}}, {m.output("y")}, &out));
//
// Graph inputs become Placeholders named after the model's inputs (characters a node name
// cannot hold become '_'), with their dtypes and partial shapes; initializers become
// constants, or variables when ImportOptions::trainable is set (then AddSymbolicGradients
// and the optimizers fine-tune the model; run GlobalVariablesInitializer first). Each
// ONNX node becomes one or a few rill ops, named after the node.
//
// The model is parsed with ONNX's own C++ library and checked with its checker. A model
// with ops, attributes or dtypes rill lacks is one InvalidArgument naming every unsupported
// node (name, op type, domain, opset) at once. Nothing is added to the scope unless the
// whole model converts. A build without ONNX (libonnx-dev) returns Unimplemented.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rill/core/tensor.h"
#include "rill/ops/scope.h"

namespace rill {
class Session;
}  // namespace rill

namespace rill::onnx {

// The largest model file ImportModelFile reads (2 GiB, protobuf's own limit).
inline constexpr int64_t kMaxModelBytes = (int64_t{1} << 31) - 1;

struct ImportOptions {
  // Initializers of floating dtype become Variables (trainable); others stay constants.
  bool trainable = false;
  // Run ONNX's checker first (on by default; the conformance suite keeps it on).
  bool check_model = true;
  // Graph inputs given values while importing, by ONNX name: they become constants, as in
  // a frozen graph. For inputs that set shapes (Resize's sizes, Unsqueeze's axes), which
  // rill needs to know when it builds the graph; UnsupportedNode::needs_input names them.
  std::map<std::string, Tensor> constant_inputs = {};
};

struct ImportedModel {
  // The model's graph inputs that are not initializers, and its outputs, in model order.
  std::vector<std::string> input_names;
  std::vector<Output> inputs;
  std::vector<std::string> output_names;
  std::vector<Output> outputs;
  // The Variables made from initializers when trainable, in model order.
  std::vector<Output> variables;
  int64_t opset = 0;  // of the default domain
  std::string producer;

  // The Placeholder of a model input / the tensor of a model output by its ONNX name; an
  // empty Output for a name the model does not have.
  Output input(absl::string_view onnx_name) const;
  Output output(absl::string_view onnx_name) const;
};

absl::StatusOr<ImportedModel> ImportModel(const Scope& scope, absl::string_view model_bytes,
                                          const ImportOptions& options = {});
absl::StatusOr<ImportedModel> ImportModelFile(const Scope& scope, const std::string& path,
                                              const ImportOptions& options = {});

// One node a model has that rill cannot import, and why.
struct UnsupportedNode {
  std::string node_name;
  std::string op_type;
  std::string domain;  // "" is ONNX's default domain ai.onnx
  int64_t opset = 0;
  std::string reason;  // "no converter", or the attribute, input or dtype refused
  // Set when the only trouble is that these graph inputs must be known while importing:
  // ImportOptions::constant_inputs with values for them makes the node importable.
  std::vector<std::string> needs_inputs;
};
// Every unsupported node of the model (empty when all convert); InvalidArgument for a file
// that is not a valid model.
absl::StatusOr<std::vector<UnsupportedNode>> FindUnsupportedNodes(
    absl::string_view model_bytes, const ImportOptions& options = {});

// An ONNX TensorProto (as in the backend tests' input_0.pb) as a Tensor; its name if set.
absl::StatusOr<Tensor> ParseTensorProto(absl::string_view bytes, std::string* name = nullptr);
absl::StatusOr<Tensor> ReadTensorProtoFile(const std::string& path, std::string* name = nullptr);

// Export: the part of a graph that computes `outputs` from `inputs` (Placeholders) as an
// ONNX model (opset 13) that ONNX's checker accepts, for ONNX Runtime and other runtimes.
// Value names are the rill tensors' ("dense/Relu", "split:1"); channels-last convolutions
// and pools are written between Transposes. A graph with ops rill cannot export is one
// InvalidArgument listing them all.
struct ExportOptions {
  const Session* session = nullptr;  // holds the Variables' values (needed when any)
  std::string producer = "rill";
  std::string graph_name = "rill";
};
absl::StatusOr<std::string> ExportModel(const std::vector<Output>& inputs,
                                        const std::vector<Output>& outputs,
                                        const ExportOptions& options = {});
absl::Status ExportModelFile(const std::string& path, const std::vector<Output>& inputs,
                             const std::vector<Output>& outputs, const ExportOptions& options = {});

// The ONNX op types (default domain) rill converts, with the opset range each converter covers.
struct ConverterInfo {
  std::string op_type;
  int64_t since_opset = 1;
};
std::vector<ConverterInfo> SupportedOps();

}  // namespace rill::onnx
