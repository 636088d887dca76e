// TensorFlow's AdjustContrastv2 (tf.image.adjust_contrast): in each image of
// [..., height, width, channels], every channel's pixels moved away from (factor > 1) or
// towards (factor < 1) that channel's mean over the image: (x - mean) * factor + mean.
// The checks, shared by the CPU and GPU kernels and the shape function; the arithmetic is
// core/adjust_contrast_row.h's.
#pragma once

#include "rill/core/adjust_contrast_row.h"
#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// images of rank >= 3, contrast_factor a scalar.
absl::Status ContrastShape(InferenceContext& c);

// The same on the node's inputs (contrast_factor read on the host, and finite); allocates
// output 0.
absl::StatusOr<ContrastDims> PrepareContrast(OpKernelContext& ctx, Tensor** out);

}  // namespace rill
