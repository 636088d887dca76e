// The sampling of ScaleAndTranslate (TensorFlow's image op behind tf.image.resize's
// lanczos, gaussian, area-free kernels and tf.image.scale_and_translate): along each axis,
// output pixel o samples the input around s = (o + 0.5 - translation) / scale with a
// sampling kernel, stretched by 1 / scale when downsampling with `antialias` (a low-pass
// filter) and not otherwise; input pixel i sits at i + 0.5, its weight is the kernel at the
// distance, and a pixel's weights are normalized to sum to 1. A sample outside
// [0, input size] (or not a number) reads nothing: the output there is 0. The spans are
// computed in float, as TensorFlow's, so the same pixels are read with the same weights.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace rill {

enum class SamplingKernel {
  kLanczos1,
  kLanczos3,
  kLanczos5,
  kGaussian,
  kBox,
  kTriangle,
  kKeysCubic,
  kMitchellCubic
};

// "lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic" or
// "mitchellcubic"; InvalidArgument listing them otherwise.
absl::StatusOr<SamplingKernel> SamplingKernelNamed(const std::string& name);

// One axis: output o reads input pixels start[o] .. start[o] + span - 1 with weights
// weight[o * span ..] (zero past the pixel's own span, which may be shorter).
struct SampleSpans {
  int64_t span = 0;
  std::vector<int64_t> start;
  std::vector<float> weight;
};

// The spans of an axis of `in` pixels sampled to `out` (both >= 1). `scale` > 0 (checked
// by the caller). InvalidArgument when the weights would pass `max_weights` (a tiny scale
// with antialias widens every span to the whole input).
absl::StatusOr<SampleSpans> ComputeSampleSpans(SamplingKernel kernel, int64_t in, int64_t out,
                                               float scale, float translation, bool antialias,
                                               int64_t max_weights);

}  // namespace rill
