// CUDA kernel of the element maps (core/element_map.h: ReverseSequence, MatrixBandPart):
// one thread per output element, moved as an integer of the element's size.
#include "rill/core/element_map.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename Word, typename Map>
__global__ void ElementMapKernel(const Word* in, Word* out, int64_t n, Map map) {
  RILL_GRID_LOOP(e, n) { MapElement(in, out, e, map); }
}

template <typename Word, typename Map>
cudaError_t Launch(const void* in, void* out, int64_t n, const Map& map, cudaStream_t stream) {
  ElementMapKernel<Word, Map><<<Blocks(n), 256, 0, stream>>>(static_cast<const Word*>(in),
                                                             static_cast<Word*>(out), n, map);
  return cudaGetLastError();
}

}  // namespace

template <typename Map>
cudaError_t LaunchElementMap(size_t element_size, const void* in, void* out, int64_t n,
                             const Map& map, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  switch (element_size) {
    case 1:
      return Launch<uint8_t>(in, out, n, map, stream);
    case 2:
      return Launch<uint16_t>(in, out, n, map, stream);
    case 4:
      return Launch<uint32_t>(in, out, n, map, stream);
    case 8:
      return Launch<uint64_t>(in, out, n, map, stream);
  }
  return cudaErrorInvalidValue;
}

template cudaError_t LaunchElementMap<ReverseSequenceMap>(size_t, const void*, void*, int64_t,
                                                          const ReverseSequenceMap&, cudaStream_t);
template cudaError_t LaunchElementMap<BandMap>(size_t, const void*, void*, int64_t, const BandMap&,
                                               cudaStream_t);

}  // namespace rill::gpu
