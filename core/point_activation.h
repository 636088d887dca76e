// Relu6, Elu, Selu and LeakyRelu and their gradient ops (Relu6Grad, EluGrad, SeluGrad,
// LeakyReluGrad), one element at a time: the formulas the CPU kernels
// (kernels/cpu/activation_ops.cc) and the GPU kernels (kernels/cuda/activation.cu) share,
// so both devices compute the same thing. Each gradient op reads what TensorFlow's does:
// Relu6Grad and LeakyReluGrad the features, EluGrad and SeluGrad the outputs.
#pragma once

#include <cmath>

#include "rill/core/host_device.h"

namespace rill {

enum class PointActivation : int { kRelu6, kElu, kSelu, kLeakyRelu };

// Selu's constants (Klambauer et al., 2017), as TensorFlow's.
inline constexpr double kSeluScale = 1.0507009873554804934193349852946;
inline constexpr double kSeluAlpha = 1.6732632423543772848170429916717;

// `alpha` is LeakyRelu's slope below 0; the other activations ignore it.
template <PointActivation kAct, typename T>
RILL_HOST_DEVICE inline T ApplyPointActivation(T x, T alpha) {
  using std::expm1;
  if constexpr (kAct == PointActivation::kRelu6) {
    // NaN stays NaN, as through the other activations.
    return x > T(0) ? (x < T(6) ? x : T(6)) : (x != x ? x : T(0));
  } else if constexpr (kAct == PointActivation::kElu) {
    return x < T(0) ? expm1(x) : x;
  } else if constexpr (kAct == PointActivation::kSelu) {
    return x < T(0) ? T(kSeluScale * kSeluAlpha) * expm1(x) : T(kSeluScale) * x;
  } else {
    return x > T(0) ? x : alpha * x;
  }
}

// The gradient op's backprops from gradients `g` and `a`: the features (Relu6,
// LeakyRelu) or the activation's outputs (Elu, Selu).
template <PointActivation kAct, typename T>
RILL_HOST_DEVICE inline T PointActivationBackprop(T g, T a, T alpha) {
  if constexpr (kAct == PointActivation::kRelu6) {
    return a > T(0) && a < T(6) ? g : T(0);
  } else if constexpr (kAct == PointActivation::kElu) {
    return a < T(0) ? g * (a + T(1)) : g;  // d/dx (e^x - 1) = e^x = y + 1
  } else if constexpr (kAct == PointActivation::kSelu) {
    return a < T(0) ? g * (a + T(kSeluScale * kSeluAlpha)) : g * T(kSeluScale);
  } else {
    return a > T(0) ? g : g * alpha;
  }
}

}  // namespace rill
