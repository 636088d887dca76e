// TensorFlow's bitwise ops, one formula per op for every integer type. Shifts clamp the
// shift amount into [0, bits - 1], as TensorFlow's kernels do, rather than leave a shift
// by a negative amount or by the width (undefined in C++) to the compiler; a left shift
// shifts the unsigned bits, so that shifting a negative value is defined too, and a right
// shift of a signed value keeps its sign (arithmetic).
#pragma once

#include <bit>
#include <climits>
#include <cstdint>
#include <type_traits>

namespace rill {

enum class Bitwise : int { kAnd, kOr, kXor, kLeftShift, kRightShift };

template <typename T>
inline T ClampShift(T y) {
  constexpr T kMax = static_cast<T>(sizeof(T) * CHAR_BIT - 1);
  if constexpr (std::is_signed_v<T>) {
    if (y < 0) return 0;
  }
  return y > kMax ? kMax : y;
}

template <Bitwise kOp, typename T>
inline T BitwiseOf(T x, T y) {
  static_assert(std::is_integral_v<T>, "bitwise ops take integers");
  using U = std::make_unsigned_t<T>;
  switch (kOp) {
    case Bitwise::kAnd:
      return static_cast<T>(x & y);
    case Bitwise::kOr:
      return static_cast<T>(x | y);
    case Bitwise::kXor:
      return static_cast<T>(x ^ y);
    case Bitwise::kLeftShift:
      return static_cast<T>(static_cast<U>(static_cast<U>(x) << ClampShift(y)));
    case Bitwise::kRightShift:
      return static_cast<T>(x >> ClampShift(y));
  }
  return T(0);
}

template <typename T>
inline T InvertOf(T x) {
  return static_cast<T>(~x);
}

// The number of bits set in x's two's-complement representation.
template <typename T>
inline uint8_t PopulationCountOf(T x) {
  return static_cast<uint8_t>(std::popcount(static_cast<std::make_unsigned_t<T>>(x)));
}

}  // namespace rill
