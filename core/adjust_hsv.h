// AdjustHue and AdjustSaturation (tf.image.adjust_hue, adjust_saturation): the checks shared
// by the kernel and the shape function; each pixel is core/colorspace_row.h's
// AdjustHsvPixel. images [..., height, width, 3] (rank >= 3, as TensorFlow's), the amount
// (delta or scale) a float scalar.
#pragma once

#include "rill/core/colorspace_row.h"
#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// Input 1's name ("delta" or "scale") comes from the op's schema.
absl::Status AdjustHsvShape(InferenceContext& c);

// The CPU kernels' work: the inputs checked, output 0 allocated and filled. `hue`: delta
// moves the hue; else scale multiplies the saturation.
template <typename T>
absl::Status AdjustHsv(OpKernelContext& ctx, bool hue);

}  // namespace rill
