// The checks of RGBToHSV, HSVToRGB and their gradients, shared by the CPU and GPU kernels
// and the shape functions; the arithmetic is core/colorspace_row.h's.
#pragma once

#include "rill/core/colorspace_row.h"
#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// images (and, for a gradient, grads of images' shape): rank >= 1, the last dim 3 channels.
absl::Status ColorShape(InferenceContext& c);

// The same on the node's inputs; allocates output 0 (images' shape) and returns the number
// of pixels.
absl::StatusOr<int64_t> PrepareColor(OpKernelContext& ctx, Tensor** out);

}  // namespace rill
