// The adaptive optimizers: Adagrad, RMSProp, Adadelta and AdaMax, each one update op per
// variable (ops/training_ops.h) with its slots, as TensorFlow's optimizers build them.
#include "rill/ops/grad_util.h"
#include "rill/ops/optimizers.h"
#include "rill/ops/training_ops.h"

namespace rill::ops {

Output AdagradOptimizer::ApplyOne(const Scope& s, const Output& var, const Output& grad) {
  Output accum = Slot(s, var, "Adagrad", init_);
  if (accum.node() == nullptr) return Output();
  const DataType dt = var.type();
  if (epsilon_ > 0) {
    return ApplyAdagradV2(s, var, accum, grad::Scalar(s, lr_, dt), grad::Scalar(s, epsilon_, dt),
                          grad);
  }
  return ApplyAdagrad(s, var, accum, grad::Scalar(s, lr_, dt), grad);
}

Output RMSPropOptimizer::ApplyOne(const Scope& s, const Output& var, const Output& grad) {
  Output ms = Slot(s, var, "RMSProp", init_), mom = ZerosSlot(s, var, "Momentum");
  if (ms.node() == nullptr || mom.node() == nullptr) return Output();
  const DataType dt = var.type();
  Output lr = grad::Scalar(s, lr_, dt), rho = grad::Scalar(s, decay_, dt);
  Output momentum = grad::Scalar(s, momentum_, dt), eps = grad::Scalar(s, epsilon_, dt);
  if (!centered_) return ApplyRMSProp(s, var, ms, mom, lr, rho, momentum, eps, grad);
  Output mg = ZerosSlot(s, var, "MeanGradient");
  if (mg.node() == nullptr) return Output();
  return ApplyCenteredRMSProp(s, var, mg, ms, mom, lr, rho, momentum, eps, grad);
}

Output AdadeltaOptimizer::ApplyOne(const Scope& s, const Output& var, const Output& grad) {
  Output accum = ZerosSlot(s, var, "accum"), update = ZerosSlot(s, var, "accum_update");
  if (accum.node() == nullptr || update.node() == nullptr) return Output();
  const DataType dt = var.type();
  return ApplyAdadelta(s, var, accum, update, grad::Scalar(s, lr_, dt), grad::Scalar(s, rho_, dt),
                       grad::Scalar(s, epsilon_, dt), grad);
}

Output AdaMaxOptimizer::ApplyOne(const Scope& s, const Output& var, const Output& grad) {
  const DataType dt = var.type();
  if (beta1_power_.node() == nullptr || beta1_power_.type() != dt) {
    beta1_power_ = PowerVariable(s, "beta1_power", beta1_, dt);
  }
  Output m = ZerosSlot(s, var, "m"), v = ZerosSlot(s, var, "v");
  if (m.node() == nullptr || v.node() == nullptr) return Output();
  return ApplyAdaMax(s, var, m, v, beta1_power_, grad::Scalar(s, lr_, dt),
                     grad::Scalar(s, beta1_, dt), grad::Scalar(s, beta2_, dt),
                     grad::Scalar(s, epsilon_, dt), grad);
}

std::vector<Operation> AdaMaxOptimizer::Finish(const Scope& s,
                                               const std::vector<Operation>& updates) {
  if (beta1_power_.node() == nullptr) return updates;
  std::vector<Operation> all = updates;
  all.push_back(
      AdvancePower(s.WithControlDependencies(updates), beta1_power_, beta1_, "update_beta1_power"));
  beta1_power_ = Output();  // a later Minimize gets its own
  return all;
}

}  // namespace rill::ops
