// Lgamma, Digamma and Polygamma per element, shared by the CPU and GPU kernels (TensorFlow's
// ops of the same names). lgamma is the C library's (CUDA's on the device; on the host the
// reentrant lgamma_r, since lgamma writes the global signgam from every kernel thread).
// Digamma: the reflection formula below 0, the recurrence up to 10, then the asymptotic
// series (error < 1e-14 relative there). Polygamma(n, x), n >= 1: (-1)^(n+1) n! zeta(n+1, x)
// with the Hurwitz zeta summed ten terms and then by Euler-Maclaurin. As TensorFlow's (Eigen's):
// NaN at the poles of digamma (0, -1, -2, ...), for x <= 0 in Polygamma with n >= 1, and for
// an n that is not a non-negative integer.
#pragma once

#include <cmath>
#include <limits>

#include "rill/core/host_device.h"

namespace rill {

template <typename T>
RILL_HOST_DEVICE inline T Lgamma(T x) {
#ifdef __CUDA_ARCH__
  return lgamma(x);
#else
  int sign;
  if constexpr (sizeof(T) == sizeof(float)) {
    return lgammaf_r(x, &sign);
  } else {
    return lgamma_r(x, &sign);
  }
#endif
}

// std::numeric_limits is constexpr, so nvcc takes it in device code (--expt-relaxed-constexpr).
template <typename T>
RILL_HOST_DEVICE inline T QuietNaN() {
  return std::numeric_limits<T>::quiet_NaN();
}

template <typename T>
RILL_HOST_DEVICE inline T Digamma(T x) {
  using std::floor;
  using std::log;
  using std::tan;
  constexpr double kPi = 3.14159265358979323846;
  if (x != x) return x;
  T result = T(0);
  if (x <= T(0)) {
    if (x == floor(x)) return QuietNaN<T>();
    // psi(x) = psi(1 - x) - pi / tan(pi x)
    result = -T(kPi) / tan(T(kPi) * x);
    x = T(1) - x;
  }
  for (; x < T(10); x += T(1)) result -= T(1) / x;
  const T f = T(1) / (x * x);
  const T series =
      f * (T(-1.0 / 12) +
           f * (T(1.0 / 120) + f * (T(-1.0 / 252) + f * (T(1.0 / 240) + f * T(-1.0 / 132)))));
  return result + log(x) - T(0.5) / x + series;
}

// The Hurwitz zeta function zeta(s, q) = sum over k >= 0 of (q + k)^-s, for s > 1, q > 0.
template <typename T>
RILL_HOST_DEVICE inline T HurwitzZeta(T s, T q) {
  using std::pow;
  // B_2j / (2j)!, j = 1..8.
  constexpr double kB[8] = {1.0 / 12,
                            -1.0 / 720,
                            1.0 / 30240,
                            -1.0 / 1209600,
                            1.0 / 47900160,
                            -5.284190138687493e-10,
                            1.3382536530684679e-11,
                            -3.3896802963225829e-13};
  constexpr int kTerms = 10;
  T sum = T(0);
  for (int k = 0; k < kTerms; ++k) sum += pow(q + T(k), -s);
  const T w = q + T(kTerms);
  sum += pow(w, T(1) - s) / (s - T(1)) + T(0.5) * pow(w, -s);
  // sum_j B_2j / (2j)! * s (s + 1) ... (s + 2j - 2) * w^(-s - 2j + 1)
  T rising = s;              // s (s + 1) ... (s + 2j - 2)
  T power = pow(w, -s - 1);  // w^(-s - 2j + 1)
  for (int j = 0; j < 8; ++j) {
    sum += T(kB[j]) * rising * power;
    rising *= (s + T(2 * j + 1)) * (s + T(2 * j + 2));
    power /= w * w;
  }
  return sum;
}

template <typename T>
RILL_HOST_DEVICE inline T Polygamma(T n, T x) {
  using std::floor;
  if (n != n || x != x || n < T(0) || n != floor(n)) return QuietNaN<T>();
  if (n == T(0)) return Digamma(x);
  if (x <= T(0)) return QuietNaN<T>();
  // n! as a product, stopped once it overflows (past n = 34 in float, 170 in double): a huge
  // n would loop n times, and forever in float, where k + 1 == k from 2^24 on.
  T factorial = T(1);
  for (T k = T(2); k <= n && factorial <= std::numeric_limits<T>::max(); k += T(1)) {
    factorial *= k;
  }
  const T sign = floor(n / T(2)) * T(2) == n ? T(-1) : T(1);  // (-1)^(n + 1)
  return sign * factorial * HurwitzZeta(n + T(1), x);
}

}  // namespace rill
