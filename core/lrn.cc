#include "rill/core/lrn.h"

#include <cmath>
#include <limits>

#include "rill/core/graph.h"

namespace rill {

absl::StatusOr<LrnParams> LrnAttrs(const AttrMap& attrs) {
  LrnParams p;
  p.radius = std::get<int64_t>(attrs.at("depth_radius"));
  p.bias = std::get<float>(attrs.at("bias"));
  p.alpha = std::get<float>(attrs.at("alpha"));
  p.beta = std::get<float>(attrs.at("beta"));
  // The window's span, 2 * radius + 1, must not overflow.
  if (p.radius < 0 || p.radius > std::numeric_limits<int32_t>::max()) {
    return errors::InvalidArgument("depth_radius must be in [0, 2^31 - 1], got ", p.radius);
  }
  for (double v : {p.bias, p.alpha, p.beta}) {
    if (!std::isfinite(v)) {
      return errors::InvalidArgument("bias, alpha and beta must be finite, got ", p.bias, ", ",
                                     p.alpha, ", ", p.beta);
    }
  }
  return p;
}

absl::StatusOr<LrnParams> PrepareLrn(OpKernelContext& ctx, Tensor** out) {
  RILL_ASSIGN_OR_RETURN(LrnParams p, LrnAttrs(ctx.node().attrs()));
  const TensorShape& shape = ctx.input(0).shape();
  if (shape.dims() != 4) {
    return errors::InvalidArgument("the input must be 4-D [batch, height, width, depth], got ",
                                   shape.DebugString());
  }
  for (int i = 1; i < ctx.num_inputs(); ++i) {
    if (ctx.input(i).shape() != shape) {
      return errors::InvalidArgument(
          "input_grads, input_image and output_image must have one "
          "shape, got ",
          shape.DebugString(), " and ", ctx.input(i).shape().DebugString(), " (input ", i, ")");
    }
  }
  p.depth = shape.dim_size(3);
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  return p;
}

}  // namespace rill
