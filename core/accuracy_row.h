// Keras's accuracy metrics, one example at a time, shared by the CPU and GPU kernels of
// _Accuracy so both decide a hit the same way (and as the composed ops would: ArgMax
// takes the first of equal maxima; a binary prediction is output > 0.5 as 0 or 1,
// compared with the label as float).
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

enum class AccuracyKind : int { kCategorical = 0, kSparseCategorical = 1, kBinary = 2 };

template <typename T>
RILL_HOST_DEVICE inline int64_t RowArgMax(const T* p, int64_t n) {
  int64_t best = 0;
  for (int64_t k = 1; k < n; ++k)
    if (p[k] > p[best]) best = k;
  return best;
}

// Example i of `output`: a row of `classes` for the categorical kinds (labels one row
// each, or one class id each for sparse), one element for binary.
template <typename T, typename L>
RILL_HOST_DEVICE inline bool AccuracyHit(AccuracyKind kind, const T* output, const L* labels,
                                         int64_t i, int64_t classes) {
  if (kind == AccuracyKind::kCategorical) {
    return RowArgMax(output + i * classes, classes) == RowArgMax(labels + i * classes, classes);
  }
  if (kind == AccuracyKind::kSparseCategorical) {
    return RowArgMax(output + i * classes, classes) == static_cast<int64_t>(labels[i]);
  }
  const float predicted = output[i] > T(0.5) ? 1.f : 0.f;
  return predicted == static_cast<float>(labels[i]);
}

}  // namespace rill
