// Internal: a parsed, checked ONNX model and what the importer asks of it before building:
// the default-domain opset, which values are initializers or constants, the converter of
// each node, and every node that cannot be converted.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"
#include "rill/core/tensor.h"
#include "rill/runtime/onnx/converter.h"
#include "rill/runtime/onnx/onnx.h"

namespace rill::onnx::internal {

// The newest default-domain opset the converters are written for.
inline constexpr int64_t kMaxOpset = 17;
// How deep subgraphs (If's branches, Loop's body) may nest: a Loop's body may be built up
// to three times while its shapes settle, so the work grows with 3^depth.
inline constexpr int kMaxSubgraphDepth = 8;

// What the support checks know of one graph's values: those known at import time, those
// known only when the model runs (graph inputs, a subgraph's own inputs), and ranks. A
// subgraph's info starts from its enclosing graph's: ONNX subgraphs read outer values.
struct GraphInfo {
  std::set<std::string> constants;       // initializers and Constant nodes' outputs
  std::set<std::string> runtime_inputs;  // graph inputs (Placeholders), subgraph inputs
  std::map<std::string, int64_t> ranks;  // of inputs and initializers
};

class ModelView {
 public:
  // InvalidArgument for bytes that are not a model, or (when `check`) one ONNX's checker
  // refuses.
  // `options.constant_inputs` become initializers (checked after ONNX's checker).
  static absl::StatusOr<std::unique_ptr<ModelView>> Parse(absl::string_view bytes,
                                                          const ImportOptions& options);

  const ::onnx::ModelProto& model() const { return model_; }
  const ::onnx::GraphProto& graph() const { return model_.graph(); }
  int64_t opset() const { return opset_; }
  bool IsInitializer(const std::string& name) const { return init_names_.count(name) != 0; }
  // An initializer that feeds an input a converter needs as a constant.
  bool MustStayConstant(const std::string& name) const { return keep_const_.count(name) != 0; }
  const Converter* ConverterFor(const ::onnx::NodeProto& node) const;
  // The opset the model imports for the node's domain (0 when it names none).
  int64_t OpsetOf(const ::onnx::NodeProto& node) const;
  std::vector<UnsupportedNode> Unsupported() const;

  // A graph input's dtype and shape (unknown dims as -1).
  absl::StatusOr<std::pair<DataType, PartialTensorShape>> InputType(
      const ::onnx::ValueInfoProto& in) const;
  absl::Status DecodeInitializers();
  const std::vector<std::pair<std::string, Tensor>>& initializers() const { return inits_; }

 private:
  ModelView() = default;
  void FindConstants();
  // Marks initializers that feed a converter's constant inputs, in `nodes` and the
  // subgraphs they hold.
  void KeepConstants(const google::protobuf::RepeatedPtrField<::onnx::NodeProto>& nodes);
  // Why the node cannot be converted ("" when it can); *inputs: the graph inputs it needs.
  std::string NodeProblem(const ::onnx::NodeProto& node, const GraphInfo& info,
                          std::vector<std::string>* inputs) const;
  // The unsupported nodes of `nodes`, and of the subgraphs they hold, onto *out.
  void CollectUnsupported(const google::protobuf::RepeatedPtrField<::onnx::NodeProto>& nodes,
                          const GraphInfo& info, int depth,
                          std::vector<UnsupportedNode>* out) const;

  ::onnx::ModelProto model_;
  int64_t opset_ = 0;
  // The opsets of the model's other domains (ai.onnx.preview.training): their converters
  // register as "domain:OpType" (runtime/onnx/convert_training.cc).
  std::map<std::string, int64_t> domain_opsets_;
  std::set<std::string> init_names_;
  GraphInfo top_;
  std::set<std::string> keep_const_;
  std::vector<std::pair<std::string, Tensor>> inits_;
};

}  // namespace rill::onnx::internal
