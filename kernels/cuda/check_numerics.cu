// CUDA kernel of CheckNumerics: core/check_numerics.h's flags of every element OR-ed into
// one int on the device.
#include "rill/core/check_numerics.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void NumericFlagsKernel(const T* x, int64_t n, int* flags) {
  int mine = 0;
  RILL_GRID_LOOP(i, n) { mine |= NumericFlags(x[i]); }
  if (mine != 0) atomicOr(flags, mine);
}

}  // namespace

template <typename T>
cudaError_t LaunchNumericFlags(const T* x, int64_t n, int* flags, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  NumericFlagsKernel<T><<<Blocks(n), 256, 0, stream>>>(x, n, flags);
  return cudaGetLastError();
}

template cudaError_t LaunchNumericFlags<float>(const float*, int64_t, int*, cudaStream_t);
template cudaError_t LaunchNumericFlags<double>(const double*, int64_t, int*, cudaStream_t);

}  // namespace rill::gpu
