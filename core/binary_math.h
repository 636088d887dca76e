// Elementwise binary math with one formula per op, shared by the CPU kernels
// (kernels/cpu/cwise_kernels.h) and the GPU kernels (kernels/cuda/cwise.cu): FloorDiv and
// FloorMod as TensorFlow defines them (the quotient rounded toward minus infinity; the
// remainder with the divisor's sign), TruncateDiv and TruncateMod (toward zero; x's sign), and the
// floats' "no NaN" forms TensorFlow's losses use: DivNoNan and MulNoNan (0 where y is 0, whatever x
// is), Xlogy, Xlog1py and Xdivy (0 where x is 0, whatever y is). Integer divisors of zero are
// refused before any of this runs; the lowest integer divided by -1 wraps (as Div's does) instead
// of trapping.
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

// TruncateDiv and TruncateMod (TensorFlow's Mod too): C's quotient, rounded toward zero,
// and remainder, with x's sign (fmod for floats). lowest / -1 wraps; lowest % -1 is 0.
template <typename T>
RILL_HOST_DEVICE inline T TruncateDivOf(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (y == T(-1)) return static_cast<T>(T(0) - x);  // -lowest wraps (built with -fwrapv)
    }
    return static_cast<T>(x / y);
  } else {
    using std::trunc;
    return trunc(x / y);
  }
}

template <typename T>
RILL_HOST_DEVICE inline T TruncateModOf(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (y == T(-1)) return T(0);  // lowest % -1 would trap
    }
    return static_cast<T>(x % y);
  } else {
    using std::fmod;
    return fmod(x, y);
  }
}

enum class SafeBinary : int { kDivNoNan, kMulNoNan, kXlogy, kXlog1py, kXdivy };

template <SafeBinary kOp, typename T>
RILL_HOST_DEVICE inline T SafeBinaryOf(T x, T y) {
  using std::log;
  using std::log1p;
  switch (kOp) {
    case SafeBinary::kDivNoNan:
      return y == T(0) ? T(0) : x / y;
    case SafeBinary::kMulNoNan:
      return y == T(0) ? T(0) : x * y;
    case SafeBinary::kXlogy:
      return x == T(0) ? T(0) : x * log(y);
    case SafeBinary::kXlog1py:
      return x == T(0) ? T(0) : x * log1p(y);
    case SafeBinary::kXdivy:
      return x == T(0) ? T(0) : x / y;
  }
  return T(0);
}

}  // namespace rill
