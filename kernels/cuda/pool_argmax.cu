// CUDA kernel of MaxPoolWithArgmax: one thread per output value through the row function
// the CPU kernel shares (core/pool_argmax_row.h).
#include "rill/core/pool_argmax_row.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/grid.cuh"

namespace rill::gpu {
namespace {

template <typename T, typename Index>
__global__ void MaxPoolWithArgmaxKernel(ArgmaxPoolDims d, const T* x, T* y, Index* argmax,
                                        int64_t n) {
  RILL_GRID_LOOP(e, n) { argmax[e] = static_cast<Index>(MaxPoolArgmaxAt(d, x, e, &y[e])); }
}

}  // namespace

template <typename T, typename Index>
cudaError_t LaunchMaxPoolWithArgmax(const ArgmaxPoolDims& d, const T* x, T* y, Index* argmax,
                                    int64_t n, cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  MaxPoolWithArgmaxKernel<T, Index><<<Blocks(n), 256, 0, stream>>>(d, x, y, argmax, n);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE(T, Index)                                                            \
  template cudaError_t LaunchMaxPoolWithArgmax<T, Index>(const ArgmaxPoolDims&, const T*, T*, \
                                                         Index*, int64_t, cudaStream_t);
RILL_INSTANTIATE(float, int32_t)
RILL_INSTANTIATE(float, int64_t)
RILL_INSTANTIATE(double, int32_t)
RILL_INSTANTIATE(double, int64_t)
#undef RILL_INSTANTIATE

}  // namespace rill::gpu
