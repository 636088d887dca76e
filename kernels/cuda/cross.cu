// CUDA kernel of Cross: one thread per 3-vector, core/cross_row.h's CrossAt (the CPU
// kernel's own).
#include "rill/core/cross_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void CrossKernel(const T* a, const T* b, T* out, int64_t vectors) {
  RILL_GRID_LOOP(v, vectors) { CrossAt(a, b, out, v); }
}

}  // namespace

template <typename T>
cudaError_t LaunchCross(const T* a, const T* b, T* out, int64_t vectors, cudaStream_t stream) {
  if (vectors == 0) return cudaSuccess;
  CrossKernel<T><<<Blocks(vectors), 256, 0, stream>>>(a, b, out, vectors);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_CROSS(T) \
  template cudaError_t LaunchCross<T>(const T*, const T*, T*, int64_t, cudaStream_t);
RILL_INSTANTIATE_CROSS(float)
RILL_INSTANTIATE_CROSS(double)
RILL_INSTANTIATE_CROSS(int32_t)
RILL_INSTANTIATE_CROSS(int64_t)
RILL_INSTANTIATE_CROSS(uint8_t)
#undef RILL_INSTANTIATE_CROSS

}  // namespace rill::gpu
