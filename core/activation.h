// The activations rill fuses (_BiasActivation, _BiasActivationGrad) and the gradients of
// Relu, Sigmoid and Tanh, one element at a time: one enum for every kernel, and the
// formulas the CUDA kernels use (the CPU kernels write the same ones as vectorized Eigen
// expressions).
#pragma once

#include <cmath>

#include "rill/core/host_device.h"

namespace rill {

enum class FusedActivation : int { kRelu = 0, kSigmoid = 1, kTanh = 2 };

template <FusedActivation kAct, typename T>
RILL_HOST_DEVICE inline T Activate(T z) {
  using std::exp;
  using std::tanh;
  if constexpr (kAct == FusedActivation::kRelu) return z > T(0) ? z : T(0);
  if constexpr (kAct == FusedActivation::kSigmoid) return T(1) / (T(1) + exp(-z));
  if constexpr (kAct == FusedActivation::kTanh) return tanh(z);
}

// d loss / d z from dy = d loss / d y and the activation's output y (relu's mask y > 0 is
// its input's z > 0, so ReluGrad may be given either).
template <FusedActivation kAct, typename T>
RILL_HOST_DEVICE inline T ActivationBackprop(T dy, T y) {
  if constexpr (kAct == FusedActivation::kRelu) return y > T(0) ? dy : T(0);
  if constexpr (kAct == FusedActivation::kSigmoid) return dy * y * (T(1) - y);
  if constexpr (kAct == FusedActivation::kTanh) return dy * (T(1) - y * y);
}

}  // namespace rill
