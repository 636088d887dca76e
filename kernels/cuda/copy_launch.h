// Runs a core/strided_copy.h copy on the device's stream (copy.cu), for the GPU kernels
// that plan copies on the host: the copy ops, Einsum's permutations.
#pragma once

#include "rill/core/strided_copy.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {

inline cudaError_t LaunchCopy(const StridedCopy& copy, size_t element_size, const void* src,
                              void* dst, cudaStream_t stream) {
  StridedCopyDims c{};
  c.rank = copy.rank;
  for (int d = 0; d < c.rank; ++d) {
    c.dims[d] = copy.dims[d];
    c.src_strides[d] = copy.src_strides[d];
    c.dst_strides[d] = copy.dst_strides[d];
  }
  c.src_base = copy.src_base;
  c.dst_base = copy.dst_base;
  return LaunchStridedCopy(c, copy.num_elements(), element_size, src, dst, stream);
}

}  // namespace rill::gpu
