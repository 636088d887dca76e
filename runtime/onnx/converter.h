// Internal: how one ONNX node becomes rill ops. Converters register themselves per op
// type and first opset (ConverterRegistry::Register, from each convert_*.cc), with no central list;
// the importer picks, for a model's opset, the converter with the newest `since` not after it, as
// ONNX's own operator versioning does. Each converter has two halves: a support check that looks
// only at the node (attributes, which inputs are constants, the opset) and says why it cannot be
// converted, run for every node before anything is built, so a model's unsupported nodes are
// reported at once; and the conversion itself.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "onnx/onnx_pb.h"
#include "rill/core/status.h"
#include "rill/ops/op_builder.h"
#include "rill/ops/scope.h"

namespace rill::onnx::internal {

// ONNX dtype (TensorProto::DataType) to rill's; DT_INVALID for one rill lacks.
DataType FromOnnxType(int32_t onnx_type);
int32_t ToOnnxType(DataType dt);
const char* OnnxTypeName(int32_t onnx_type);

// A node's attributes, read with defaults as ONNX's operator specs give them.
class NodeAttrs {
 public:
  explicit NodeAttrs(const ::onnx::NodeProto& node);
  bool has(const std::string& name) const { return attrs_.count(name) != 0; }
  int64_t i(const std::string& name, int64_t dflt) const;
  float f(const std::string& name, float dflt) const;
  std::string s(const std::string& name, const std::string& dflt) const;
  std::vector<int64_t> ints(const std::string& name) const;  // empty when absent
  std::vector<float> floats(const std::string& name) const;
  const ::onnx::TensorProto* tensor(const std::string& name) const;  // null when absent
  const ::onnx::AttributeProto* get(const std::string& name) const;

 private:
  std::map<std::string, const ::onnx::AttributeProto*> attrs_;
};

// What a support check sees: the node, its attributes, the opset, and which inputs are
// known at import time (initializers and Constant nodes).
struct SupportView {
  const ::onnx::NodeProto& node;
  const NodeAttrs& attrs;
  int64_t opset;
  std::vector<bool> input_is_constant;  // per input; false for an absent optional input
  // Per input, the rank when the model states it (a graph input's type, an initializer's
  // dims), else -1.
  std::vector<int64_t> input_ranks = {};
  int64_t rank(int i) const {
    return i < static_cast<int>(input_ranks.size()) ? input_ranks[i] : -1;
  }
  bool has_input(int i) const { return i < node.input_size() && !node.input(i).empty(); }
  bool constant(int i) const {
    return i < static_cast<int>(input_is_constant.size()) && input_is_constant[i];
  }
};

// A value of an enclosing graph that a subgraph reads (ONNX subgraphs see outer values by
// name): the function built from the subgraph takes it as an argument.
struct Capture {
  std::string name;  // the ONNX value's name
  Output outer;      // its value in the graph of the node that holds the subgraph
  Output inner;      // the Placeholder standing for it in the function's graph
};

// Converts ONNX subgraphs (If's branches, Loop's body) into the graph of a function;
// the importer gives one to every conversion.
class SubgraphConverter {
 public:
  virtual ~SubgraphConverter() = default;
  // Converts g's initializers and nodes into the graph of `scope` (a new root scope, the
  // function's). `bound` gives values for g's own inputs by name; a name of an enclosing
  // graph becomes a Capture appended to *captures (a Const is copied instead: converters
  // that need constant inputs still see one). The names in `first` are captured before
  // anything else, in that order. Returns the values of g's outputs.
  virtual absl::StatusOr<std::vector<Output>> Convert(const ::onnx::GraphProto& g,
                                                      const Scope& scope,
                                                      const std::map<std::string, Output>& bound,
                                                      const std::vector<std::string>& first,
                                                      std::vector<Capture>* captures) = 0;
};

// What a conversion sees and makes.
class NodeContext {
 public:
  // `nhwc_inputs`: per input, its channels-last [N, H, W, C] value where the importer has
  // one (an earlier convolution made it so), else an empty Output.
  NodeContext(const ::onnx::NodeProto& node, const NodeAttrs& attrs, int64_t opset,
              const Scope& scope, std::vector<Output> inputs,
              SubgraphConverter* subgraphs = nullptr, std::vector<Output> nhwc_inputs = {});
  const ::onnx::NodeProto& node() const { return node_; }
  const NodeAttrs& attrs() const { return attrs_; }
  int64_t opset() const { return opset_; }
  const Scope& scope() const { return scope_; }  // a sub-scope named after the node

  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  bool has_input(int i) const { return i < num_inputs() && inputs_[i].node() != nullptr; }
  Output input(int i) const { return has_input(i) ? inputs_[i] : Output(); }
  // Input i's value when it is known while importing (a Const node), else null.
  const Tensor* constant_input(int i) const;
  // Input i's value as integers; InvalidArgument when it is not known at import time.
  absl::StatusOr<std::vector<int64_t>> ConstInts(int i, const char* what) const;

  // A rill op under the node's scope; its output 0 (check scope().ok() afterwards).
  Output Op(const std::string& op, std::vector<Output> inputs,
            std::vector<std::pair<std::string, AttrValue>> attrs = {}) const;
  Operation OpNode(const std::string& op, std::vector<Output> inputs,
                   std::vector<std::pair<std::string, AttrValue>> attrs = {}) const;
  Output Const(const Tensor& t) const;
  Output Int64s(const std::vector<int64_t>& v) const;  // a 1-D int64 constant
  Output Int32s(const std::vector<int64_t>& v) const;  // a 1-D int32 constant

