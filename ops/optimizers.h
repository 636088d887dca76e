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
  // What ComputeGradients returns made of the gradients of this process (a distributed
  // optimizer averages them over the ranks); as they are by default.
  virtual std::vector<GradAndVar> ReduceGradients(const Scope& scope,
                                                  std::vector<GradAndVar> grads_and_vars) {
    (void)scope;
    return grads_and_vars;
  }
  // The update of one variable; `scope` carries the control dependency on the gradients.
  virtual Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) = 0;
  // Work after all updates (Adam's beta powers); returns the ops to group with them.
  virtual std::vector<Operation> Finish(const Scope& scope, const std::vector<Operation>& updates) {
    (void)scope;
    return updates;
  }
  // A slot variable shaped like `var`, zero-initialised ("<var>/<name>").
  Output ZerosSlot(const Scope& scope, const Output& var, const std::string& name);
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

}  // namespace rill::ops
