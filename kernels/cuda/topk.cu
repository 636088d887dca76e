// TopKV2 on the GPU: one thread per row picks its k entries in turn, each the first in
// core/topk.h's order among those after the previous pick (the order is total, so nothing
// needs marking). O(n k) per row: meant for the small k of top-k accuracy and beam search.
#include "rill/core/topk.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void TopKKernel(const T* x, T* values, int32_t* indices, int64_t rows, int64_t n,
                           int64_t k) {
  RILL_GRID_LOOP(r, rows) {
    const T* row = x + r * n;
    int64_t prev = -1;
    for (int64_t j = 0; j < k; ++j) {
      int64_t best = -1;
      for (int64_t i = 0; i < n; ++i) {
        if (prev >= 0 && !Before(row[prev], prev, row[i], i)) continue;  // taken already
        if (best < 0 || Before(row[i], i, row[best], best)) best = i;
      }
      values[r * k + j] = row[best];
      indices[r * k + j] = static_cast<int32_t>(best);
      prev = best;
    }
  }
}

}  // namespace

template <typename T>
cudaError_t LaunchTopK(const T* x, T* values, int32_t* indices, int64_t rows, int64_t n, int64_t k,
                       cudaStream_t stream) {
  if (rows == 0 || k == 0) return cudaSuccess;
  TopKKernel<T><<<Blocks(rows), 256, 0, stream>>>(x, values, indices, rows, n, k);
  return cudaGetLastError();
}

template cudaError_t LaunchTopK<float>(const float*, float*, int32_t*, int64_t, int64_t, int64_t,
                                       cudaStream_t);
template cudaError_t LaunchTopK<double>(const double*, double*, int32_t*, int64_t, int64_t, int64_t,
                                        cudaStream_t);
template cudaError_t LaunchTopK<int64_t>(const int64_t*, int64_t*, int32_t*, int64_t, int64_t,
                                         int64_t, cudaStream_t);

}  // namespace rill::gpu
