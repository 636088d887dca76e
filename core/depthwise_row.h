// Depthwise convolution's arithmetic per element (TensorFlow's DepthwiseConv2dNative),
// shared by the CPU kernels' direct path (kernels/cpu/depthwise_conv_ops.cc) and the GPU
// kernels (kernels/cuda/depthwise_conv.cu), so both devices compute the same sums in the
// same order. Tensors are NHWC; the filter is [k_h, k_w, c, m] and output channel
// oc = ch * m + q reads input channel ch with filter column (ch, q). Each function gathers
// one output value (no atomics, deterministic): the forward output, the input's gradient
// (from the windows holding that input element) and the filter's gradient (a sum over
// every image and output position).
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

// A depthwise geometry in plain integers (the CUDA files do not see absl): c input
// channels, m filters per channel, so c * m output channels.
struct DepthwiseDims {
  int64_t batch, in_h, in_w, c, m;
  int64_t k_h, k_w, stride_h, stride_w;
  int64_t out_h, out_w, pad_top, pad_left;
};

// y[b, oh, ow, oc].
template <typename T>
RILL_HOST_DEVICE inline T DepthwiseOutput(const DepthwiseDims& d, const T* x, const T* f, int64_t b,
                                          int64_t oh, int64_t ow, int64_t oc) {
  const int64_t ch = oc / d.m, out_c = d.c * d.m;
  T acc = T(0);
  for (int64_t i = 0; i < d.k_h; ++i) {
    const int64_t ih = oh * d.stride_h - d.pad_top + i;
    if (ih < 0 || ih >= d.in_h) continue;
    for (int64_t j = 0; j < d.k_w; ++j) {
      const int64_t iw = ow * d.stride_w - d.pad_left + j;
      if (iw < 0 || iw >= d.in_w) continue;
      acc += x[((b * d.in_h + ih) * d.in_w + iw) * d.c + ch] * f[(i * d.k_w + j) * out_c + oc];
    }
  }
  return acc;
}

// The first output position along one axis whose window reaches input position p
// (o * stride - pad + k - 1 >= p), clamped at 0.
RILL_HOST_DEVICE inline int64_t FirstWindowHolding(int64_t p, int64_t pad, int64_t k,
                                                   int64_t stride) {
  const int64_t num = p + pad - k + 1;
  return num <= 0 ? 0 : (num + stride - 1) / stride;
}

// dx[b, ih, iw, ch]: every window and filter column that read it, weighted by dy.
template <typename T>
RILL_HOST_DEVICE inline T DepthwiseInputGrad(const DepthwiseDims& d, const T* f, const T* dy,
                                             int64_t b, int64_t ih, int64_t iw, int64_t ch) {
  const int64_t out_c = d.c * d.m;
  T acc = T(0);
  for (int64_t oh = FirstWindowHolding(ih, d.pad_top, d.k_h, d.stride_h); oh < d.out_h; ++oh) {
    const int64_t i = ih - (oh * d.stride_h - d.pad_top);
    if (i < 0) break;  // later windows start past ih
    for (int64_t ow = FirstWindowHolding(iw, d.pad_left, d.k_w, d.stride_w); ow < d.out_w; ++ow) {
      const int64_t j = iw - (ow * d.stride_w - d.pad_left);
      if (j < 0) break;
      const T* g = dy + ((b * d.out_h + oh) * d.out_w + ow) * out_c + ch * d.m;
      const T* w = f + (i * d.k_w + j) * out_c + ch * d.m;
      for (int64_t q = 0; q < d.m; ++q) acc += g[q] * w[q];
    }
  }
  return acc;
}

// df[i, j, ch, q] at flat output channel oc = ch * m + q: x under tap (i, j) times dy over
// every image and output position.
template <typename T>
RILL_HOST_DEVICE inline T DepthwiseFilterGrad(const DepthwiseDims& d, const T* x, const T* dy,
                                              int64_t i, int64_t j, int64_t oc) {
  const int64_t ch = oc / d.m, out_c = d.c * d.m;
  T acc = T(0);
  for (int64_t b = 0; b < d.batch; ++b) {
    for (int64_t oh = 0; oh < d.out_h; ++oh) {
      const int64_t ih = oh * d.stride_h - d.pad_top + i;
      if (ih < 0 || ih >= d.in_h) continue;
      for (int64_t ow = 0; ow < d.out_w; ++ow) {
        const int64_t iw = ow * d.stride_w - d.pad_left + j;
        if (iw < 0 || iw >= d.in_w) continue;
        acc += x[((b * d.in_h + ih) * d.in_w + iw) * d.c + ch] *
               dy[((b * d.out_h + oh) * d.out_w + ow) * out_c + oc];
      }
    }
  }
  return acc;
}

}  // namespace rill
