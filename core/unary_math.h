// Elementwise float math with one formula per op, shared by the CPU kernels
// (kernels/cpu/cwise_*_ops.cc) and the GPU kernels (kernels/cuda/unary_math.cu) so both
// devices compute the same thing: Rsqrt, Reciprocal, Floor, Ceil, Round (half to even, as
// TensorFlow's), Sin, Cos, Erf, Softplus (log(1 + e^x) without overflow), Softsign
// (x / (1 + |x|)), Lgamma and Digamma (core/special_math.h), Expm1, Log1p, Erfc and the
// hyperbolic and inverse trigonometric functions; and the float classes of IsNan, IsInf and
// IsFinite.
#pragma once

#include <cmath>

#include "rill/core/host_device.h"
#include "rill/core/special_math.h"

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
  kExpm1,
  kLog1p,
  kSinh,
  kCosh,
  kTan,
  kAsin,
  kAcos,
  kAtan,
  kAsinh,
  kAcosh,
  kAtanh,
  kSoftsign,
  kLgamma,
  kDigamma,
  kErfc,
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
  M("Softplus", ::rill::UnaryMath::kSoftplus)     \
  M("Expm1", ::rill::UnaryMath::kExpm1)           \
  M("Log1p", ::rill::UnaryMath::kLog1p)           \
  M("Sinh", ::rill::UnaryMath::kSinh)             \
  M("Cosh", ::rill::UnaryMath::kCosh)             \
  M("Tan", ::rill::UnaryMath::kTan)               \
  M("Asin", ::rill::UnaryMath::kAsin)             \
  M("Acos", ::rill::UnaryMath::kAcos)             \
  M("Atan", ::rill::UnaryMath::kAtan)             \
  M("Asinh", ::rill::UnaryMath::kAsinh)           \
  M("Acosh", ::rill::UnaryMath::kAcosh)           \
  M("Atanh", ::rill::UnaryMath::kAtanh)           \
  M("Softsign", ::rill::UnaryMath::kSoftsign)     \
  M("Lgamma", ::rill::UnaryMath::kLgamma)         \
  M("Digamma", ::rill::UnaryMath::kDigamma)       \
  M("Erfc", ::rill::UnaryMath::kErfc)
// Rint is TensorFlow's other name for Round of floats (ties to even).
#define RILL_FOR_UNARY_MATH_ALIASES(M) M("Rint", ::rill::UnaryMath::kRound)

template <UnaryMath kOp, typename T>
RILL_HOST_DEVICE inline T ApplyUnaryMath(T x) {
  using std::acos;
  using std::acosh;
  using std::asin;
  using std::asinh;
  using std::atan;
  using std::atanh;
  using std::ceil;
  using std::cos;
  using std::cosh;
  using std::erf;
  using std::erfc;
  using std::exp;
  using std::expm1;
  using std::floor;
  using std::log1p;
  using std::rint;
  using std::sin;
  using std::sinh;
  using std::sqrt;
  using std::tan;
  if constexpr (kOp == UnaryMath::kRsqrt) return T(1) / sqrt(x);
  if constexpr (kOp == UnaryMath::kReciprocal) return T(1) / x;
  if constexpr (kOp == UnaryMath::kFloor) return floor(x);
  if constexpr (kOp == UnaryMath::kCeil) return ceil(x);
  // rint rounds in the default mode, to nearest with ties to even.
  if constexpr (kOp == UnaryMath::kRound) return rint(x);
  if constexpr (kOp == UnaryMath::kSin) return sin(x);
  if constexpr (kOp == UnaryMath::kCos) return cos(x);
  if constexpr (kOp == UnaryMath::kErf) return erf(x);
  // erfc itself, not 1 - erf: for large x, erf rounds to 1 and the difference to 0.
  if constexpr (kOp == UnaryMath::kErfc) return erfc(x);
  // log(1 + e^x) = max(x, 0) + log1p(e^-|x|): e^x never overflows.
  if constexpr (kOp == UnaryMath::kSoftplus) {
    return (x > T(0) ? x : T(0)) + log1p(exp(x > T(0) ? -x : x));
  }
  // The C library's own functions: accurate near 0 (expm1, log1p) and defined by IEEE at
  // the edges (asin(2) is NaN, atanh(1) is inf), as TensorFlow's Eigen kernels.
  if constexpr (kOp == UnaryMath::kExpm1) return expm1(x);
  if constexpr (kOp == UnaryMath::kLog1p) return log1p(x);
  if constexpr (kOp == UnaryMath::kSinh) return sinh(x);
  if constexpr (kOp == UnaryMath::kCosh) return cosh(x);
  if constexpr (kOp == UnaryMath::kTan) return tan(x);
  if constexpr (kOp == UnaryMath::kAsin) return asin(x);
  if constexpr (kOp == UnaryMath::kAcos) return acos(x);
  if constexpr (kOp == UnaryMath::kAtan) return atan(x);
  if constexpr (kOp == UnaryMath::kAsinh) return asinh(x);
  if constexpr (kOp == UnaryMath::kAcosh) return acosh(x);
  if constexpr (kOp == UnaryMath::kAtanh) return atanh(x);
  if constexpr (kOp == UnaryMath::kSoftsign) return x / (T(1) + (x < T(0) ? -x : x));
  if constexpr (kOp == UnaryMath::kLgamma) return Lgamma(x);
  if constexpr (kOp == UnaryMath::kDigamma) return Digamma(x);
}

// IsNan, IsInf and IsFinite: which class of float an element is.
enum class FloatClass : int { kNan, kInf, kFinite };

template <FloatClass kClass, typename T>
RILL_HOST_DEVICE inline bool IsFloatClass(T x) {
  using std::isfinite;
  using std::isinf;
  using std::isnan;
  if constexpr (kClass == FloatClass::kNan) return isnan(x);
  if constexpr (kClass == FloatClass::kInf) return isinf(x);
  return isfinite(x);
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
