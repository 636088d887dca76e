// MaxPoolWithArgmax's arithmetic per output element (TensorFlow's tf.nn.max_pool_with_argmax),
// shared by the CPU kernel (kernels/cpu/pool_argmax_ops.cc) and the GPU one
// (kernels/cuda/pool_argmax.cu): the max of the window and the flat index of its first
// maximal element in scan order, as rill's MaxPoolGrad picks it (padding never wins; a
// NaN never wins either, so a window without a number gives -inf at its first element).
// The index is (y * width + x) * channels + c, or with the batch included
// ((b * height + y) * width + x) * channels + c.
#pragma once

#include <cmath>
#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

// An NHWC max pool's geometry in plain integers (the CUDA files do not see absl).
struct ArgmaxPoolDims {
  int64_t batch, in_h, in_w, c;
  int64_t k_h, k_w, stride_h, stride_w;
  int64_t out_h, out_w, pad_top, pad_left;
  bool include_batch;
};

// The window's max at output element e ([n, oh, ow, c]) into *value; returns its index.
template <typename T>
RILL_HOST_DEVICE inline int64_t MaxPoolArgmaxAt(const ArgmaxPoolDims& d, const T* x, int64_t e,
                                                T* value) {
  const int64_t c = e % d.c, ow = e / d.c % d.out_w, oh = e / d.c / d.out_w % d.out_h;
  const int64_t n = e / d.c / d.out_w / d.out_h;
  const int64_t h0 = oh * d.stride_h - d.pad_top, w0 = ow * d.stride_w - d.pad_left;
  const int64_t hs = h0 < 0 ? 0 : h0, ws = w0 < 0 ? 0 : w0;
  const int64_t he = h0 + d.k_h < d.in_h ? h0 + d.k_h : d.in_h;
  const int64_t we = w0 + d.k_w < d.in_w ? w0 + d.k_w : d.in_w;
  T best = -T(INFINITY);
  int64_t where = hs * d.in_w + ws;
  for (int64_t h = hs; h < he; ++h)
    for (int64_t w = ws; w < we; ++w) {
      const T v = x[((n * d.in_h + h) * d.in_w + w) * d.c + c];
      if (v > best) {
        best = v;
        where = h * d.in_w + w;
      }
    }
  *value = best;
  return (where + (d.include_batch ? n * d.in_h * d.in_w : 0)) * d.c + c;
}

}  // namespace rill
