// Argument checks and output allocation shared by the CPU and GPU kernels of an op, so
// the two can never accept different inputs or disagree on a shape. Each Prepare*
// validates the inputs, allocates output 0 on the kernel's device and returns what the
// arithmetic needs.
#pragma once

#include <utility>
#include <vector>

#include "rill/core/accuracy_row.h"
#include "rill/core/kernel.h"
#include "rill/core/random_state.h"

namespace rill {

// Input `t` as a vector of integers (shape specs, perms, begins); `what` names it.
absl::StatusOr<absl::InlinedVector<int64_t, 8>> IntVectorInput(const Tensor& t,
                                                               absl::string_view what);

// Sets output 0 to input 0's buffer under `shape` (Reshape and friends, identity Transpose).
absl::Status AliasInputAsOutput(OpKernelContext& ctx, const TensorShape& shape);

// AddN: every input has the first one's shape.
absl::Status PrepareAddN(OpKernelContext& ctx, Tensor** out);

struct MatMulGeometry {
  int64_t m, n, k;
};
absl::StatusOr<MatMulGeometry> PrepareMatMul(OpKernelContext& ctx, bool transpose_a,
                                             bool transpose_b, Tensor** out);

// Inputs 0 and 1 of one shape (activation gradients, elementwise losses).
absl::Status CheckSameShapes(const OpKernelContext& ctx);

// ClipByValue (t, lo, hi): each bound a scalar or of t's shape; allocates the output
// (t's buffer when it can be forwarded: each element is read before it is written).
// A bound's step is 0 for a scalar, else 1.
struct ClipGeometry {
  int64_t n, lo_step, hi_step;
};
absl::StatusOr<ClipGeometry> PrepareClipByValue(OpKernelContext& ctx, Tensor** out);

// An activation kernel's `alpha` attr (LeakyRelu's slope), 0 for ops without one.
float AlphaAttrOrZero(const OpKernelConstruction& c);

// Softmax cross entropy: features [batch, classes] and labels (dense, same shape; or sparse
// [batch]); allocates loss [batch] and backprop. Label values are checked apart.
struct XentGeometry {
  int64_t batch, classes;
};
absl::StatusOr<XentGeometry> PrepareXent(OpKernelContext& ctx, bool sparse, Tensor** loss,
                                         Tensor** backprop);
// Sparse labels (int32 or int64, read on the host) must lie in [0, classes).
absl::Status CheckSparseLabels(const Tensor& labels, int64_t classes);

// _Accuracy: the kind named by its attr ("categorical", "sparse_categorical", "binary").
absl::StatusOr<AccuracyKind> ParseAccuracyKind(absl::string_view kind);
// The kind of an _Accuracy node (its shape function has checked the attr).
AccuracyKind AccuracyKindOf(const OpKernelConstruction& c);
// _Accuracy's output [examples, classes] (binary: every element an example, classes 1)
// against its labels; allocates the float scalar result.
struct AccuracyGeometry {
  int64_t examples, classes;
};
absl::StatusOr<AccuracyGeometry> PrepareAccuracy(OpKernelContext& ctx, AccuracyKind kind,
                                                 Tensor** out);
// _MeanAllGrad: the one-element gradient and the output shape (input 1, on the host);
// allocates the output.
absl::Status PrepareMeanAllGrad(OpKernelContext& ctx, Tensor** out);

// op(a) op(b) of _MatMulApplyGradientDescent's inputs 2 and 3, both matrices.
absl::StatusOr<MatMulGeometry> FusedUpdateGeometry(const OpKernelContext& ctx, bool transpose_a,
                                                   bool transpose_b);

// OneHot(indices, depth (host), on_value, off_value) with attr axis: the output as
// [outer, depth, inner] over the indices' [outer, inner].
struct OneHotGeometry {
  int64_t outer, depth, inner;
};
absl::StatusOr<OneHotGeometry> PrepareOneHot(OpKernelContext& ctx, int64_t axis, Tensor** out);

// ArgMax over input 1's axis, as [outer, r, inner].
struct AxisGeometry {
  int64_t outer, r, inner;
};
absl::StatusOr<AxisGeometry> PrepareArgMax(OpKernelContext& ctx, Tensor** out);

// Softmax / LogSoftmax over the last dim: the number of columns (0 means nothing to do).
absl::StatusOr<int64_t> PrepareSoftmax(OpKernelContext& ctx, Tensor** out);

// Sum/Mean/Max/Min over input 1's axes: the input's dims merged into alternating
// (size, reduced) groups, and how many elements each output element reduces.
struct ReductionGeometry {
  std::vector<std::pair<int64_t, bool>> groups;
  int64_t reduced_count = 1;
};
absl::StatusOr<ReductionGeometry> PrepareReduction(OpKernelContext& ctx, bool keep_dims,
                                                   Tensor** out);

// Where a random kernel's first Philox block is: its counter, or, while its device
// records a step, the device memory that every replay sets to the counter of that run.
struct RandomDraw {
  uint64_t base = 0;
  const uint64_t* recorded = nullptr;  // read the counter here when set
};

// Random ops: the node's Philox key and this Session's stream position for it.
class RandomKernelBase : public OpKernel {
 protected:
  explicit RandomKernelBase(OpKernelConstruction& c);
  // Allocates the output from the shape input and draws one Philox block per element.
  absl::StatusOr<RandomDraw> Prepare(OpKernelContext& ctx, Tensor** out);
  // Draws `blocks` Philox blocks of this node's stream: reserved now, or at every launch
  // of the step ctx's device is recording (DeviceBase::ReplayCounter).
  absl::StatusOr<RandomDraw> Draw(OpKernelContext& ctx, int64_t blocks);
  // Reserves `blocks` Philox blocks of this node's stream now; returns the first's
  // counter. For host kernels only: a recorded step would repeat the reservation.
  uint64_t Reserve(int64_t blocks);
  // Dropout: checks the rate, allocates output and mask like input 0 and draws one block
  // per 4 elements.
  absl::StatusOr<RandomDraw> PrepareDropout(OpKernelContext& ctx, float rate, Tensor** out,
                                            Tensor** mask);
  // RandomUniformInt (T int32 or int64): minval and maxval scalars read on the host,
  // minval < maxval unless the output is empty; allocates the output from the shape and
  // draws one block per element. *lo = minval, *range = maxval - minval.
  template <typename T>
  absl::StatusOr<RandomDraw> PrepareUniformInt(OpKernelContext& ctx, Tensor** out, T* lo,
                                               uint64_t* range);
  // Multinomial: logits [batch, classes] with classes > 0, num_samples a scalar >= 0 read
  // on the host; allocates [batch, num_samples] and draws one block per sample.
  struct MultinomialDraw {
    RandomDraw draw;
    int64_t batch, classes, samples;
  };
  absl::StatusOr<MultinomialDraw> PrepareMultinomial(OpKernelContext& ctx, Tensor** out);
  uint64_t key() const { return key_; }

 private:
  uint64_t key_;
  random::StreamState* state_;
};

}  // namespace rill
