// CUDA kernel of AdjustContrastv2's elements: one thread per element, core/adjust_contrast.h's
// ContrastAt (the CPU kernel's own) over the sums LaunchReduce made.
#include "rill/core/adjust_contrast_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void ContrastKernel(const T* x, const T* sums, ContrastDims d, T* y, int64_t n) {
  RILL_GRID_LOOP(i, n) { y[i] = ContrastAt(x, sums, d, i); }
}

}  // namespace

template <typename T>
cudaError_t LaunchContrast(const T* x, const T* sums, const ContrastDims& d, T* y, int64_t n,
                           cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  ContrastKernel<T><<<Blocks(n), 256, 0, stream>>>(x, sums, d, y, n);
  return cudaGetLastError();
}

template cudaError_t LaunchContrast<float>(const float*, const float*, const ContrastDims&, float*,
                                           int64_t, cudaStream_t);
template cudaError_t LaunchContrast<double>(const double*, const double*, const ContrastDims&,
                                            double*, int64_t, cudaStream_t);

}  // namespace rill::gpu
