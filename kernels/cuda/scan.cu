// CUDA kernels of Cumsum and Cumprod: one thread per column of [outer, n, inner], running
// core/scan_row.h's loop (the CPU kernels' own).
#include "rill/core/scan_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, bool kProd>
__global__ void ScanKernel(const T* x, T* y, int64_t n, int64_t inner, bool exclusive, bool reverse,
                           int64_t columns) {
  RILL_GRID_LOOP(c, columns) {
    const int64_t base = (c / inner) * n * inner + c % inner;
    ScanColumn<T, kProd>(x + base, y + base, n, inner, exclusive, reverse);
  }
}

}  // namespace

template <typename T>
cudaError_t LaunchScan(bool prod, const T* x, T* y, int64_t outer, int64_t n, int64_t inner,
                       bool exclusive, bool reverse, cudaStream_t stream) {
  const int64_t columns = outer * inner;
  if (columns == 0 || n == 0) return cudaSuccess;
  if (prod) {
    ScanKernel<T, true>
        <<<Blocks(columns), 256, 0, stream>>>(x, y, n, inner, exclusive, reverse, columns);
  } else {
    ScanKernel<T, false>
        <<<Blocks(columns), 256, 0, stream>>>(x, y, n, inner, exclusive, reverse, columns);
  }
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_SCAN(T)                                                                \
  template cudaError_t LaunchScan<T>(bool, const T*, T*, int64_t, int64_t, int64_t, bool, bool, \
                                     cudaStream_t);
RILL_INSTANTIATE_SCAN(float)
RILL_INSTANTIATE_SCAN(double)
RILL_INSTANTIATE_SCAN(int64_t)

}  // namespace rill::gpu
