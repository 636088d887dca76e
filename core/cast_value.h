// One element of Cast, shared by the CPU and GPU Cast kernels so both convert alike:
// float to integer saturates and NaN gives 0, instead of the undefined behaviour of a
// plain conversion; everything else converts as static_cast does.
#pragma once

#include <limits>
#include <type_traits>

#include "rill/core/host_device.h"

namespace rill {

template <typename To, typename From>
RILL_HOST_DEVICE inline To CastValue(From v) {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> &&
                !std::is_same_v<To, bool>) {
    if (v != v) return 0;
    if (v <= static_cast<From>(std::numeric_limits<To>::lowest())) {
      return std::numeric_limits<To>::lowest();
    }
    if (v >= static_cast<From>(std::numeric_limits<To>::max())) {
      return std::numeric_limits<To>::max();
    }
  }
  return static_cast<To>(v);
}

}  // namespace rill
