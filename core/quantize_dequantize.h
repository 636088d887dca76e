// TensorFlow's QuantizeAndDequantizeV2, V3 and V4 (tf.quantization.quantize_and_dequantize
// and _v2) and V4's gradient op, shared by the kernel and the shape functions. A range
// [min, max] (given, or the input's own, per slice along `axis` or over the whole tensor)
// is scaled onto the integer levels of num_bits (signed: [-2^(b-1), 2^(b-1) - 1], one fewer
// at the bottom when narrow_range; unsigned: [0, 2^b - 1]) by the largest factor that keeps
// both ends inside while 0 stays 0; each value is then rounded to its level (half to even,
// or half up) and scaled back. With a given range values are first clamped into it (as
// adjusted to the scale). V4's gradient passes where min <= input <= max.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

struct QdqAttrs {
  bool signed_input = true;
  int64_t num_bits = 8;  // V3: its num_bits input, read when it runs
  bool range_given = false;
  bool half_up = false;  // round_mode HALF_UP; else HALF_TO_EVEN
  bool narrow_range = false;
  int64_t axis = -1;  // -1: one range for the whole tensor
};

// The node's attrs (each op's defaults where absent); num_bits and round_mode checked.
absl::StatusOr<QdqAttrs> ReadQdqAttrs(const AttrMap& attrs);
// num_bits in [1, 61] signed or [1, 62] unsigned (TensorFlow's words).
absl::Status CheckNumBits(int64_t num_bits, bool signed_input);

// How element i maps to its range: slice (i / inner) % depth.
struct QdqSlices {
  int64_t depth = 1, inner = 1;
};
// axis -1 or a dim of input.
absl::StatusOr<QdqSlices> SlicesOf(const TensorShape& input, int64_t axis);
// min and max: scalars (axis -1) or vectors of the slices' count.
absl::Status CheckRangeShapes(const Tensor& min, const Tensor& max, const QdqSlices& s,
                              int64_t axis);

// Shape functions of V2, V3, V4 (input, input_min, input_max[, num_bits]) and of V4Grad
// (gradients, input, input_min, input_max).
absl::Status QdqShape(InferenceContext& c);
absl::Status QdqGradShape(InferenceContext& c);

template <typename T>
struct QdqScale {
  T min, max;  // the range as adjusted to the scale
  T scale, inverse;
};

// TensorFlow's rule, in T as its kernel computes it (so values match bit for bit).
template <typename T>
QdqScale<T> ScaleOf(T min, T max, const QdqAttrs& a) {
  const int64_t half = int64_t{1} << (a.num_bits - 1);
  const T qmin = static_cast<T>(a.signed_input ? (a.narrow_range ? -half + 1 : -half) : 0);
  const T qmax = static_cast<T>(a.signed_input ? half - 1 : (int64_t{1} << a.num_bits) - 1);
  const T from_min = qmin * min > 0 ? qmin / min : std::numeric_limits<T>::max();
  const T from_max = qmax * max > 0 ? qmax / max : std::numeric_limits<T>::max();
  QdqScale<T> r{min, max, 0, 0};
  // The side that sets the scale keeps its end; the other end moves to its last level.
  if (from_min < from_max) {
    r.scale = from_min;
    r.inverse = min / qmin;
    r.max = qmax * r.inverse;
  } else {
    r.scale = from_max;
    r.inverse = max / qmax;
    r.min = qmin * r.inverse;
  }
  return r;
}

// Half up as TensorFlow's (Eigen's floor(x + 0.5)); half to even from x's exact distance to
// the level below.
template <typename T>
T QdqRound(T x, bool half_up) {
  if (half_up) return std::floor(x + T(0.5));
  const T r = std::floor(x), d = x - r;
  if (d < T(0.5)) return r;
  if (d > T(0.5)) return r + 1;
  return std::fmod(r, T(2)) == 0 ? r : r + 1;
}

template <typename T>
T QuantizeDequantize(T x, const QdqScale<T>& s, bool clamp, bool half_up) {
  if (clamp) x = x < s.min ? s.min : (x > s.max ? s.max : x);
  return QdqRound(x * s.scale, half_up) * s.inverse;
}

}  // namespace rill
