// Cross's arithmetic per 3-vector, shared by the CPU and GPU kernels (plain header: nvcc
// takes it). Integers wrap as TensorFlow's do (the project builds with -fwrapv).
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

// out[v] = a[v] x b[v] for the v-th vector of three.
template <typename T>
RILL_HOST_DEVICE inline void CrossAt(const T* a, const T* b, T* out, int64_t v) {
  const T* u = a + 3 * v;
  const T* w = b + 3 * v;
  T* y = out + 3 * v;
  y[0] = static_cast<T>(u[1] * w[2] - u[2] * w[1]);
  y[1] = static_cast<T>(u[2] * w[0] - u[0] * w[2]);
  y[2] = static_cast<T>(u[0] * w[1] - u[1] * w[0]);
}

}  // namespace rill
