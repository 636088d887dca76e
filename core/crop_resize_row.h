// The elements of CropAndResize and its two gradients, shared by the CPU and GPU kernels.
// Box b, normalized [y1, x1, y2, x2] over image box_ind[b], is sampled on a crop_h x crop_w
// grid: row y reads image row y1 * (h - 1) + y * (y2 - y1) * (h - 1) / (crop_h - 1) (the
// box's middle when crop_h is 1), columns alike, bilinearly or at the nearest pixel. A
// position outside the image, or not a number (a NaN box), gives extrapolation_value and no
// gradient (TensorFlow's kernels turn a NaN position into an index; rill's never do).
#pragma once

#include <cmath>
#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

struct CropDims {
  int64_t batch = 0, in_h = 0, in_w = 0, depth = 0;
  int64_t boxes = 0, crop_h = 0, crop_w = 0;
  bool bilinear = true;
  float extrapolation = 0;
};

// The image coordinate of crop position i along a dim of `in` pixels and `crop` samples,
// for box bounds lo and hi, as TensorFlow computes it (in float).
RILL_HOST_DEVICE inline float CropCoord(float lo, float hi, int64_t i, int64_t crop, int64_t in) {
  const float span = static_cast<float>(in - 1);
  if (crop > 1) return lo * span + static_cast<float>(i) * ((hi - lo) * span / (crop - 1));
  return 0.5f * (lo + hi) * span;
}
RILL_HOST_DEVICE inline bool CropInside(float at, int64_t in) {
  return at >= 0 && at <= static_cast<float>(in - 1);  // false for NaN
}

// One crop sample: up to four image elements (offsets into the image) and their weights.
struct CropTaps {
  int count = 0;
  int64_t at[4];
  float w[4];
  float yl = 0, xl = 0;  // bilinear: the fractions between the rows and the columns
};
RILL_HOST_DEVICE inline CropTaps CropTapsAt(const CropDims& d, const float* boxes,
                                            const int32_t* box_ind, int64_t index) {
  CropTaps t;
  const int64_t c = index % d.depth;
  int64_t rest = index / d.depth;
  const int64_t x = rest % d.crop_w;
  rest /= d.crop_w;
  const int64_t y = rest % d.crop_h;
  const int64_t b = rest / d.crop_h;
  const float* box = boxes + 4 * b;
  const float in_y = CropCoord(box[0], box[2], y, d.crop_h, d.in_h);
  const float in_x = CropCoord(box[1], box[3], x, d.crop_w, d.in_w);
  if (!CropInside(in_y, d.in_h) || !CropInside(in_x, d.in_w)) return t;
  const int64_t base = static_cast<int64_t>(box_ind[b]) * d.in_h;
  auto offset = [&](int64_t r, int64_t q) { return ((base + r) * d.in_w + q) * d.depth + c; };
  if (!d.bilinear) {
    t.count = 1;
    t.at[0] = offset(static_cast<int64_t>(roundf(in_y)), static_cast<int64_t>(roundf(in_x)));
    t.w[0] = 1;
    return t;
  }
  const int64_t top = static_cast<int64_t>(floorf(in_y)),
                bottom = static_cast<int64_t>(ceilf(in_y));
  const int64_t left = static_cast<int64_t>(floorf(in_x)),
                right = static_cast<int64_t>(ceilf(in_x));
  const float yl = in_y - floorf(in_y), xl = in_x - floorf(in_x);
  t.yl = yl;
  t.xl = xl;
  t.count = 4;
  t.at[0] = offset(top, left);
  t.w[0] = (1 - yl) * (1 - xl);
  t.at[1] = offset(top, right);
  t.w[1] = (1 - yl) * xl;
  t.at[2] = offset(bottom, left);
  t.w[2] = yl * (1 - xl);
  t.at[3] = offset(bottom, right);
  t.w[3] = yl * xl;
  return t;
}

// CropAndResize's output element `index`: TensorFlow's lerps (top row, bottom row, then
// between them), or the nearest pixel, or extrapolation_value.
template <typename T>
RILL_HOST_DEVICE inline float CropAndResizeAt(const CropDims& d, const T* image, const float* boxes,
                                              const int32_t* box_ind, int64_t index) {
  const CropTaps t = CropTapsAt(d, boxes, box_ind, index);
  if (t.count == 0) return d.extrapolation;
  if (t.count == 1) return static_cast<float>(image[t.at[0]]);
  const float tl = static_cast<float>(image[t.at[0]]), tr = static_cast<float>(image[t.at[1]]);
  const float bl = static_cast<float>(image[t.at[2]]), br = static_cast<float>(image[t.at[3]]);
  const float top_row = tl + (tr - tl) * t.xl;
  const float bottom_row = bl + (br - bl) * t.xl;
  return top_row + (bottom_row - top_row) * t.yl;
}

// The gradient of box b's coordinates [y1, x1, y2, x2] (bilinear sampling), summed over its
// crop elements in order: dy times the image's slope along y (x) times the sample
// position's derivative by each coordinate.
template <typename T>
RILL_HOST_DEVICE inline void CropBoxGrad(const CropDims& d, const T* image, const float* boxes,
                                         const int32_t* box_ind, const float* grads, int64_t b,
                                         float* out) {
  out[0] = out[1] = out[2] = out[3] = 0;
  const float sy = static_cast<float>(d.in_h - 1), sx = static_cast<float>(d.in_w - 1);
  const int64_t per_box = d.crop_h * d.crop_w * d.depth;
  for (int64_t e = 0; e < per_box; ++e) {
    const int64_t index = b * per_box + e;
    const CropTaps t = CropTapsAt(d, boxes, box_ind, index);
    if (t.count != 4) continue;
    const int64_t x = (e / d.depth) % d.crop_w, y = e / (d.depth * d.crop_w);
    const float tl = static_cast<float>(image[t.at[0]]), tr = static_cast<float>(image[t.at[1]]);
    const float bl = static_cast<float>(image[t.at[2]]), br = static_cast<float>(image[t.at[3]]);
    const float xl = t.xl, yl = t.yl;
    const float g = grads[index];
    const float dy = ((1 - xl) * (bl - tl) + xl * (br - tr)) * g;
    const float dx = ((1 - yl) * (tr - tl) + yl * (br - bl)) * g;
    // d(in_y)/d(y1) and d(in_y)/d(y2); the middle's when the crop is one row.
    const float fy = d.crop_h > 1 ? static_cast<float>(y) / (d.crop_h - 1) : 0.5f;
    const float fx = d.crop_w > 1 ? static_cast<float>(x) / (d.crop_w - 1) : 0.5f;
    out[0] += dy * sy * (1 - fy);
    out[2] += dy * sy * fy;
    out[1] += dx * sx * (1 - fx);
    out[3] += dx * sx * fx;
  }
}

}  // namespace rill
