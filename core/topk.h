// TopKV2(input, k): the k largest entries of each last-dim row with their indices. The order
// both devices use (core's Before) is total: larger first, NaN above every number, equal
// values by lower index first, as TensorFlow's stable order.
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

// Whether (a at index ia) comes before (b at ib) in a top-k row.
template <typename T>
RILL_HOST_DEVICE inline bool Before(T a, int64_t ia, T b, int64_t ib) {
  const bool nan_a = a != a, nan_b = b != b;
  if (nan_a != nan_b) return nan_a;
  if (!nan_a && a != b) return a > b;
  return ia < ib;
}

}  // namespace rill
