// CUDA kernels that move data: the strided copies (Transpose, Slice, Pad, BroadcastTo,
// ConcatV2; one thread per element, moving it as an integer of the element's size),
// OneHot, and the counters a recorded step's replays set.
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename Word>
__global__ void StridedCopyKernel(StridedCopyDims c, const Word* src, Word* dst, int64_t n) {
  RILL_GRID_LOOP(i, n) {
    int64_t rest = i, s = c.src_base, d = c.dst_base;
    for (int k = c.rank - 1; k >= 0; --k) {
      const int64_t at = rest % c.dims[k];
      rest /= c.dims[k];
      s += at * c.src_strides[k];
      d += at * c.dst_strides[k];
    }
    dst[d] = src[s];
  }
}

template <typename Word>
cudaError_t Launch(const StridedCopyDims& c, int64_t n, const void* src, void* dst,
                   cudaStream_t stream) {
  StridedCopyKernel<Word>
      <<<Blocks(n), 256, 0, stream>>>(c, static_cast<const Word*>(src), static_cast<Word*>(dst), n);
  return cudaGetLastError();
}

template <typename T, typename Index>
__global__ void OneHotKernel(const Index* indices, const T* on, const T* off, T* out, int64_t depth,
                             int64_t inner, int64_t n) {
  const T on_v = *on, off_v = *off;
  RILL_GRID_LOOP(i, n) {
    const int64_t b = i % inner, d = (i / inner) % depth, a = i / inner / depth;
    out[i] = static_cast<int64_t>(indices[a * inner + b]) == d ? on_v : off_v;
  }
}

// Up to kCounterChunk values per launch, carried in the launch's parameters.
constexpr int kCounterChunk = 32;
struct CounterChunk {
  uint64_t v[kCounterChunk];
};

__global__ void SetCountersKernel(uint64_t* dst, CounterChunk values, int n) {
  if (threadIdx.x < n) dst[threadIdx.x] = values.v[threadIdx.x];
}

}  // namespace

cudaError_t LaunchSetCounters(uint64_t* dst, const uint64_t* values, int64_t n,
                              cudaStream_t stream) {
  for (int64_t at = 0; at < n; at += kCounterChunk) {
    CounterChunk chunk{};
    const int count = static_cast<int>(n - at < kCounterChunk ? n - at : kCounterChunk);
    for (int i = 0; i < count; ++i) chunk.v[i] = values[at + i];
    SetCountersKernel<<<1, kCounterChunk, 0, stream>>>(dst + at, chunk, count);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

template <typename T, typename Index>
cudaError_t LaunchOneHot(const Index* indices, const T* on, const T* off, T* out, int64_t outer,
                         int64_t depth, int64_t inner, cudaStream_t stream) {
  const int64_t n = outer * depth * inner;
  if (n == 0) return cudaSuccess;
  OneHotKernel<T, Index><<<Blocks(n), 256, 0, stream>>>(indices, on, off, out, depth, inner, n);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_ONE_HOT(T)                                                              \
  template cudaError_t LaunchOneHot<T, uint8_t>(const uint8_t*, const T*, const T*, T*, int64_t, \
                                                int64_t, int64_t, cudaStream_t);                 \
  template cudaError_t LaunchOneHot<T, int32_t>(const int32_t*, const T*, const T*, T*, int64_t, \
                                                int64_t, int64_t, cudaStream_t);                 \
  template cudaError_t LaunchOneHot<T, int64_t>(const int64_t*, const T*, const T*, T*, int64_t, \
                                                int64_t, int64_t, cudaStream_t);
RILL_INSTANTIATE_ONE_HOT(float)
RILL_INSTANTIATE_ONE_HOT(double)
RILL_INSTANTIATE_ONE_HOT(int32_t)
RILL_INSTANTIATE_ONE_HOT(int64_t)
RILL_INSTANTIATE_ONE_HOT(uint8_t)
RILL_INSTANTIATE_ONE_HOT(bool)

cudaError_t LaunchStridedCopy(const StridedCopyDims& c, int64_t n, size_t element_size,
                              const void* src, void* dst, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  switch (element_size) {
    case 1:
      return Launch<uint8_t>(c, n, src, dst, stream);
    case 2:
      return Launch<uint16_t>(c, n, src, dst, stream);
    case 4:
      return Launch<uint32_t>(c, n, src, dst, stream);
    case 8:
      return Launch<uint64_t>(c, n, src, dst, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace rill::gpu
