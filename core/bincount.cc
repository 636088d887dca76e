#include "rill/core/bincount.h"

#include <algorithm>

namespace rill {
namespace {

int64_t IntAt(const Tensor& t, int64_t i) {
  return t.dtype() == DT_INT32 ? t.base<int32_t>()[i] : t.base<int64_t>()[i];
}

// weights: empty, or of the input's shape.
absl::Status CheckWeights(const PartialTensorShape& input, const PartialTensorShape& weights) {
  if (weights.unknown_rank() || input.unknown_rank()) return absl::OkStatus();
  const bool empty = weights.dims() == 1 && weights.dim_size(0) == 0;
  if (!empty && !weights.IsCompatibleWith(input)) {
    return errors::InvalidArgument("weights must be empty or have the input's shape ",
                                   input.DebugString(), ", got ", weights.DebugString());
  }
  return absl::OkStatus();
}

// The constant size, -1 when not known; refused when negative.
absl::StatusOr<int64_t> ConstantSize(const InferenceContext& c) {
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 1, "size"));
  const Tensor* t = c.input_tensor(1);
  if (t == nullptr || t->NumElements() != 1) return int64_t{-1};
  const int64_t size = IntAt(*t, 0);
  if (size < 0) return errors::InvalidArgument("size (", size, ") must be non-negative");
  return size;
}

}  // namespace

absl::Status BincountShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(const int64_t size, ConstantSize(c));
  RILL_RETURN_IF_ERROR(CheckWeights(c.input_shape(0), c.input_shape(2)));
  c.set_output(0, PartialTensorShape({size}));
  return absl::OkStatus();
}

absl::Status DenseBincountShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(const int64_t size, ConstantSize(c));
  const PartialTensorShape& in = c.input_shape(0);
  if (!in.unknown_rank() && (in.dims() < 1 || in.dims() > 2)) {
    return errors::InvalidArgument("input must be 1-D or 2-D, got ", in.DebugString());
  }
  RILL_RETURN_IF_ERROR(CheckWeights(in, c.input_shape(2)));
  if (in.unknown_rank()) {
    c.set_output(0, PartialTensorShape());
  } else {
    c.set_output(0, in.dims() == 1 ? PartialTensorShape({size})
                                   : PartialTensorShape({in.dim_size(0), size}));
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status Bincount(OpKernelContext& ctx, bool rows, bool binary_output) {
  const Tensor &in = ctx.input(0), &size_t_ = ctx.input(1), &weights = ctx.input(2);
  if (size_t_.dims() != 0) {
    return errors::InvalidArgument("size must be a scalar, got ", size_t_.shape().DebugString());
  }
  const int64_t size = IntAt(size_t_, 0);
  if (size < 0) return errors::InvalidArgument("size (", size, ") must be non-negative");
  if (rows && (in.dims() < 1 || in.dims() > 2)) {
    return errors::InvalidArgument("input must be 1-D or 2-D, got ", in.shape().DebugString());
  }
  const bool weighted = weights.NumElements() > 0;
  if (weighted && weights.shape() != in.shape()) {
    return errors::InvalidArgument("weights must be empty or have the input's shape ",
                                   in.shape().DebugString(), ", got ",
                                   weights.shape().DebugString());
  }
  const int64_t batch = rows && in.dims() == 2 ? in.dim_size(0) : 1;
  RILL_ASSIGN_OR_RETURN(const TensorShape shape, rows&& in.dims() == 2
                                                     ? TensorShape::Build({batch, size})
                                                     : TensorShape::Build({size}));
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
  T* bins = out->base<T>();
  std::fill_n(bins, out->NumElements(), T(0));
  const int64_t per_row = batch > 0 ? in.NumElements() / batch : 0;
  for (int64_t i = 0; i < in.NumElements(); ++i) {
    const int64_t v = IntAt(in, i);
    if (v < 0) {
      return errors::InvalidArgument("Input arr must be non-negative! Got ", v, " at ", i);
    }
    if (v >= size) continue;
    T& bin = bins[(per_row > 0 ? i / per_row : 0) * size + v];
    bin = binary_output ? T(1) : bin + (weighted ? weights.base<T>()[i] : T(1));
  }
  return absl::OkStatus();
}

template absl::Status Bincount<float>(OpKernelContext&, bool, bool);
template absl::Status Bincount<double>(OpKernelContext&, bool, bool);
template absl::Status Bincount<int32_t>(OpKernelContext&, bool, bool);
template absl::Status Bincount<int64_t>(OpKernelContext&, bool, bool);
template absl::Status Bincount<int8_t>(OpKernelContext&, bool, bool);
template absl::Status Bincount<int16_t>(OpKernelContext&, bool, bool);

}  // namespace rill
