// RoiAlign (ONNX's, as Mask R-CNN's RoIAlign and ONNX Runtime compute it; TensorFlow has no
// such op): each region of interest of an NCHW image is split into output_height x
// output_width bins; each bin averages (or takes the max of) a grid of bilinear samples.
// The rules, shared by the op's shape function and kernels:
//  - a roi (x1, y1, x2, y2) is scaled by spatial_scale and, with half_pixel, shifted by
//    -0.5; without half_pixel its sides are at least 1;
//  - the grid per bin is sampling_ratio x sampling_ratio, or with sampling_ratio 0
//    ceil(roi height / output_height) x ceil(roi width / output_width);
//  - a sample past (-1, H) or (-1, W) is 0; one in [-1, 0) reads row (column) 0; one at or
//    past the last row (column) reads it; max mode takes the largest of each sample's four
//    weighted corners, as ONNX Runtime does.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "rill/core/host_device.h"

namespace rill {

struct RoiAlignParams {
  bool max = false;        // mode "max"; else "avg"
  bool half_pixel = true;  // coordinate_transformation_mode "half_pixel"
  int64_t out_h = 1, out_w = 1, sampling_ratio = 0;
  float spatial_scale = 1;
};

// The attrs checked: mode, coordinate_transformation_mode, output sizes >= 1,
// sampling_ratio >= 0, a finite spatial_scale.
absl::StatusOr<RoiAlignParams> ParseRoiAlign(const std::string& mode, const std::string& transform,
                                             int64_t out_h, int64_t out_w, int64_t sampling_ratio,
                                             float spatial_scale);

// The most samples one bin may take: an adaptive grid for a huge roi is refused rather
// than looped over.
inline constexpr int64_t kMaxRoiAlignSamplesPerBin = int64_t{1} << 16;

// One roi's geometry.
template <typename T>
struct RoiBox {
  T start_y, start_x, bin_h, bin_w;
  int64_t grid_h, grid_w;
};

// Bilinear sample of `plane` (h x w) at (y, x) by RoiAlign's edge rules; with `max`, the
// largest weighted corner.
template <typename T>
RILL_HOST_DEVICE inline T RoiAlignSample(const T* plane, int64_t h, int64_t w, T y, T x, bool max) {
  if (y < T(-1) || y > T(h) || x < T(-1) || x > T(w)) return T(0);
  y = y < T(0) ? T(0) : y;
  x = x < T(0) ? T(0) : x;
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1, x1;
  if (y0 >= h - 1) {
    y0 = y1 = h - 1;
    y = T(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= w - 1) {
    x0 = x1 = w - 1;
    x = T(x0);
  } else {
    x1 = x0 + 1;
  }
  const T ly = y - T(y0), lx = x - T(x0), hy = T(1) - ly, hx = T(1) - lx;
  const T a = hy * hx * plane[y0 * w + x0], b = hy * lx * plane[y0 * w + x1],
          c = ly * hx * plane[y1 * w + x0], d = ly * lx * plane[y1 * w + x1];
  if (!max) return a + b + c + d;
  const T ab = a > b ? a : b, cd = c > d ? c : d;
  return ab > cd ? ab : cd;
}

// Bin (ph, pw) of a roi over `plane`.
template <typename T>
RILL_HOST_DEVICE inline T RoiAlignBin(const T* plane, int64_t h, int64_t w, const RoiBox<T>& r,
                                      int64_t ph, int64_t pw, bool max) {
  T acc = T(0);
  bool first = true;
  for (int64_t iy = 0; iy < r.grid_h; ++iy) {
    const T y = r.start_y + T(ph) * r.bin_h + (T(iy) + T(0.5)) * r.bin_h / T(r.grid_h);
    for (int64_t ix = 0; ix < r.grid_w; ++ix) {
      const T x = r.start_x + T(pw) * r.bin_w + (T(ix) + T(0.5)) * r.bin_w / T(r.grid_w);
      const T v = RoiAlignSample(plane, h, w, y, x, max);
      if (!max) {
        acc += v;
      } else if (first || v > acc) {
        acc = v;
      }
      first = false;
    }
  }
  if (max) return acc;
  const int64_t count = r.grid_h * r.grid_w;
  return count > 0 ? acc / T(count) : acc;
}

}  // namespace rill
