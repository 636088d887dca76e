// CUDA kernels of Conv3D and its gradients: one thread per output value, each gathering
// through the row functions of core/conv3d_row.h (the same arithmetic the host-side test
// checks against the definition), without atomics.
#include "rill/core/conv3d_row.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/grid.cuh"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void Conv3DForwardKernel(Conv3DDims g, const T* x, const T* w, T* y, int64_t n) {
  RILL_GRID_LOOP(e, n) { y[e] = Conv3DOutputAt(g, x, w, e); }
}

template <typename T>
__global__ void Conv3DInputGradKernel(Conv3DDims g, const T* w, const T* dy, T* dx, int64_t n) {
  RILL_GRID_LOOP(e, n) { dx[e] = Conv3DInputGradAt(g, w, dy, e); }
}

template <typename T>
__global__ void Conv3DFilterGradKernel(Conv3DDims g, const T* x, const T* dy, T* dw, int64_t n) {
  RILL_GRID_LOOP(e, n) { dw[e] = Conv3DFilterGradAt(g, x, dy, e); }
}

}  // namespace

template <typename T>
cudaError_t LaunchConv3D(DepthwisePass pass, const Conv3DDims& g, const T* a, const T* b, T* out,
                         int64_t n, cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  switch (pass) {
    case DepthwisePass::kForward:
      Conv3DForwardKernel<T><<<Blocks(n), 256, 0, stream>>>(g, a, b, out, n);
      break;
    case DepthwisePass::kInputGrad:
      Conv3DInputGradKernel<T><<<Blocks(n), 256, 0, stream>>>(g, a, b, out, n);
      break;
    case DepthwisePass::kFilterGrad:
      Conv3DFilterGradKernel<T><<<Blocks(n), 256, 0, stream>>>(g, a, b, out, n);
      break;
  }
  return cudaGetLastError();
}

template cudaError_t LaunchConv3D<float>(DepthwisePass, const Conv3DDims&, const float*,
                                         const float*, float*, int64_t, cudaStream_t);
template cudaError_t LaunchConv3D<double>(DepthwisePass, const Conv3DDims&, const double*,
                                          const double*, double*, int64_t, cudaStream_t);

}  // namespace rill::gpu
