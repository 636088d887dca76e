// Grid helpers shared by rill's .cu files: the block count of a 256-thread launch over n
// elements and the grid-stride loop every element-wise kernel uses.
#pragma once

#include <cstdint>

namespace rill::gpu {

inline unsigned int Blocks(int64_t n) {
  int64_t b = (n + 255) / 256;
  return static_cast<unsigned int>(b < 1 ? 1 : (b > 65535 * 8 ? 65535 * 8 : b));
}

#define RILL_GRID_LOOP(i, n)                                                \
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < (n); \
       i += int64_t{blockDim.x} * gridDim.x)

}  // namespace rill::gpu
