// TensorFlow's fake quantization (tf.quantization.fake_quant_with_min_max_args, _vars and
// _vars_per_channel) and its gradients, shared by the kernels and the shape functions.
// [min, max] is first nudged so that 0.0 falls exactly on one of the 2^num_bits levels
// (levels 1 .. 2^num_bits - 1 when narrow_range); a value is then clamped into the nudged
// range and rounded, half up, to the nearest level. The gradient passes through inside the
// nudged range; below it the gradient goes to min, above it to max.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "rill/core/kernel.h"

namespace rill {

struct QuantRange {
  float min = 0, max = 0, scale = 0;  // nudged; scale 0 when min == max
  float zero_level = 0;               // the level (counted from min's) that 0.0 falls on
};

// TensorFlow's nudging of [min, max] (min <= max) for num_bits and narrow_range.
QuantRange NudgeQuantRange(float min, float max, int num_bits, bool narrow_range);

// x clamped into r and rounded to its level.
inline float FakeQuantize(float x, const QuantRange& r) {
  if (r.scale == 0) return r.min;
  const float clamped = x < r.min ? r.min : (x > r.max ? r.max : x);
  const float level = std::floor((clamped - r.min) * (1.0f / r.scale) + 0.5f);
  // One rounding, from a whole number of steps: 0.0 comes back exactly (level * scale + min
  // may be fused into one multiply-add that keeps a residue of min's rounding).
  return (level - r.zero_level) * r.scale;
}

// The attrs num_bits (2 .. 16) and narrow_range of a node, and for FakeQuantWithMinMaxArgs
// its min < max (TensorFlow's words).
struct QuantAttrs {
  int num_bits = 8;
  bool narrow_range = false;
  float min = -6, max = 6;  // FakeQuantWithMinMaxArgs only
};
absl::StatusOr<QuantAttrs> ReadQuantAttrs(const AttrMap& attrs, bool with_range);

// The Vars ops' range inputs: scalars (per_channel false) or vectors as long as inputs'
// last dim, finite, each min <= max. Returns one nudged range per channel (one in all for
// scalars).
absl::StatusOr<std::vector<QuantRange>> ReadQuantRanges(const Tensor& inputs, const Tensor& min,
                                                        const Tensor& max, bool per_channel,
                                                        const QuantAttrs& a);

// Shape functions: the Args ops (inputs; gradients, inputs), the Vars ops (inputs, min, max;
// gradients, inputs, min, max) scalar or per channel.
absl::Status FakeQuantArgsShape(InferenceContext& c);
absl::Status FakeQuantVarsShape(InferenceContext& c, bool per_channel);

}  // namespace rill
