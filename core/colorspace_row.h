// TensorFlow's RGBToHSV and HSVToRGB (tf.image.rgb_to_hsv, hsv_to_rgb) and their gradients,
// one pixel (the last dim's 3 channels) at a time, shared by the CPU and GPU kernels.
//   RGB -> HSV: v = max, d = max - min, s = d / v (0 when v is 0), and the hue the
//   position on the colour wheel in sixths, (k + (a - c) / d) / 6 wrapped into [0, 1),
//   k = 0, 2, 4 for a red, green or blue maximum (a, c the two others in wheel order);
//   0 when d is 0.
//   HSV -> RGB: each channel v * (1 - s + s * ramp(h)), ramp a clamped tent of 6h, so
//   that any h (inside [0, 1] or not) gives a colour, as TensorFlow's kernel does.
// A tie for the maximum goes to red, then green; for the minimum to blue, then green.
#pragma once

#include <cmath>
#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

enum class ColorKind : int { kRgbToHsv, kHsvToRgb, kRgbToHsvGrad, kHsvToRgbGrad };

namespace color {

template <typename T>
RILL_HOST_DEVICE inline T Clamp01(T x) {
  return x < T(0) ? T(0) : (x > T(1) ? T(1) : x);
}

// The channel holding the maximum (ties: red, then green) and the minimum (ties: blue,
// then green), so that the two differ even for a grey.
RILL_HOST_DEVICE inline int MaxChannel(const double* x) {
  return x[0] >= x[1] && x[0] >= x[2] ? 0 : (x[1] >= x[2] ? 1 : 2);
}
RILL_HOST_DEVICE inline int MinChannel(const double* x) {
  return x[2] <= x[0] && x[2] <= x[1] ? 2 : (x[1] <= x[0] ? 1 : 0);
}

// ramp_c(h) for channel c and its slope d ramp_c / d h (0 where the clamp holds).
RILL_HOST_DEVICE inline double Ramp(int c, double h, double* slope) {
  const double t = 6 * h;
  const double centre = c == 0 ? 3 : (c == 1 ? 2 : 4);
  const double u = t - centre;
  const double au = u < 0 ? -u : u;
  const double raw = c == 0 ? au - 1 : 2 - au;
  const double sign = u < 0 ? -1 : 1;
  *slope = raw > 0 && raw < 1 ? (c == 0 ? 6 * sign : -6 * sign) : 0;
  return Clamp01(raw);
}

template <typename T>
RILL_HOST_DEVICE inline void RgbToHsv(const T* in, T* out) {
  const double x[3] = {double(in[0]), double(in[1]), double(in[2])};
  const int hi = MaxChannel(x), lo = MinChannel(x);
  const double v = x[hi], d = v - x[lo];
  double h = 0;
  if (d > 0) {
    // (a - c) for the maximum's two others in wheel order: g - b, b - r, r - g.
    h = (2 * hi + (x[(hi + 1) % 3] - x[(hi + 2) % 3]) / d) / 6;
    if (h < 0) h += 1;
  }
  out[0] = T(h);
  out[1] = T(v > 0 ? d / v : 0);
  out[2] = T(v);
}

template <typename T>
RILL_HOST_DEVICE inline void HsvToRgb(const T* in, T* out) {
  const double h = in[0], s = in[1], v = in[2];
  for (int c = 0; c < 3; ++c) {
    double slope;
    out[c] = T((1 - s + s * Ramp(c, h, &slope)) * v);
  }
}

// d loss / d rgb from dy = d loss / d hsv at the pixel `in` (RGB).
template <typename T>
RILL_HOST_DEVICE inline void RgbToHsvGrad(const T* in, const T* dy, T* dx) {
  const double x[3] = {double(in[0]), double(in[1]), double(in[2])};
  const int hi = MaxChannel(x), lo = MinChannel(x);
  const double v = x[hi], d = v - x[lo];
  double g[3] = {0, 0, 0};
  g[hi] += double(dy[2]);  // dv
  if (v > 0) {             // s = d / v
    g[hi] += double(dy[1]) * (1 / v - d / (v * v));
    g[lo] -= double(dy[1]) / v;
  }
  if (d > 0) {  // h = (k + (a - c) / d) / 6
    const int a = (hi + 1) % 3, c = (hi + 2) % 3;
    const double dh = double(dy[0]) / (6 * d);
    const double q = dh * (x[a] - x[c]) / d;
    g[a] += dh;
    g[c] -= dh;
    g[hi] -= q;
    g[lo] += q;
  }
  for (int k = 0; k < 3; ++k) dx[k] = T(g[k]);
}

// d loss / d hsv from dy = d loss / d rgb at the pixel `in` (HSV).
template <typename T>
RILL_HOST_DEVICE inline void HsvToRgbGrad(const T* in, const T* dy, T* dx) {
  const double h = in[0], s = in[1], v = in[2];
  double gh = 0, gs = 0, gv = 0;
  for (int c = 0; c < 3; ++c) {
    double slope;
    const double r = Ramp(c, h, &slope), g = double(dy[c]);
    gh += g * v * s * slope;
    gs += g * v * (r - 1);
    gv += g * (1 - s + s * r);
  }
  dx[0] = T(gh);
  dx[1] = T(gs);
  dx[2] = T(gv);
}

}  // namespace color

// Pixel p of `x` (and of `dy` for the gradients) into `out`.
template <ColorKind K, typename T>
RILL_HOST_DEVICE inline void ColorPixel(const T* x, const T* dy, T* out, int64_t p) {
  if constexpr (K == ColorKind::kRgbToHsv) color::RgbToHsv(x + 3 * p, out + 3 * p);
  if constexpr (K == ColorKind::kHsvToRgb) color::HsvToRgb(x + 3 * p, out + 3 * p);
  if constexpr (K == ColorKind::kRgbToHsvGrad) {
    color::RgbToHsvGrad(x + 3 * p, dy + 3 * p, out + 3 * p);
  }
  if constexpr (K == ColorKind::kHsvToRgbGrad) {
    color::HsvToRgbGrad(x + 3 * p, dy + 3 * p, out + 3 * p);
  }
}

// tf.image.adjust_hue and adjust_saturation on one RGB pixel, in double: the hue moved by
// delta and wrapped into [0, 1) (TensorFlow's fmod), or the saturation times scale clamped
// into [0, 1]; value unchanged.
template <typename T>
RILL_HOST_DEVICE inline void AdjustHsvPixel(const T* in, bool hue, double amount, T* out) {
  const double rgb[3] = {double(in[0]), double(in[1]), double(in[2])};
  double hsv[3], back[3];
  color::RgbToHsv(rgb, hsv);
  if (hue) {
    hsv[0] = std::fmod(hsv[0] + amount, 1.0);
    if (hsv[0] < 0) hsv[0] += 1;
  } else {
    hsv[1] = color::Clamp01(hsv[1] * amount);
  }
  color::HsvToRgb(hsv, back);
  for (int c = 0; c < 3; ++c) out[c] = T(back[c]);
}

}  // namespace rill
