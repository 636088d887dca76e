// Cumsum and Cumprod along one dim, one column at a time: the loop the CPU kernels and the
// GPU kernels (one thread per column) share. A column is n elements `stride` apart.
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

// exclusive: element j gets the combination of the elements before it (the identity first);
// reverse: the scan runs from the end.
template <typename T, bool kProd>
RILL_HOST_DEVICE inline void ScanColumn(const T* in, T* out, int64_t n, int64_t stride,
                                        bool exclusive, bool reverse) {
  T acc = kProd ? T(1) : T(0);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t at = (reverse ? n - 1 - k : k) * stride;
    const T x = in[at];
    if (exclusive) out[at] = acc;
    acc = kProd ? acc * x : acc + x;
    if (!exclusive) out[at] = acc;
  }
}

}  // namespace rill
