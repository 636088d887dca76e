#include "rill/core/adjust_hsv.h"

namespace rill {
namespace {

absl::Status CheckHsvImages(const PartialTensorShape& s) {
  if (s.unknown_rank()) return absl::OkStatus();
  if (s.dims() < 3) {
    return errors::InvalidArgument("input must be at least 3-D, got shape ", s.DebugString());
  }
  const int64_t channels = s.dim_size(s.dims() - 1);
  if (channels >= 0 && channels != 3) {
    return errors::InvalidArgument("input must have 3 channels but instead has ", channels,
                                   " channels (shape ", s.DebugString(), ")");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AdjustHsvShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckHsvImages(c.input_shape(0)));
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 1, c.op_def().inputs[1].name));
  return shape_fns::Unchanged(c);
}

template <typename T>
absl::Status AdjustHsv(OpKernelContext& ctx, bool hue) {
  const Tensor &x = ctx.input(0), &amount = ctx.input(1);
  RILL_RETURN_IF_ERROR(CheckHsvImages(PartialTensorShape(x.shape())));
  if (amount.dims() != 0) {
    return errors::InvalidArgument(hue ? "delta" : "scale", " must be scalar, got shape ",
                                   amount.shape().DebugString());
  }
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
  const double a = amount.base<float>()[0];
  const T* in = x.base<T>();
  T* y = out->base<T>();
  for (int64_t p = 0; p < x.NumElements() / 3; ++p) AdjustHsvPixel(in + 3 * p, hue, a, y + 3 * p);
  return absl::OkStatus();
}

template absl::Status AdjustHsv<float>(OpKernelContext&, bool);
template absl::Status AdjustHsv<double>(OpKernelContext&, bool);

}  // namespace rill
