// Optimizer update ops, as TensorFlow's ApplyGradientDescent / ApplyMomentum / ApplyAdam and
// the adaptive ones (ApplyAdagrad, ApplyAdagradV2, ApplyRMSProp, ApplyCenteredRMSProp,
// ApplyAdadelta, ApplyAdaMax; formulas in core/apply_row.h): each updates its variables (and
// slot variables) in place, on the device where they live, and outputs the variable's new
// value. Scalars (lr, momentum, betas, epsilon) are inputs.
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

struct AdagradAttrs {
  AdagradAttrs UpdateSlots(bool x) {
    AdagradAttrs r = *this;
    r.update_slots_ = x;
    return r;
  }
  bool update_slots_ = true;  // false: accum is read, not accumulated
};

// accum += grad^2; var -= lr * grad / sqrt(accum)
class ApplyAdagrad : public OpWrapper {
 public:
  using Attrs = AdagradAttrs;
  ApplyAdagrad(const Scope& scope, Input var, Input accum, Input lr, Input grad,
               const Attrs& attrs = Attrs());
  static Attrs UpdateSlots(bool x) { return Attrs().UpdateSlots(x); }
};

// accum += grad^2; var -= lr * grad / (sqrt(accum) + epsilon)   (Keras's Adagrad)
class ApplyAdagradV2 : public OpWrapper {
 public:
  using Attrs = AdagradAttrs;
  ApplyAdagradV2(const Scope& scope, Input var, Input accum, Input lr, Input epsilon, Input grad,
                 const Attrs& attrs = Attrs());
  static Attrs UpdateSlots(bool x) { return Attrs().UpdateSlots(x); }
};

// ms = rho ms + (1 - rho) grad^2; mom = momentum mom + lr grad / sqrt(ms + epsilon);
// var -= mom
class ApplyRMSProp : public OpWrapper {
 public:
  ApplyRMSProp(const Scope& scope, Input var, Input ms, Input mom, Input lr, Input rho,
               Input momentum, Input epsilon, Input grad);
};

// As ApplyRMSProp with mg = rho mg + (1 - rho) grad and sqrt(ms - mg^2 + epsilon).
class ApplyCenteredRMSProp : public OpWrapper {
 public:
  ApplyCenteredRMSProp(const Scope& scope, Input var, Input mg, Input ms, Input mom, Input lr,
                       Input rho, Input momentum, Input epsilon, Input grad);
};

// accum = rho accum + (1 - rho) grad^2;
// update = sqrt(accum_update + epsilon) / sqrt(accum + epsilon) * grad; var -= lr update;
// accum_update = rho accum_update + (1 - rho) update^2
class ApplyAdadelta : public OpWrapper {
 public:
  ApplyAdadelta(const Scope& scope, Input var, Input accum, Input accum_update, Input lr, Input rho,
                Input epsilon, Input grad);
};

// m = beta1 m + (1 - beta1) grad; v = max(beta2 v, |grad|);
// var -= lr / (1 - beta1_power) * m / (v + epsilon)
class ApplyAdaMax : public OpWrapper {
 public:
  ApplyAdaMax(const Scope& scope, Input var, Input m, Input v, Input beta1_power, Input lr,
              Input beta1, Input beta2, Input epsilon, Input grad);
};

}  // namespace rill::ops
