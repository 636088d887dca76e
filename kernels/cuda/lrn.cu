// CUDA kernels of LRN and LRNGrad: one thread per element, core/lrn_row.h's formulas (the
// CPU kernels' own).
#include "rill/core/lrn_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void LrnKernel(const T* x, T* y, int64_t n, LrnParams p) {
  RILL_GRID_LOOP(i, n) {
    const int64_t d = i % p.depth;
    y[i] = LrnAt(x + (i - d), d, p);
  }
}

template <typename T>
__global__ void LrnGradKernel(const T* g, const T* x, T* dx, int64_t n, LrnParams p) {
  RILL_GRID_LOOP(i, n) {
    const int64_t d = i % p.depth;
    dx[i] = LrnGradAt(g + (i - d), x + (i - d), d, p);
  }
}

}  // namespace

template <typename T>
cudaError_t LaunchLrn(const T* g, const T* x, T* out, int64_t n, const LrnParams& p,
                      cudaStream_t stream) {
  if (n == 0 || p.depth == 0) return cudaSuccess;
  if (g == nullptr) {
    LrnKernel<T><<<Blocks(n), 256, 0, stream>>>(x, out, n, p);
  } else {
    LrnGradKernel<T><<<Blocks(n), 256, 0, stream>>>(g, x, out, n, p);
  }
  return cudaGetLastError();
}

template cudaError_t LaunchLrn<float>(const float*, const float*, float*, int64_t, const LrnParams&,
                                      cudaStream_t);
template cudaError_t LaunchLrn<double>(const double*, const double*, double*, int64_t,
                                       const LrnParams&, cudaStream_t);

}  // namespace rill::gpu
