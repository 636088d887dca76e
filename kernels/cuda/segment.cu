// CUDA kernel of the segment reductions: one thread per output element, reducing its
// segment's rows in list order with core/segment_row.h's formulas (the CPU kernels'), so
// both devices add in the same order and no atomics are needed.
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <SegmentReduction R, typename T>
__global__ void SegmentReduceKernel(const T* data, const int64_t* offsets, const int64_t* rows,
                                    const T* weights, int64_t inner, T empty, T* out,
                                    int64_t total) {
  RILL_GRID_LOOP(x, total) {
    out[x] = SegmentElement<R>(data, offsets, rows, weights, inner, empty, x / inner, x % inner);
  }
}

template <SegmentReduction R, typename T>
cudaError_t Launch(const T* data, const int64_t* offsets, const int64_t* rows, const T* weights,
                   int64_t total, int64_t inner, T empty, T* out, cudaStream_t stream) {
  SegmentReduceKernel<R, T>
      <<<Blocks(total), 256, 0, stream>>>(data, offsets, rows, weights, inner, empty, out, total);
  return cudaGetLastError();
}

}  // namespace

template <typename T>
cudaError_t LaunchSegmentReduce(SegmentReduction r, const T* data, const int64_t* offsets,
                                const int64_t* rows, const T* weights, int64_t segments,
                                int64_t inner, T empty, T* out, cudaStream_t stream) {
  const int64_t total = segments * inner;
  if (total == 0) return cudaSuccess;
  using S = SegmentReduction;
  // Indexed by SegmentReduction's value.
  static constexpr decltype(&Launch<S::kSum, T>) kLaunch[] = {
      Launch<S::kSum, T>,  Launch<S::kMean, T>, Launch<S::kSqrtN, T>,
      Launch<S::kProd, T>, Launch<S::kMax, T>,  Launch<S::kMin, T>};
  return kLaunch[static_cast<int>(r)](data, offsets, rows, weights, total, inner, empty, out,
                                      stream);
}

#define RILL_INSTANTIATE_SEGMENT_REDUCE(T)                                                       \
  template cudaError_t LaunchSegmentReduce<T>(SegmentReduction, const T*, const int64_t*,        \
                                              const int64_t*, const T*, int64_t, int64_t, T, T*, \
                                              cudaStream_t);
RILL_INSTANTIATE_SEGMENT_REDUCE(float)
RILL_INSTANTIATE_SEGMENT_REDUCE(double)
RILL_INSTANTIATE_SEGMENT_REDUCE(int32_t)
RILL_INSTANTIATE_SEGMENT_REDUCE(int64_t)
RILL_INSTANTIATE_SEGMENT_REDUCE(uint8_t)

}  // namespace rill::gpu
