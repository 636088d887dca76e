// Optimizer update ops, as TensorFlow's ApplyGradientDescent / ApplyMomentum / ApplyAdam:
// each updates its variables (and slot variables) in place, on the device where they live,
// and outputs the variable's new value. Scalars (lr, momentum, betas, epsilon) are inputs.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

// var -= alpha * delta
class ApplyGradientDescent : public OpWrapper {
 public:
  ApplyGradientDescent(const Scope& scope, Input var, Input alpha, Input delta);
};

// accum = accum * momentum + grad; var -= lr * accum
// (Nesterov: var -= lr * grad + lr * momentum * accum)
class ApplyMomentum : public OpWrapper {
 public:
  struct Attrs {
    Attrs UseNesterov(bool x) {
      Attrs r = *this;
      r.use_nesterov_ = x;
      return r;
    }
    bool use_nesterov_ = false;
  };
  ApplyMomentum(const Scope& scope, Input var, Input accum, Input lr, Input grad, Input momentum)
      : ApplyMomentum(scope, var, accum, lr, grad, momentum, Attrs()) {}
  ApplyMomentum(const Scope& scope, Input var, Input accum, Input lr, Input grad, Input momentum,
                const Attrs& attrs);
  static Attrs UseNesterov(bool x) { return Attrs().UseNesterov(x); }
};

// lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
// m = beta1 * m + (1 - beta1) * grad;  v = beta2 * v + (1 - beta2) * grad^2
// var -= lr_t * m / (sqrt(v) + epsilon)   (Nesterov: m replaced by beta1*m + (1-beta1)*grad)
class ApplyAdam : public OpWrapper {
 public:
  struct Attrs {
    Attrs UseNesterov(bool x) {
      Attrs r = *this;
      r.use_nesterov_ = x;
      return r;
    }
    bool use_nesterov_ = false;
  };
  ApplyAdam(const Scope& scope, Input var, Input m, Input v, Input beta1_power, Input beta2_power,
            Input lr, Input beta1, Input beta2, Input epsilon, Input grad)
      : ApplyAdam(scope, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
                  Attrs()) {}
  ApplyAdam(const Scope& scope, Input var, Input m, Input v, Input beta1_power, Input beta2_power,
            Input lr, Input beta1, Input beta2, Input epsilon, Input grad, const Attrs& attrs);
  static Attrs UseNesterov(bool x) { return Attrs().UseNesterov(x); }
};

}  // namespace rill::ops
