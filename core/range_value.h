// Range's element i, one formula for the CPU and GPU kernels (plain header: nvcc takes it).
#pragma once

#include <cstdint>
#include <type_traits>

#include "rill/core/host_device.h"

namespace rill {

// Element i: start + i * delta, computed without accumulating rounding (as TensorFlow's GPU
// kernel). Integers go through unsigned arithmetic: i * delta may leave T's range while the
// sum, which lies between start and limit, does not.
template <typename T>
RILL_HOST_DEVICE inline T RangeValue(T start, T delta, int64_t i) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(start) + static_cast<U>(i) * static_cast<U>(delta));
  } else {
    return start + static_cast<T>(i) * delta;
  }
}

}  // namespace rill
