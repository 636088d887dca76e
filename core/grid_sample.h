// GridSample (ONNX's, as PyTorch's grid_sample defines it; TensorFlow has no such op): the
// value of one NCHW image plane at a normalized point (x, y) of a sampling grid, shared by
// the op's kernels. Coordinates map from [-1, 1] to pixel centers (align_corners: -1 and 1
// are the corner pixels' centers; else their outer edges). A point outside the image is
// clamped (border) or reflected (reflection) first; then each tap of the interpolation
// (nearest: the point rounded half to even; bilinear: 2 x 2; bicubic: 4 x 4 with Keys'
// kernel, a = -0.75) reads 0 outside the image (zeros), its clamped pixel (border) or its
// reflected one (reflection).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "rill/core/host_device.h"

namespace rill {

enum class GridSampleMode : int { kBilinear, kNearest, kBicubic };
enum class GridPadding : int { kZeros, kBorder, kReflection };

struct GridSampleParams {
  GridSampleMode mode = GridSampleMode::kBilinear;
  GridPadding padding = GridPadding::kZeros;
  bool align_corners = false;
};

// The attrs' strings ("bilinear", "nearest", "bicubic"; "zeros", "border", "reflection").
absl::StatusOr<GridSampleParams> ParseGridSample(const std::string& mode,
                                                 const std::string& padding_mode,
                                                 bool align_corners);

namespace grid_sample {

// x reflected by the borders [lo, hi] until it lies between them.
template <typename T>
RILL_HOST_DEVICE inline T Reflect(T x, T lo, T hi) {
  const T range = hi - lo;
  if (!(range > T(0))) return lo;
  if (x >= lo && x <= hi) return x;
  const T d = x < lo ? lo - x : x - hi;
  const T folds = std::floor(d / range);
  const T r = d - folds * range;
  const bool even = std::fmod(folds, T(2)) == T(0);
  return (x < lo) == even ? lo + r : hi - r;
}

// Pixel i of a line of `size` pixels as the padding reads it; -1 for a zero.
template <typename T>
RILL_HOST_DEVICE inline int64_t Tap(int64_t i, int64_t size, const GridSampleParams& p) {
  if (i >= 0 && i < size) return i;
  if (p.padding == GridPadding::kZeros) return -1;
  if (p.padding == GridPadding::kBorder) return i < 0 ? 0 : size - 1;
  const T lo = p.align_corners ? T(0) : T(-0.5),
          hi = p.align_corners ? T(size - 1) : T(size) - T(0.5);
  const int64_t r = static_cast<int64_t>(Reflect(static_cast<T>(i), lo, hi));  // toward zero
  return r < 0 ? 0 : (r >= size ? size - 1 : r);
}

// A normalized coordinate as a pixel coordinate along `size`, clamped or reflected where
// the padding says so.
template <typename T>
RILL_HOST_DEVICE inline T Unnormalize(T n, int64_t size, const GridSampleParams& p) {
  T x = p.align_corners ? (n + T(1)) / T(2) * T(size - 1) : ((n + T(1)) * T(size) - T(1)) / T(2);
  if (p.mode == GridSampleMode::kNearest) x = std::nearbyint(x);
  const T lo = p.align_corners ? T(0) : T(-0.5),
          hi = p.align_corners ? T(size - 1) : T(size) - T(0.5);
  if (x < lo || x > hi) {
    if (p.padding == GridPadding::kBorder)
      x = x < T(0) ? T(0) : (x > T(size - 1) ? T(size - 1) : x);
    if (p.padding == GridPadding::kReflection) x = Reflect(x, lo, hi);
  }
  return x;
}

// Keys' cubic convolution weights of the taps floor(x) - 1 .. floor(x) + 2, t = x - floor(x).
template <typename T>
RILL_HOST_DEVICE inline void CubicWeights(T t, T* w) {
  const T a = T(-0.75);
  const T t1 = t + T(1), t2 = T(1) - t, t3 = T(2) - t;
  w[0] = ((a * t1 - T(5) * a) * t1 + T(8) * a) * t1 - T(4) * a;
  w[1] = ((a + T(2)) * t - (a + T(3))) * t * t + T(1);
  w[2] = ((a + T(2)) * t2 - (a + T(3))) * t2 * t2 + T(1);
  w[3] = ((a * t3 - T(5) * a) * t3 + T(8) * a) * t3 - T(4) * a;
}

}  // namespace grid_sample

// The value of `plane` (h x w, row-major) at the normalized point (gx, gy); a NaN
// coordinate gives NaN.
template <typename T>
RILL_HOST_DEVICE inline T GridSampleAt(const T* plane, int64_t h, int64_t w, T gx, T gy,
                                       const GridSampleParams& p) {
  using namespace grid_sample;  // NOLINT(build/namespaces)
  if (gx != gx || gy != gy) return gx + gy;
  const T x = Unnormalize(gx, w, p), y = Unnormalize(gy, h, p);
  if (x != x || y != y) return x + y;  // an infinity reflected
  // Only zeros padding leaves a point this far out (border clamps, reflection folds in):
  // every tap is outside, and the cast to an index would overflow.
  if (!(std::abs(x) < T(1e15)) || !(std::abs(y) < T(1e15))) return T(0);
  const auto at = [&](int64_t r, int64_t c) {
    const int64_t rr = Tap<T>(r, h, p), cc = Tap<T>(c, w, p);
    return rr < 0 || cc < 0 ? T(0) : plane[rr * w + cc];
  };
  if (p.mode == GridSampleMode::kNearest) {
    return at(static_cast<int64_t>(y), static_cast<int64_t>(x));
  }
  const T fx = std::floor(x), fy = std::floor(y);
  const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
  const T tx = x - fx, ty = y - fy;
  if (p.mode == GridSampleMode::kBilinear) {
    return (T(1) - ty) * ((T(1) - tx) * at(y0, x0) + tx * at(y0, x0 + 1)) +
           ty * ((T(1) - tx) * at(y0 + 1, x0) + tx * at(y0 + 1, x0 + 1));
  }
  T wx[4], wy[4];
  CubicWeights(tx, wx);
  CubicWeights(ty, wy);
  T sum = T(0);
  for (int i = 0; i < 4; ++i) {
    T row = T(0);
    for (int j = 0; j < 4; ++j) row += wx[j] * at(y0 - 1 + i, x0 - 1 + j);
    sum += wy[i] * row;
  }
  return sum;
}

}  // namespace rill
