// LRN (local response normalization across channels) and its gradient, per element, shared
// by the CPU and GPU kernels. Over the last dim (depth) of each row:
//   N_d = bias + alpha * sum of x_j^2 for |j - d| <= radius,   y_d = x_d * N_d^-beta
//   dx_d = g_d * N_d^-beta - 2 alpha beta x_d * sum over |j - d| <= radius of g_j x_j N_j^(-beta-1)
// (TensorFlow's LRN and LRNGrad; the norms are recomputed from x rather than read back).
#pragma once

#include <cmath>
#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

struct LrnParams {
  int64_t depth = 0, radius = 0;
  double bias = 1, alpha = 1, beta = 0.5;
};

template <typename T>
RILL_HOST_DEVICE inline T LrnNorm(const T* row, int64_t d, const LrnParams& p) {
  const int64_t lo = d - p.radius < 0 ? 0 : d - p.radius;
  const int64_t hi = d + p.radius >= p.depth ? p.depth - 1 : d + p.radius;
  T sum = T(0);
  for (int64_t j = lo; j <= hi; ++j) sum += row[j] * row[j];
  return T(p.bias) + T(p.alpha) * sum;
}

template <typename T>
RILL_HOST_DEVICE inline T LrnAt(const T* row, int64_t d, const LrnParams& p) {
  using std::pow;
  return row[d] * pow(LrnNorm(row, d, p), T(-p.beta));
}

template <typename T>
RILL_HOST_DEVICE inline T LrnGradAt(const T* g, const T* x, int64_t d, const LrnParams& p) {
  using std::pow;
  const int64_t lo = d - p.radius < 0 ? 0 : d - p.radius;
  const int64_t hi = d + p.radius >= p.depth ? p.depth - 1 : d + p.radius;
  T cross = T(0);
  for (int64_t j = lo; j <= hi; ++j) {
    cross += g[j] * x[j] * pow(LrnNorm(x, j, p), T(-p.beta - 1));
  }
  return g[d] * pow(LrnNorm(x, d, p), T(-p.beta)) - T(2 * p.alpha * p.beta) * x[d] * cross;
}

}  // namespace rill
