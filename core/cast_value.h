// One element of Cast, shared by the CPU and GPU Cast kernels so both convert alike:
// float to integer saturates and NaN gives 0, instead of the undefined behaviour of a
// plain conversion; everything else converts as static_cast does. With Cast's Truncate
// attr, a double narrowed to float first loses the 29 mantissa bits float cannot hold, so
// the conversion goes toward zero instead of to the nearest (TensorFlow's rule; for the
// other pairs rill has, Truncate changes nothing).
#pragma once

#include <cstdint>
#include <cstring>
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

template <typename To, typename From>
RILL_HOST_DEVICE inline To CastValue(From v, bool truncate) {
  if constexpr (std::is_same_v<From, double> && std::is_same_v<To, float>) {
    if (truncate && v - v == 0) {  // finite: infinities and NaN keep every bit
      uint64_t bits;
      memcpy(&bits, &v, sizeof bits);
      bits &= ~((uint64_t{1} << 29) - 1);
      memcpy(&v, &bits, sizeof bits);
    }
  }
  return CastValue<To>(v);
}

}  // namespace rill
