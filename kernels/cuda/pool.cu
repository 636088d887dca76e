// CUDA kernels of pooling, bias and the layout helpers of the cuDNN convolutions.
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/grid.cuh"

namespace rill::gpu {
namespace {

__device__ int64_t MaxOf(int64_t a, int64_t b) { return a > b ? a : b; }
__device__ int64_t MinOf(int64_t a, int64_t b) { return a < b ? a : b; }

// The clipped window [h0, h1) x [w0, w1) of output (oh, ow).
struct Window {
  int64_t h0, h1, w0, w1;
};
__device__ Window WindowOf(const WindowDims& d, int64_t oh, int64_t ow) {
  const int64_t hs = oh * d.stride_h - d.pad_top, ws = ow * d.stride_w - d.pad_left;
  return {MaxOf(hs, 0), MinOf(hs + d.k_h, d.in_h), MaxOf(ws, 0), MinOf(ws + d.k_w, d.in_w)};
}

template <typename T>
__global__ void PoolKernel(bool max, WindowDims d, const T* x, T* y, int64_t n) {
  RILL_GRID_LOOP(i, n) {
    const int64_t c = i % d.c, ow = (i / d.c) % d.out_w, oh = (i / d.c / d.out_w) % d.out_h;
    const int64_t b = i / d.c / d.out_w / d.out_h;
    const Window win = WindowOf(d, oh, ow);
    T acc = max ? -T(INFINITY) : T(0);
    for (int64_t h = win.h0; h < win.h1; ++h) {
      for (int64_t w = win.w0; w < win.w1; ++w) {
        const T v = x[((b * d.in_h + h) * d.in_w + w) * d.c + c];
        acc = max ? (v > acc ? v : acc) : acc + v;
      }
    }
    if (!max) acc *= T(1) / static_cast<T>((win.h1 - win.h0) * (win.w1 - win.w0));
    y[i] = acc;
  }
}

// The flat input index of window (oh, ow)'s first maximal element of channel c, or -1.
template <typename T>
__device__ int64_t ArgMaxOf(const WindowDims& d, const T* x, int64_t b, int64_t oh, int64_t ow,
                            int64_t c) {
  const Window win = WindowOf(d, oh, ow);
  int64_t where = -1;
  T best = T(0);
  for (int64_t h = win.h0; h < win.h1; ++h) {
    for (int64_t w = win.w0; w < win.w1; ++w) {
      const int64_t at = ((b * d.in_h + h) * d.in_w + w) * d.c + c;
      if (where < 0 || x[at] > best) {
        best = x[at];
        where = at;
      }
    }
  }
  return where;
}

// The range of outputs [lo, hi) along one axis whose windows hold input position p.
__device__ void OutputsHolding(int64_t p, int64_t pad, int64_t k, int64_t stride, int64_t out,
                               int64_t* lo, int64_t* hi) {
  // o * stride - pad <= p < o * stride - pad + k
  const int64_t first = p + pad - k + 1;
  *lo = first <= 0 ? 0 : (first + stride - 1) / stride;
  *hi = MinOf((p + pad) / stride + 1, out);
}

// The input's gradient, one thread per input element, gathered from the windows that
// hold it: a max window's gradient when the element is its first maximum (x is the
// pooled input), an average window's share.
template <typename T, bool kMax>
__global__ void PoolGradKernel(WindowDims d, const T* x, const T* dy, T* dx, int64_t n) {
  RILL_GRID_LOOP(i, n) {
    const int64_t c = i % d.c, w = (i / d.c) % d.in_w, h = (i / d.c / d.in_w) % d.in_h;
    const int64_t b = i / d.c / d.in_w / d.in_h;
    int64_t oh0, oh1, ow0, ow1;
    OutputsHolding(h, d.pad_top, d.k_h, d.stride_h, d.out_h, &oh0, &oh1);
    OutputsHolding(w, d.pad_left, d.k_w, d.stride_w, d.out_w, &ow0, &ow1);
    T acc = T(0);
    for (int64_t oh = oh0; oh < oh1; ++oh) {
      for (int64_t ow = ow0; ow < ow1; ++ow) {
        const T g = dy[((b * d.out_h + oh) * d.out_w + ow) * d.c + c];
        if constexpr (kMax) {
          if (ArgMaxOf(d, x, b, oh, ow, c) == i) acc += g;
        } else {
          const Window win = WindowOf(d, oh, ow);
          acc += g * (T(1) / static_cast<T>((win.h1 - win.h0) * (win.w1 - win.w0)));
        }
      }
    }
    dx[i] = acc;
  }
}

template <typename T>
__global__ void BiasAddKernel(const T* x, const T* bias, T* y, int64_t n, int64_t channels) {
  RILL_GRID_LOOP(i, n) { y[i] = x[i] + bias[i % channels]; }
}

template <typename T>
__global__ void Transpose2DKernel(const T* src, T* dst, int64_t rows, int64_t cols, int64_t n) {
  RILL_GRID_LOOP(i, n) {  // i indexes dst [cols, rows]
    const int64_t r = i % rows, c = i / rows;
    dst[i] = src[r * cols + c];
  }
}

// pad: dst is the big [n, hp, wp, c]; crop: dst is the small [n, h, w, c].
template <typename T, bool kPad>
__global__ void PadCropKernel(const T* src, T* dst, int64_t h, int64_t w, int64_t c, int64_t hp,
                              int64_t wp, int64_t top, int64_t left, int64_t n) {
  RILL_GRID_LOOP(i, n) {
    if constexpr (kPad) {
      const int64_t ch = i % c, x = (i / c) % wp, y = (i / c / wp) % hp, b = i / c / wp / hp;
      const int64_t sy = y - top, sx = x - left;
      dst[i] =
          sy >= 0 && sy < h && sx >= 0 && sx < w ? src[((b * h + sy) * w + sx) * c + ch] : T(0);
    } else {
      const int64_t ch = i % c, x = (i / c) % w, y = (i / c / w) % h, b = i / c / w / h;
      dst[i] = src[((b * hp + y + top) * wp + x + left) * c + ch];
    }
  }
}

}  // namespace

template <typename T>
cudaError_t LaunchPool(bool max, const WindowDims& d, const T* x, T* y, cudaStream_t stream) {
  const int64_t n = d.batch * d.out_h * d.out_w * d.c;
  if (n == 0) return cudaSuccess;
  PoolKernel<T><<<Blocks(n), 256, 0, stream>>>(max, d, x, y, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchMaxPoolGrad(const WindowDims& d, const T* x, const T* dy, T* dx,
                              cudaStream_t stream) {
  const int64_t n = d.batch * d.in_h * d.in_w * d.c;
  if (n == 0) return cudaSuccess;
  PoolGradKernel<T, true><<<Blocks(n), 256, 0, stream>>>(d, x, dy, dx, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchAvgPoolGrad(const WindowDims& d, const T* dy, T* dx, cudaStream_t stream) {
  const int64_t n = d.batch * d.in_h * d.in_w * d.c;
  if (n == 0) return cudaSuccess;
  PoolGradKernel<T, false><<<Blocks(n), 256, 0, stream>>>(d, nullptr, dy, dx, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchBiasAdd(const T* x, const T* bias, T* y, int64_t n, int64_t channels,
                          cudaStream_t stream) {
  if (n == 0 || channels == 0) return cudaSuccess;
  BiasAddKernel<T><<<Blocks(n), 256, 0, stream>>>(x, bias, y, n, channels);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchTranspose2D(const T* src, T* dst, int64_t rows, int64_t cols,
                              cudaStream_t stream) {
  const int64_t n = rows * cols;
  if (n == 0) return cudaSuccess;
  Transpose2DKernel<T><<<Blocks(n), 256, 0, stream>>>(src, dst, rows, cols, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchPadOrCropNhwc(bool pad, const T* src, T* dst, int64_t n, int64_t h, int64_t w,
                                int64_t c, int64_t hp, int64_t wp, int64_t top, int64_t left,
                                cudaStream_t stream) {
  const int64_t total = pad ? n * hp * wp * c : n * h * w * c;
  if (total == 0) return cudaSuccess;
  if (pad) {
    PadCropKernel<T, true>
        <<<Blocks(total), 256, 0, stream>>>(src, dst, h, w, c, hp, wp, top, left, total);
  } else {
    PadCropKernel<T, false>
        <<<Blocks(total), 256, 0, stream>>>(src, dst, h, w, c, hp, wp, top, left, total);
  }
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_POOL(T)                                                                 \
  template cudaError_t LaunchPool<T>(bool, const WindowDims&, const T*, T*, cudaStream_t);       \
  template cudaError_t LaunchMaxPoolGrad<T>(const WindowDims&, const T*, const T*, T*,           \
                                            cudaStream_t);                                       \
  template cudaError_t LaunchAvgPoolGrad<T>(const WindowDims&, const T*, T*, cudaStream_t);      \
  template cudaError_t LaunchBiasAdd<T>(const T*, const T*, T*, int64_t, int64_t, cudaStream_t); \
  template cudaError_t LaunchTranspose2D<T>(const T*, T*, int64_t, int64_t, cudaStream_t);       \
  template cudaError_t LaunchPadOrCropNhwc<T>(bool, const T*, T*, int64_t, int64_t, int64_t,     \
                                              int64_t, int64_t, int64_t, int64_t, int64_t,       \
                                              cudaStream_t);
RILL_INSTANTIATE_POOL(float)
RILL_INSTANTIATE_POOL(double)

}  // namespace rill::gpu
