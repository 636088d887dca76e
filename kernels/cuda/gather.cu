// CUDA kernels of Gather/GatherV2 (one thread per output element, moved as an integer of
// the element's size) and UnsortedSegmentSum (one thread per data element, atomic adds).
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename Word, typename Index>
__global__ void GatherKernel(int64_t outer, int64_t n, int64_t k, int64_t inner, const Word* params,
                             const Index* indices, Word* out, int64_t total) {
  RILL_GRID_LOOP(x, total) {
    const int64_t i = x % inner, j = (x / inner) % k, bo = x / inner / k;  // bo: batch*outer
    const int64_t b = bo / outer;
    out[x] = params[(bo * n + static_cast<int64_t>(indices[b * k + j])) * inner + i];
  }
}

template <typename Word, typename Index>
cudaError_t Gather(int64_t total, int64_t outer, int64_t n, int64_t k, int64_t inner,
                   const void* params, const Index* indices, void* out, cudaStream_t stream) {
  GatherKernel<Word, Index>
      <<<Blocks(total), 256, 0, stream>>>(outer, n, k, inner, static_cast<const Word*>(params),
                                          indices, static_cast<Word*>(out), total);
  return cudaGetLastError();
}

template <typename T>
__device__ void AtomicAdd(T* at, T v) {
  if constexpr (sizeof(T) == 8 && std::is_integral_v<T>) {
    // Two's complement: an unsigned add is the signed one.
    atomicAdd(reinterpret_cast<unsigned long long*>(at), static_cast<unsigned long long>(v));
  } else {
    atomicAdd(at, v);
  }
}

template <typename T, typename Index>
__global__ void SegmentSumKernel(const T* data, const Index* ids, int64_t inner, T* out,
                                 int64_t total) {
  RILL_GRID_LOOP(x, total) {
    const int64_t id = static_cast<int64_t>(ids[x / inner]);
    if (id >= 0) AtomicAdd(out + id * inner + x % inner, data[x]);
  }
}

}  // namespace

template <typename Index>
cudaError_t LaunchGather(int64_t batch, int64_t outer, int64_t n, int64_t k, int64_t inner,
                         size_t element_size, const void* params, const Index* indices, void* out,
                         cudaStream_t stream) {
  const int64_t total = batch * outer * k * inner;
  if (total == 0) return cudaSuccess;
  switch (element_size) {
    case 1:
      return Gather<uint8_t>(total, outer, n, k, inner, params, indices, out, stream);
    case 2:
      return Gather<uint16_t>(total, outer, n, k, inner, params, indices, out, stream);
    case 4:
      return Gather<uint32_t>(total, outer, n, k, inner, params, indices, out, stream);
    case 8:
      return Gather<uint64_t>(total, outer, n, k, inner, params, indices, out, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

template <typename T, typename Index>
cudaError_t LaunchSegmentSum(const T* data, const Index* ids, int64_t num_ids, int64_t inner,
                             T* out, cudaStream_t stream) {
  const int64_t total = num_ids * inner;
  if (total == 0) return cudaSuccess;
  SegmentSumKernel<T, Index><<<Blocks(total), 256, 0, stream>>>(data, ids, inner, out, total);
  return cudaGetLastError();
}

template cudaError_t LaunchGather<int32_t>(int64_t, int64_t, int64_t, int64_t, int64_t, size_t,
                                           const void*, const int32_t*, void*, cudaStream_t);
template cudaError_t LaunchGather<int64_t>(int64_t, int64_t, int64_t, int64_t, int64_t, size_t,
                                           const void*, const int64_t*, void*, cudaStream_t);
#define RILL_INSTANTIATE_SEGMENT_SUM(T)                                                         \
  template cudaError_t LaunchSegmentSum<T, int32_t>(const T*, const int32_t*, int64_t, int64_t, \
                                                    T*, cudaStream_t);                          \
  template cudaError_t LaunchSegmentSum<T, int64_t>(const T*, const int64_t*, int64_t, int64_t, \
                                                    T*, cudaStream_t);
RILL_INSTANTIATE_SEGMENT_SUM(float)
RILL_INSTANTIATE_SEGMENT_SUM(double)
RILL_INSTANTIATE_SEGMENT_SUM(int64_t)

}  // namespace rill::gpu
