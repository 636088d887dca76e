// The CUDA kernel of the strided copies (Transpose, Slice, Pad, BroadcastTo): one thread
// per element, moving it as an integer of the element's size.
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

}  // namespace

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
