// Elementwise binary math with one formula per op, shared by the CPU kernels
// (kernels/cpu/cwise_kernels.h) and the GPU kernels (kernels/cuda/cwise.cu): FloorDiv and
// FloorMod as TensorFlow defines them (the quotient rounded toward minus infinity; the
// remainder with the divisor's sign). Integer divisors of zero are refused before any of
// this runs; the lowest integer divided by -1 wraps (as Div's does) instead of trapping.
#pragma once

#include <cmath>
#include <type_traits>

#include "rill/core/host_device.h"

namespace rill {

template <typename T>
RILL_HOST_DEVICE inline T FloorDivOf(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (y == T(-1)) return static_cast<T>(T(0) - x);  // -lowest wraps (built with -fwrapv)
      const T q = static_cast<T>(x / y);
      return (x % y != 0 && ((x < 0) != (y < 0))) ? static_cast<T>(q - 1) : q;
    } else {
      return static_cast<T>(x / y);
    }
  } else {
    using std::floor;  // unqualified: nvcc's device overloads in device code
    return floor(x / y);
  }
}

template <typename T>
RILL_HOST_DEVICE inline T FloorModOf(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (y == T(-1)) return T(0);  // lowest % -1 would trap
      const T r = static_cast<T>(x % y);
      return (r != 0 && ((r < 0) != (y < 0))) ? static_cast<T>(r + y) : r;
    } else {
      return static_cast<T>(x % y);
    }
  } else {
    using std::fmod;
    const T r = fmod(x, y);
    return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
  }
}

}  // namespace rill
