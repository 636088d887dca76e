// One row of Keras's categorical cross-entropy of probabilities (_CategoricalCrossentropy),
// shared by the CPU and GPU kernels so both compute it the same way:
//   s = sum(p), q = p / s, c = clip(q, eps, 1 - eps), loss = -sum(y * log c),
//   g_j = d loss / d q_j = -y_j / q_j where eps <= q_j <= 1 - eps, else 0 (clip_by_value),
//   d loss / d p_k = (g_k - sum_j g_j q_j) / s.
#pragma once

#include <cmath>
#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

template <typename T>
RILL_HOST_DEVICE inline void CategoricalCrossentropyRow(const T* p, const T* y, int64_t n, T eps,
                                                        T* loss, T* backprop) {
  T s = 0;
  for (int64_t j = 0; j < n; ++j) s += p[j];
  T total = 0, gq = 0;
  for (int64_t j = 0; j < n; ++j) {
    const T q = p[j] / s;
    const T c = q < eps ? eps : (q > T(1) - eps ? T(1) - eps : q);
    total -= y[j] * log(c);
    const T g = (q >= eps && q <= T(1) - eps) ? -y[j] / q : T(0);
    backprop[j] = g;  // d loss / d q for now
    gq += g * q;
  }
  for (int64_t j = 0; j < n; ++j) backprop[j] = (backprop[j] - gq) / s;
  *loss = total;
}

}  // namespace rill
