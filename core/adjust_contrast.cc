#include "rill/core/adjust_contrast.h"

#include <cmath>

namespace rill {

absl::Status ContrastShape(InferenceContext& c) {
  const PartialTensorShape& images = c.input_shape(0);
  if (!images.unknown_rank() && images.dims() < 3) {
    return errors::InvalidArgument(
        "input must be at least 3-D [..., height, width, channels], got ", images.DebugString());
  }
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 1, "contrast_factor"));
  c.set_output(0, images);
  return absl::OkStatus();
}

absl::StatusOr<ContrastDims> PrepareContrast(OpKernelContext& ctx, Tensor** out) {
  const Tensor& x = ctx.input(0);
  const Tensor& factor = ctx.input(1);
  if (x.dims() < 3) {
    return errors::InvalidArgument(
        "input must be at least 3-D [..., height, width, channels], got ", x.shape().DebugString());
  }
  if (factor.dims() != 0) {
    return errors::InvalidArgument("contrast_factor must be scalar, got shape ",
                                   factor.shape().DebugString());
  }
  ContrastDims d;
  d.factor = factor.base<float>()[0];
  if (!std::isfinite(d.factor)) {
    return errors::InvalidArgument("contrast_factor must be finite, got ", d.factor);
  }
  const int r = x.dims();
  d.channels = x.dim_size(r - 1);
  d.pixels = x.dim_size(r - 2) * x.dim_size(r - 3);
  d.images = d.pixels * d.channels == 0 ? 0 : x.NumElements() / (d.pixels * d.channels);
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), out));
  return d;
}

}  // namespace rill