  void set_output(int i, Output o);
  const std::vector<Output>& outputs() const { return outputs_; }
  // Channels-last values (runtime/onnx/layout.h): input i as [N, H, W, C] when the importer
  // holds it so (else an empty Output), and output i's channels-last value, which later
  // layout-aware nodes read instead of transposing output i back.
  Output nhwc_input(int i) const {
    return i < static_cast<int>(nhwc_inputs_.size()) ? nhwc_inputs_[i] : Output();
  }
  void set_nhwc_output(int i, Output o);
  const std::vector<Output>& nhwc_outputs() const { return nhwc_outputs_; }
  // Null where no subgraphs can be converted (a converter then reports an error).
  SubgraphConverter* subgraphs() const { return subgraphs_; }

  // InvalidArgument naming the node and op type.
  template <typename... Args>
  absl::Status Error(const Args&... args) const {
    return errors::InvalidArgument("ONNX node '", node_.name(), "' (", node_.op_type(),
                                   "): ", args...);
  }

 private:
  const ::onnx::NodeProto& node_;
  const NodeAttrs& attrs_;
  int64_t opset_;
  Scope scope_;
  std::vector<Output> inputs_;
  std::vector<Output> outputs_;
  SubgraphConverter* subgraphs_;
  std::vector<Output> nhwc_inputs_, nhwc_outputs_;
};

using SupportFn = std::function<std::string(const SupportView& v)>;  // "" when supported
using ConvertFn = std::function<absl::Status(NodeContext& c)>;

struct Converter {
  std::string op_type;
  int64_t since = 1;
  SupportFn support = nullptr;  // null: every node of this op type and opset converts
  ConvertFn convert = nullptr;
  // Inputs whose values must be known while importing (an initializer, a Constant node, or
  // a value folded from them): an initializer feeding one stays a constant in a trainable
  // import, and a graph input feeding one makes the node unsupported.
  std::vector<int> const_inputs = {};
};

class ConverterRegistry {
 public:
  static ConverterRegistry* Global();
  bool Register(Converter c);
  // The converter for `op_type` at `opset` (newest since <= opset), or null.
  const Converter* Find(const std::string& op_type, int64_t opset) const;
  const std::multimap<std::string, Converter>& all() const { return converters_; }

 private:
  std::multimap<std::string, Converter> converters_;
};

// The most elements of a table a converter computes while importing (Resize's taps, the
// indices of an edge or reflect Pad): a model's numbers cannot make the import allocate
// more than this (16 Mi elements) however large they are.
inline constexpr int64_t kMaxImportTable = int64_t{1} << 24;

// Helpers shared by the converters.
// A scalar constant of `like`'s dtype (float for a dtype that is not a number).
Output ScalarLike(const NodeContext& c, const Output& like, double v);
// An int32 scalar constant (axes of Concat, Split, ...).
Output ScalarI32(const NodeContext& c, int64_t v);
// x's shape as a 1-D tensor of `dt`: a constant when the shape is fully known.
Output ShapeOf(const NodeContext& c, const Output& x, DataType dt = DT_INT64);
// The size of x's dim `axis` (>= 0) as a scalar of `dt` (int32 or int64).
Output DimOf(const NodeContext& c, const Output& x, int64_t axis, DataType dt);
// Input i's value as a scalar of `dt` (ONNX passes some scalars as 1-element tensors).
Output ScalarInput(const NodeContext& c, int i, DataType dt);
// MaxPool (max) or AveragePool of any number of spatial dims, dilations and ceil_mode, by
// one strided slice per window tap (convert_pool_nd.cc).
absl::Status PoolBySlices(NodeContext& c, bool max);
// Conv and ConvTranspose of rank-5 inputs (3-D windows) as Conv3D and
// Conv3DBackpropInputV2 (convert_conv_nd.cc).
absl::Status ConvertConvNd(NodeContext& c);
absl::Status ConvertConvTransposeNd(NodeContext& c);
// A window's kernel: the kernel_shape attribute, else the spatial dims of the filter w
// [out, in, spatial...].
absl::StatusOr<std::vector<int64_t>> KernelOf(const NodeContext& c, const Output& w, int spatial);
// MaxPool with its Indices output, through MaxPoolWithArgmax (convert_pool_argmax.cc).
absl::Status ConvertMaxPoolWithIndices(NodeContext& c);
// Whether ConvTranspose's attributes are ones the converters take ("" when they are).
std::string ConvTransposeSupport(const SupportView& v);
// The axes from 2 to x's rank: the spatial dims of [N, C, ...] tensors.
absl::StatusOr<std::vector<int64_t>> SpatialAxes(const NodeContext& c, const Output& x);
// The "axis" attribute (default `dflt`) for x, made non-negative; InvalidArgument when x's
// rank is not known or the axis is out of range.
absl::StatusOr<int64_t> AxisAttr(const NodeContext& c, const Output& x, int64_t dflt);
// An axis in [-rank, rank) made non-negative; -1 when out of range.
int64_t NormalizeAxis(int64_t axis, int64_t rank);
// The rank of a value when its shape knows it, else -1.
int64_t RankOf(const Output& o);
// `acc` with `x` appended along a new first axis, in the graph of `s`: how loops stack
// their per-iteration values (acc starts as an empty vector of x's dtype).
Output AppendAlongNewAxis(const Scope& s, const Output& acc, const Output& x);

}  // namespace rill::onnx::internal
