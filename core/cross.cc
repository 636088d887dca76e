#include "rill/core/cross.h"

#include <vector>

namespace rill {
namespace {

// TensorFlow's words for an input that is not a batch of 3-vectors.
absl::Status CheckVectors(const PartialTensorShape& s, const char* what) {
  if (s.unknown_rank()) return absl::OkStatus();
  if (s.dims() < 1) {
    return errors::InvalidArgument("Cross: ", what, " must be at least 1D, got ", s.DebugString());
  }
  const int64_t inner = s.dim_size(s.dims() - 1);
  if (inner >= 0 && inner != 3) {
    return errors::InvalidArgument("Cross-products are only defined for 3-element vectors; ", what,
                                   " has shape ", s.DebugString());
  }
  return absl::OkStatus();
}

// The shape both inputs agree on: each dim known in either.
PartialTensorShape Merged(const PartialTensorShape& a, const PartialTensorShape& b) {
  if (a.unknown_rank()) return b;
  if (b.unknown_rank()) return a;
  std::vector<int64_t> dims(a.dim_sizes().begin(), a.dim_sizes().end());
  for (int i = 0; i < a.dims(); ++i) {
    if (dims[i] < 0) dims[i] = b.dim_size(i);
  }
  return PartialTensorShape(dims);
}

}  // namespace

absl::Status CrossShape(InferenceContext& c) {
  const PartialTensorShape &a = c.input_shape(0), &b = c.input_shape(1);
  RILL_RETURN_IF_ERROR(CheckVectors(a, "a"));
  RILL_RETURN_IF_ERROR(CheckVectors(b, "b"));
  if (!a.IsCompatibleWith(b)) {
    return errors::InvalidArgument("Cross: both inputs must be of same shape: ", a.DebugString(),
                                   " vs. ", b.DebugString());
  }
  c.set_output(0, Merged(a, b));
  return absl::OkStatus();
}

absl::StatusOr<int64_t> PrepareCross(OpKernelContext& ctx, Tensor** out) {
  const Tensor &a = ctx.input(0), &b = ctx.input(1);
  RILL_RETURN_IF_ERROR(CheckVectors(PartialTensorShape(a.shape()), "a"));
  RILL_RETURN_IF_ERROR(CheckVectors(PartialTensorShape(b.shape()), "b"));
  if (a.shape() != b.shape()) {
    return errors::InvalidArgument("Cross: both inputs must be of same shape: ",
                                   a.shape().DebugString(), " vs. ", b.shape().DebugString());
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, a.shape(), out));
  return a.NumElements() / 3;
}

}  // namespace rill
