// Optimizers, as TensorFlow's tf.compat.v1.train ones: Minimize(scope, loss) adds the
// gradients and one update op per variable (on the device where the variable lives) and
// returns the train op to run. Errors are recorded in the scope, like any op's.
//   GradientDescentOptimizer opt(0.1);
//   Operation train = opt.Minimize(scope, loss);
//   session.Run(feeds, {}, {train}, nullptr);
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rill/ops/scope.h"

namespace rill::dist {
class DistributedOptimizer;
}  // namespace rill::dist

namespace rill::ops {

using GradAndVar = std::pair<Output, Output>;  // (gradient, variable)

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // Gradients of `loss` for `var_list`; empty: every float Variable the loss depends on.
  std::vector<GradAndVar> ComputeGradients(const Scope& scope, const Output& loss,
                                           std::vector<Output> var_list = {});
  // The update ops, run only after every gradient is computed (so no update is seen by a
  // gradient of the same step), grouped into one op.
  Operation ApplyGradients(const Scope& scope, const std::vector<GradAndVar>& grads_and_vars);
  Operation Minimize(const Scope& scope, const Output& loss, std::vector<Output> var_list = {});
  virtual std::string name() const = 0;

 protected:
  friend class ::rill::dist::DistributedOptimizer;  // applies through the optimizer it wraps
  // The seed of the loss's gradient (d loss / d loss); empty, as by default: ones.
  virtual Output GradientSeed(const Scope& scope, const Output& loss) {
    (void)scope;
    (void)loss;
    return Output();
  }
  // What ComputeGradients returns made of the gradients of this process (a distributed
  // optimizer averages them over the ranks); `seeded`: they were computed from
  // GradientSeed's seed. As they are by default.
  virtual std::vector<GradAndVar> ReduceGradients(const Scope& scope,
                                                  std::vector<GradAndVar> grads_and_vars,
                                                  bool seeded) {
    (void)scope;
    (void)seeded;
    return grads_and_vars;
  }
  // The update of one variable; `scope` carries the control dependency on the gradients.
  virtual Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) = 0;
  // Work after all updates (Adam's beta powers); returns the ops to group with them.
  virtual std::vector<Operation> Finish(const Scope& scope, const std::vector<Operation>& updates) {
    (void)scope;
    return updates;
  }
  // A slot variable shaped like `var`, every element `value` ("<var>/<name>").
  Output Slot(const Scope& scope, const Output& var, const std::string& name, double value = 0);
  Output ZerosSlot(const Scope& scope, const Output& var, const std::string& name) {
    return Slot(scope, var, name, 0);
  }
  // A scalar variable holding `base` (Adam's beta powers), made outside any control
  // dependency, and the assignment that multiplies it by `base` once the updates are done.
  static Output PowerVariable(const Scope& scope, const std::string& name, double base,
                              DataType dt);
  static Operation AdvancePower(const Scope& after_updates, const Output& power, double base,
                                const std::string& name);
};

// var -= lr * grad. (When grad is a MatMul that nothing else reads, the graph optimizer
// makes the update one GEMM that never stores the gradient: _MatMulApplyGradientDescent.)
class GradientDescentOptimizer : public Optimizer {
 public:
  explicit GradientDescentOptimizer(double learning_rate) : lr_(learning_rate) {}
  std::string name() const override { return "GradientDescent"; }

 protected:
  Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) override;

 private:
  double lr_;
};

class MomentumOptimizer : public Optimizer {
 public:
  MomentumOptimizer(double learning_rate, double momentum, bool use_nesterov = false)
      : lr_(learning_rate), momentum_(momentum), nesterov_(use_nesterov) {}
  std::string name() const override { return "Momentum"; }

 protected:
  Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) override;

 private:
  double lr_, momentum_;
  bool nesterov_;
};

class AdamOptimizer : public Optimizer {
 public:
  explicit AdamOptimizer(double learning_rate = 0.001, double beta1 = 0.9, double beta2 = 0.999,
                         double epsilon = 1e-7, bool use_nesterov = false)
      : lr_(learning_rate),
        beta1_(beta1),
        beta2_(beta2),
        epsilon_(epsilon),
        nesterov_(use_nesterov) {}
  std::string name() const override { return "Adam"; }

 protected:
  Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) override;
  std::vector<Operation> Finish(const Scope& scope, const std::vector<Operation>& updates) override;

 private:
  double lr_, beta1_, beta2_, epsilon_;
  bool nesterov_;
  Output beta1_power_, beta2_power_;  // made with the first update, per Minimize
};

// Adagrad (tf.compat.v1.train.AdagradOptimizer): accum starts at initial_accumulator_value;
// accum += grad^2, var -= lr grad / sqrt(accum). With an epsilon above 0, Keras's Adagrad:
// var -= lr grad / (sqrt(accum) + epsilon) (op ApplyAdagradV2).
class AdagradOptimizer : public Optimizer {
 public:
  explicit AdagradOptimizer(double learning_rate, double initial_accumulator_value = 0.1,
                            double epsilon = 0)
      : lr_(learning_rate), init_(initial_accumulator_value), epsilon_(epsilon) {}
  std::string name() const override { return "Adagrad"; }

 protected:
  Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) override;

 private:
  double lr_, init_, epsilon_;
};

// RMSProp (tf.compat.v1.train.RMSPropOptimizer): ms = decay ms + (1 - decay) grad^2,
// mom = momentum mom + lr grad / sqrt(ms + epsilon), var -= mom; centered subtracts the
// squared mean gradient from ms (ApplyCenteredRMSProp). ms starts at 1, as TensorFlow 1's;
// Keras's RMSprop is (0.001, 0.9, 0, 1e-7, false, 0): its ms starts at 0.
class RMSPropOptimizer : public Optimizer {
 public:
  explicit RMSPropOptimizer(double learning_rate, double decay = 0.9, double momentum = 0,
                            double epsilon = 1e-10, bool centered = false,
                            double initial_mean_square = 1)
      : lr_(learning_rate),
        decay_(decay),
        momentum_(momentum),
        epsilon_(epsilon),
        init_(initial_mean_square),
        centered_(centered) {}
  std::string name() const override { return "RMSProp"; }

 protected:
  Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) override;

 private:
  double lr_, decay_, momentum_, epsilon_, init_;
  bool centered_;
};

// Adadelta (tf.compat.v1.train.AdadeltaOptimizer; op ApplyAdadelta).
class AdadeltaOptimizer : public Optimizer {
 public:
  explicit AdadeltaOptimizer(double learning_rate = 0.001, double rho = 0.95, double epsilon = 1e-8)
      : lr_(learning_rate), rho_(rho), epsilon_(epsilon) {}
  std::string name() const override { return "Adadelta"; }

 protected:
  Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) override;

 private:
  double lr_, rho_, epsilon_;
};

// AdaMax (Keras's Adamax; op ApplyAdaMax): Adam with the infinity norm in place of the
// second moment; beta1_power advances once per step, as Adam's.
class AdaMaxOptimizer : public Optimizer {
 public:
  explicit AdaMaxOptimizer(double learning_rate = 0.001, double beta1 = 0.9, double beta2 = 0.999,
                           double epsilon = 1e-7)
      : lr_(learning_rate), beta1_(beta1), beta2_(beta2), epsilon_(epsilon) {}
  std::string name() const override { return "AdaMax"; }

 protected:
  Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) override;
  std::vector<Operation> Finish(const Scope& scope, const std::vector<Operation>& updates) override;

 private:
  double lr_, beta1_, beta2_, epsilon_;
  Output beta1_power_;  // made with the first update, per Minimize
};

}  // namespace rill::ops
