// CUDA kernels of Select/SelectV2 (the walk of core/select_plan.h, one thread per output
// element, moving it as an integer of the element's size) and Range (core/range_value.h).
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename Word>
__global__ void SelectKernel(SelectPlan p, const bool* c, const Word* t, const Word* e, Word* out,
                             int64_t n) {
  RILL_GRID_LOOP(i, n) {
    if (p.same_shapes) {
      out[i] = c[i] ? t[i] : e[i];
      continue;
    }
    int64_t rest = i, ci = 0, ti = 0, ei = 0;
    for (int d = p.rank - 1; d >= 0; --d) {
      const int64_t at = rest % p.dims[d];
      rest /= p.dims[d];
      ci += at * p.cond[d];
      ti += at * p.t[d];
      ei += at * p.e[d];
    }
    out[i] = c[ci] ? t[ti] : e[ei];
  }
}

template <typename Word>
cudaError_t Launch(const SelectPlan& p, int64_t n, const bool* c, const void* t, const void* e,
                   void* out, cudaStream_t stream) {
  SelectKernel<Word><<<Blocks(n), 256, 0, stream>>>(
      p, c, static_cast<const Word*>(t), static_cast<const Word*>(e), static_cast<Word*>(out), n);
  return cudaGetLastError();
}

template <typename T>
__global__ void RangeKernel(T start, T delta, T* out, int64_t n) {
  RILL_GRID_LOOP(i, n) { out[i] = RangeValue(start, delta, i); }
}

}  // namespace

cudaError_t LaunchSelect(const SelectPlan& p, int64_t n, size_t element_size, const bool* cond,
                         const void* t, const void* e, void* out, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  switch (element_size) {
    case 1:
      return Launch<uint8_t>(p, n, cond, t, e, out, stream);
    case 2:
      return Launch<uint16_t>(p, n, cond, t, e, out, stream);
    case 4:
      return Launch<uint32_t>(p, n, cond, t, e, out, stream);
    case 8:
      return Launch<uint64_t>(p, n, cond, t, e, out, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

template <typename T>
cudaError_t LaunchRange(T start, T delta, T* out, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  RangeKernel<T><<<Blocks(n), 256, 0, stream>>>(start, delta, out, n);
  return cudaGetLastError();
}

template cudaError_t LaunchRange<float>(float, float, float*, int64_t, cudaStream_t);
template cudaError_t LaunchRange<double>(double, double, double*, int64_t, cudaStream_t);
template cudaError_t LaunchRange<int64_t>(int64_t, int64_t, int64_t*, int64_t, cudaStream_t);

}  // namespace rill::gpu
