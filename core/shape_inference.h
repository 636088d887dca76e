// What a shape function sees: the input shapes and dtypes, constant input values where
// the producer is a Const, and the node's attributes. Plus the shape rules many ops share.
#pragma once

#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rill/core/attr_value.h"
#include "rill/core/op_registry.h"

namespace rill {

class InferenceContext {
 public:
  struct InputInfo {
    DataType dtype;
    PartialTensorShape shape;
    const Tensor* constant;  // the value when the producer is a Const, else nullptr
  };
  InferenceContext(const OpDef& def, const AttrMap& attrs, std::vector<InputInfo> inputs,
                   int num_outputs)
      : def_(def), attrs_(attrs), inputs_(std::move(inputs)), outputs_(num_outputs) {}

  const OpDef& op_def() const { return def_; }
  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  const PartialTensorShape& input_shape(int i) const { return inputs_[i].shape; }
  DataType input_type(int i) const { return inputs_[i].dtype; }
  const Tensor* input_tensor(int i) const { return inputs_[i].constant; }
  const AttrMap& attrs() const { return attrs_; }
  template <typename T>
  const T& attr(const std::string& name) const {
    return std::get<T>(attrs_.at(name));
  }

  void set_output(int i, PartialTensorShape s) { outputs_[i] = std::move(s); }
  const std::vector<PartialTensorShape>& outputs() const { return outputs_; }

 private:
  const OpDef& def_;
  const AttrMap& attrs_;
  std::vector<InputInfo> inputs_;
  std::vector<PartialTensorShape> outputs_;
};

namespace shape_fns {

absl::Status Unchanged(InferenceContext& c);  // output 0 = input 0
// Inputs 0 and 1 of one shape (an activation's gradients and its features); output 0 has it.
absl::Status SameShapes(InferenceContext& c);
absl::Status Scalar(InferenceContext& c);
absl::Status NoOutputs(InferenceContext& c);
absl::Status BroadcastBinary(InferenceContext& c);
// (value, bias) of BiasAdd and its fused forms: value of rank >= 1, bias [its last dim];
// output 0 = value.
absl::Status BiasAdd(InferenceContext& c);
// The end of _BiasActivation, after its output 0 is set: FusedBias, and the activation
// attr one of "relu", "sigmoid", "tanh".
absl::Status FusedBiasActivation(InferenceContext& c, int bias_input);
// Input `bias_input` a vector as long as output 0's last dim (set before the call): a
// fused op's bias, or one of its batch norm's vectors.
absl::Status FusedBias(InferenceContext& c, int bias_input);
// Just the activation attr's check.
absl::Status FusedActivationAttr(const InferenceContext& c);

// NumPy broadcasting of two (partial) shapes; InvalidArgument naming both when they clash.
absl::StatusOr<PartialTensorShape> Broadcast(const PartialTensorShape& a,
                                             const PartialTensorShape& b);
absl::StatusOr<TensorShape> Broadcast(const TensorShape& a, const TensorShape& b);

// The integer values of a 1-D (or scalar) int32/int64 tensor.
absl::StatusOr<absl::InlinedVector<int64_t, 8>> IntValues(const Tensor& t, absl::string_view what);
// Every value of an int32/int64 tensor of any rank, row-major.
absl::StatusOr<absl::InlinedVector<int64_t, 8>> AllIntValues(const Tensor& t,
                                                             absl::string_view what);
// A shape from a 1-D int tensor of dims; each dim >= 0 and the product must not overflow.
absl::StatusOr<TensorShape> ShapeFromTensor(const Tensor& t, absl::string_view what);
// InvalidArgument naming `what` unless input i of `c` is a vector (or of unknown rank).
absl::Status VectorInput(const InferenceContext& c, int i, absl::string_view what);
// The shape that input i of `c`, a vector of dims (Fill's dims, a random op's shape),
// gives an output: known when the input is a constant, else of the vector's length
// (unknown rank when that is unknown); InvalidArgument for an input that is no vector.
absl::StatusOr<PartialTensorShape> ShapeFromShapeInput(const InferenceContext& c, int i,
                                                       absl::string_view what);
// InvalidArgument naming `what` unless input i of `c` is a scalar (or of unknown rank).
absl::Status ScalarInput(const InferenceContext& c, int i, absl::string_view what);
// Input i's int values when its producer is a Const (nullopt otherwise).
absl::StatusOr<std::optional<std::vector<int64_t>>> ConstInts(const InferenceContext& c, int i,
                                                              absl::string_view what);
// Input i's dims (-1 where unknown; `rank` of -1 when its rank is unknown), or
// InvalidArgument naming `what` and its shape when its rank is not `rank`.
absl::StatusOr<std::vector<int64_t>> RankedDims(const InferenceContext& c, int i, int rank,
                                                absl::string_view what);
// Input i, a vector of `n` sizes (an image's, a crop's): its values when it is a Const, each
// checked >= 1, else n of -1; InvalidArgument naming `what` for another length or a size < 1.
absl::StatusOr<std::vector<int64_t>> PositiveSizes(const InferenceContext& c, int i, int n,
                                                   absl::string_view what);
// The partial shape of dims `d` (-1 where a dim is unknown).
PartialTensorShape Known(absl::Span<const int64_t> d);
// Canonical axis in [0, rank) or InvalidArgument naming the valid range.
absl::StatusOr<int> CanonicalAxis(int64_t axis, int rank, absl::string_view what);

}  // namespace shape_fns
}  // namespace rill
