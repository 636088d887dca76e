#include "rill/core/colorspace.h"

namespace rill {
namespace {

// TensorFlow's words for an image that is not a vector of pixels of 3 channels.
absl::Status CheckChannels(const PartialTensorShape& s) {
  if (s.unknown_rank()) return absl::OkStatus();
  if (s.dims() < 1) {
    return errors::InvalidArgument("input must be at least 1D, got ", s.DebugString());
  }
  const int64_t channels = s.dim_size(s.dims() - 1);
  if (channels >= 0 && channels != 3) {
    return errors::InvalidArgument("input must have 3 channels but input only has ", channels,
                                   " channels (shape ", s.DebugString(), ")");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ColorShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckChannels(c.input_shape(0)));
  if (c.num_inputs() == 1) return shape_fns::Unchanged(c);
  return shape_fns::SameShapes(c);
}

absl::StatusOr<int64_t> PrepareColor(OpKernelContext& ctx, Tensor** out) {
  const Tensor& x = ctx.input(0);
  RILL_RETURN_IF_ERROR(CheckChannels(PartialTensorShape(x.shape())));
  if (ctx.num_inputs() == 2 && ctx.input(1).shape() != x.shape()) {
    return errors::InvalidArgument("grads must have the images' shape ", x.shape().DebugString(),
                                   ", got ", ctx.input(1).shape().DebugString());
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), out));
  return x.NumElements() / 3;
}

}  // namespace rill
