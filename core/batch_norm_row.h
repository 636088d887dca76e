// Batch normalization's arithmetic, per channel and per element, shared by the CPU kernels
// (kernels/cpu/batch_norm_ops.cc) and the GPU kernels (kernels/cuda/batch_norm.cu) so both
// devices compute the same thing. The statistics are reduced differently (a loop on the
// CPU, a block per channel on the GPU); what is done with them is here.
//
// Training (n values per channel): mean, variance (biased, divided by n), then
//   y = (x - mean) * scale / sqrt(variance + epsilon) + offset.
// The running statistics TensorFlow returns use the unbiased variance (n / (n - 1)) and,
// with an exponential_avg_factor f != 1, blend with the mean and variance inputs:
//   batch_mean = (1 - f) * mean_in + f * mean.
// The gradient (xc = x - mean, inv = 1 / sqrt(variance + epsilon)):
//   offset_backprop = sum(dy), scale_backprop = inv * sum(dy * xc),
//   x_backprop = scale * inv * (dy - sum(dy) / n - xc * inv^2 * sum(dy * xc) / n);
// in inference the statistics are constants, so x_backprop = scale * inv * dy.
#pragma once

#include <cmath>
#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

// x viewed as [outer, channels, inner] (core/batch_norm.h works it out from data_format).
struct BatchNormGeometry {
  int64_t outer = 0, channels = 0, inner = 1;
  RILL_HOST_DEVICE int64_t PerChannel() const { return outer * inner; }  // values per statistic
};

template <typename T>
RILL_HOST_DEVICE inline T BatchNormInvStd(T variance, T epsilon) {
  using std::sqrt;
  return T(1) / sqrt(variance + epsilon);
}

template <typename T>
RILL_HOST_DEVICE inline T BatchNormValue(T x, T mean, T scale_inv, T offset) {
  return (x - mean) * scale_inv + offset;
}

// The running mean and variance outputs of a training step from the batch's mean and
// biased variance over n values (n 1 keeps the variance: no correction is possible).
template <typename T>
RILL_HOST_DEVICE inline void BatchNormRunning(T mean, T variance, int64_t n, T factor, T mean_in,
                                              T variance_in, bool blend, T* mean_out,
                                              T* variance_out) {
  const T unbiased = n > 1 ? variance * (T(n) / T(n - 1)) : variance;
  *mean_out = blend ? (T(1) - factor) * mean_in + factor * mean : mean;
  *variance_out = blend ? (T(1) - factor) * variance_in + factor * unbiased : unbiased;
}

// What x_backprop needs of a channel: x_backprop = k1 * (dy - k2 - (x - mean) * k3).
template <typename T>
struct BatchNormBackpropCoefficients {
  T mean, k1, k2, k3;
};

// From the channel's scale, statistics and its offset_backprop (sum(dy)) and
// scale_backprop (inv * sum(dy * (x - mean))), which the kernels compute first; k2 and k3
// are 0 in inference.
template <typename T>
RILL_HOST_DEVICE inline BatchNormBackpropCoefficients<T> BatchNormBackprop(
    T scale, T mean, T variance, T epsilon, T offset_backprop, T scale_backprop, int64_t n,
    bool training) {
  const T inv = BatchNormInvStd(variance, epsilon);
  BatchNormBackpropCoefficients<T> c{mean, scale * inv, T(0), T(0)};
  if (training && n > 0) {
    c.k2 = offset_backprop / T(n);
    c.k3 = inv * scale_backprop / T(n);
  }
  return c;
}

template <typename T>
RILL_HOST_DEVICE inline T BatchNormBackpropValue(const BatchNormBackpropCoefficients<T>& c, T dy,
                                                 T x) {
  return c.k1 * (dy - c.k2 - (x - c.mean) * c.k3);
}

}  // namespace rill
