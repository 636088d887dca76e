// Elementwise float math with one formula per op, shared by the CPU kernels
// (kernels/cpu/cwise_ops.cc) and the GPU kernels (kernels/cuda/unary_math.cu) so both
// devices compute the same thing: Rsqrt, Reciprocal, Floor, Ceil, Round (half to even, as
// TensorFlow's), Sin, Cos, Erf, Softplus (log(1 + e^x) without overflow).
#pragma once

#include <cmath>

#include "rill/core/host_device.h"

namespace rill {

enum class UnaryMath : int {
  kRsqrt,
  kReciprocal,
  kFloor,
  kCeil,
  kRound,
  kSin,
  kCos,
  kErf,
  kSoftplus,
};

// Each op's name and kind, for the kernel files' registrations: M(name, kind).
#define RILL_FOR_UNARY_MATH_OPS(M)                \
  M("Rsqrt", ::rill::UnaryMath::kRsqrt)           \
  M("Reciprocal", ::rill::UnaryMath::kReciprocal) \
  M("Floor", ::rill::UnaryMath::kFloor)           \
  M("Ceil", ::rill::UnaryMath::kCeil)             \
  M("Round", ::rill::UnaryMath::kRound)           \
  M("Sin", ::rill::UnaryMath::kSin)               \
  M("Cos", ::rill::UnaryMath::kCos)               \
  M("Erf", ::rill::UnaryMath::kErf)               \
  M("Softplus", ::rill::UnaryMath::kSoftplus)

template <UnaryMath kOp, typename T>
RILL_HOST_DEVICE inline T ApplyUnaryMath(T x) {
  using std::ceil;
  using std::cos;
  using std::erf;
  using std::exp;
  using std::floor;
  using std::log1p;
  using std::rint;
  using std::sin;
  using std::sqrt;
  if constexpr (kOp == UnaryMath::kRsqrt) return T(1) / sqrt(x);
  if constexpr (kOp == UnaryMath::kReciprocal) return T(1) / x;
  if constexpr (kOp == UnaryMath::kFloor) return floor(x);
  if constexpr (kOp == UnaryMath::kCeil) return ceil(x);
  // rint rounds in the default mode, to nearest with ties to even.
  if constexpr (kOp == UnaryMath::kRound) return rint(x);
  if constexpr (kOp == UnaryMath::kSin) return sin(x);
  if constexpr (kOp == UnaryMath::kCos) return cos(x);
  if constexpr (kOp == UnaryMath::kErf) return erf(x);
  // log(1 + e^x) = max(x, 0) + log1p(e^-|x|): e^x never overflows.
  if constexpr (kOp == UnaryMath::kSoftplus) {
    return (x > T(0) ? x : T(0)) + log1p(exp(x > T(0) ? -x : x));
  }
}

// ClipByValue's element, as TensorFlow's kernels: the min with hi, then the max with lo
// (so lo wins where lo > hi); NaN stays NaN.
template <typename T>
RILL_HOST_DEVICE inline T ClipValue(T x, T lo, T hi) {
  if (x != x) return x;
  const T v = hi < x ? hi : x;
  return v < lo ? lo : v;
}

}  // namespace rill
