// CUDA kernel of MirrorPadGrad: one thread per output element, core/mirror_pad_row.h's sum
// (the CPU kernel's own).
#include "rill/core/mirror_pad_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void MirrorPadGradKernel(const T* g, MirrorFold fold, T* out, int64_t n) {
  RILL_GRID_LOOP(i, n) { out[i] = MirrorPadGradAt(g, fold, i); }
}

}  // namespace

template <typename T>
cudaError_t LaunchMirrorPadGrad(const T* g, const MirrorFold& fold, T* out, int64_t n,
                                cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MirrorPadGradKernel<T><<<Blocks(n), 256, 0, stream>>>(g, fold, out, n);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_MIRROR_PAD_GRAD(T)                                             \
  template cudaError_t LaunchMirrorPadGrad<T>(const T*, const MirrorFold&, T*, int64_t, \
                                              cudaStream_t);
RILL_INSTANTIATE_MIRROR_PAD_GRAD(float)
RILL_INSTANTIATE_MIRROR_PAD_GRAD(double)
RILL_INSTANTIATE_MIRROR_PAD_GRAD(int64_t)

}  // namespace rill::gpu
