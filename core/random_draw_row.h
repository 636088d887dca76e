// The draws of RandomUniformInt and Multinomial from Philox blocks, shared by their CPU
// and GPU kernels so that both devices give the same numbers for the same seeds.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "rill/core/host_device.h"
#include "rill/core/philox.h"

namespace rill::random {

// maxval - minval as an unsigned count (minval < maxval), for UniformInt.
template <typename T>
RILL_HOST_DEVICE inline uint64_t UniformIntRange(T lo, T hi) {
  using U = std::make_unsigned_t<T>;
  return static_cast<uint64_t>(static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo)));
}

// lo + (bits mod range): 32 bits of block b for int32, 64 for int64 (TensorFlow's rule;
// its bias, range / 2^32 at most for int32, is what TensorFlow has too).
template <typename T>
RILL_HOST_DEVICE inline T UniformInt(const Block& b, T lo, uint64_t range) {
  using U = std::make_unsigned_t<T>;
  if constexpr (sizeof(T) == 4) {
    return static_cast<T>(static_cast<U>(lo) + static_cast<U>(b[0] % range));
  } else {
    const uint64_t bits = (static_cast<uint64_t>(b[1]) << 32) | b[0];
    return static_cast<T>(static_cast<U>(lo) + static_cast<U>(bits % range));
  }
}

// Multinomial over a row of logits: a class's weight is exp(logit - max) for a finite
// logit (max: the row's largest finite logit), 0 for any other, as in TensorFlow's CPU
// kernel; in double, summed in class order, so both devices add the same numbers.
RILL_HOST_DEVICE inline bool FiniteLogit(double x) { return x - x == 0; }  // not inf, not NaN

template <typename T>
RILL_HOST_DEVICE inline double MaxFiniteLogit(const T* row, int64_t classes) {
  double m = -1.7976931348623157e308;
  for (int64_t j = 0; j < classes; ++j) {
    const double x = static_cast<double>(row[j]);
    if (FiniteLogit(x) && x > m) m = x;
  }
  return m;
}

template <typename T>
RILL_HOST_DEVICE inline double ClassWeight(T logit, double max) {
  const double x = static_cast<double>(logit);
  return FiniteLogit(x) ? exp(x - max) : 0.0;
}

// The class of draw u in [0, 1): the first whose running weight exceeds u * total (the
// row's whole weight); `classes` when no weight does (a row with no finite logit).
template <typename T>
RILL_HOST_DEVICE inline int64_t ClassOfDraw(const T* row, int64_t classes, double max, double total,
                                            double u) {
  const double target = u * total;
  double running = 0;
  for (int64_t j = 0; j < classes; ++j) {
    running += ClassWeight(row[j], max);
    if (running > target) return j;
  }
  return classes;
}

}  // namespace rill::random
