// CUDA kernels of DepthwiseConv2dNative and its gradients: one thread per output value,
// each gathering through the row functions the CPU kernels share (core/depthwise_row.h), so
// the two devices sum the same terms in the same order, without atomics.
#include "rill/core/depthwise_row.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/grid.cuh"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void DepthwiseForwardKernel(DepthwiseDims d, const T* x, const T* f, T* y, int64_t n) {
  const int64_t out_c = d.c * d.m;
  RILL_GRID_LOOP(e, n) {
    const int64_t oc = e % out_c, ow = (e / out_c) % d.out_w, oh = (e / out_c / d.out_w) % d.out_h;
    y[e] = DepthwiseOutput(d, x, f, e / out_c / d.out_w / d.out_h, oh, ow, oc);
  }
}

template <typename T>
__global__ void DepthwiseInputGradKernel(DepthwiseDims d, const T* f, const T* dy, T* dx,
                                         int64_t n) {
  RILL_GRID_LOOP(e, n) {
    const int64_t ch = e % d.c, iw = (e / d.c) % d.in_w, ih = (e / d.c / d.in_w) % d.in_h;
    dx[e] = DepthwiseInputGrad(d, f, dy, e / d.c / d.in_w / d.in_h, ih, iw, ch);
  }
}

template <typename T>
__global__ void DepthwiseFilterGradKernel(DepthwiseDims d, const T* x, const T* dy, T* df,
                                          int64_t n) {
  const int64_t out_c = d.c * d.m;
  RILL_GRID_LOOP(e, n) {
    const int64_t oc = e % out_c, j = (e / out_c) % d.k_w;
    df[e] = DepthwiseFilterGrad(d, x, dy, e / out_c / d.k_w, j, oc);
  }
}

}  // namespace

template <typename T>
cudaError_t LaunchDepthwise(DepthwisePass pass, const DepthwiseDims& d, const T* a, const T* b,
                            T* out, cudaStream_t stream) {
  const int64_t out_c = d.c * d.m;
  switch (pass) {
    case DepthwisePass::kForward: {
      const int64_t n = d.batch * d.out_h * d.out_w * out_c;
      if (n > 0) DepthwiseForwardKernel<T><<<Blocks(n), 256, 0, stream>>>(d, a, b, out, n);
      break;
    }
    case DepthwisePass::kInputGrad: {
      const int64_t n = d.batch * d.in_h * d.in_w * d.c;
      if (n > 0) DepthwiseInputGradKernel<T><<<Blocks(n), 256, 0, stream>>>(d, a, b, out, n);
      break;
    }
    case DepthwisePass::kFilterGrad: {
      const int64_t n = d.k_h * d.k_w * out_c;
      if (n > 0) DepthwiseFilterGradKernel<T><<<Blocks(n), 256, 0, stream>>>(d, a, b, out, n);
      break;
    }
  }
  return cudaGetLastError();
}

template cudaError_t LaunchDepthwise<float>(DepthwisePass, const DepthwiseDims&, const float*,
                                            const float*, float*, cudaStream_t);
template cudaError_t LaunchDepthwise<double>(DepthwisePass, const DepthwiseDims&, const double*,
                                             const double*, double*, cudaStream_t);

}  // namespace rill::gpu
