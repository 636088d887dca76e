#include "rill/ops/optimizers.h"

#include <algorithm>
#include <cstring>

#include "absl/container/flat_hash_set.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/state_ops.h"
#include "rill/ops/training_ops.h"

namespace rill::ops {
namespace {

// Float Variables that `loss` depends on, in graph order.
// The nodes `loss` reads, directly or not.
absl::flat_hash_set<const Node*> Upstream(const Output& loss) {
  absl::flat_hash_set<const Node*> seen;
  std::vector<const Node*> stack = {loss.node()};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    for (int i = 0; i < n->num_inputs(); ++i) stack.push_back(n->input(i).node);
  }
  return seen;
}

// The float variables among them, in id order.
std::vector<Output> TrainableVariables(const absl::flat_hash_set<const Node*>& upstream) {
  std::vector<const Node*> found;
  for (const Node* n : upstream) {
    if (n->IsVariable() && DataTypeIsFloating(n->output_type(0))) found.push_back(n);
  }
  std::sort(found.begin(), found.end(),
            [](const Node* a, const Node* b) { return a->id() < b->id(); });
  std::vector<Output> vars;
  for (const Node* n : found) vars.emplace_back(const_cast<Node*>(n), 0);
  return vars;
}

// The variable's name without characters a scope name cannot hold.
std::string SlotPrefix(const Output& var) { return var.node()->name(); }

}  // namespace

std::vector<GradAndVar> Optimizer::ComputeGradients(const Scope& scope, const Output& loss,
                                                    std::vector<Output> var_list) {
  if (!scope.ok()) return {};
  if (loss.node() == nullptr) {
    scope.UpdateStatus(errors::InvalidArgument(name(), ": the loss is empty (its op failed?)"));
    return {};
  }
  const absl::flat_hash_set<const Node*> upstream = Upstream(loss);
  if (var_list.empty()) var_list = TrainableVariables(upstream);
  if (var_list.empty()) {
    scope.UpdateStatus(errors::InvalidArgument(name(), ": '", loss.name(),
                                               "' depends on no float variable to train"));
    return {};
  }
  for (const Output& v : var_list) {
    if (v.node() == nullptr || !v.node()->IsVariable()) {
      scope.UpdateStatus(errors::InvalidArgument(
          name(), ": var_list holds '", v.node() ? v.name() : "", "', which is not a Variable"));
      return {};
    }
  }
  // As TensorFlow's optimizers: a variable no gradient reaches (the loss does not read it,
  // or every path to it is stopped) is left alone; none reached at all is an error.
  std::vector<Output> reached;
  for (const Output& v : var_list)
    if (upstream.contains(v.node())) reached.push_back(v);
  const Output seed = reached.empty() ? Output() : GradientSeed(scope, loss);
  const bool seeded = seed.node() != nullptr;
  std::vector<Output> grads;
  absl::Status st;
  if (seeded) {
    st = AddSymbolicGradients(scope, {loss}, reached, {seed}, &grads);
  } else if (!reached.empty()) {
    st = AddSymbolicGradients(scope, {loss}, reached, &grads);
  }
  if (!st.ok()) {
    scope.UpdateStatus(st);
    return {};
  }
  std::vector<GradAndVar> out;
  for (size_t i = 0; i < reached.size(); ++i)
    if (grads[i] != NoGradient()) out.emplace_back(grads[i], reached[i]);
  if (out.empty()) {
    scope.UpdateStatus(errors::InvalidArgument(
        name(), ": no gradient reaches any variable of var_list from '", loss.name(),
        "' (each is unread by the loss or behind StopGradient or a not-differentiable op)"));
    return out;
  }
  return ReduceGradients(scope, std::move(out), seeded);
}

Operation Optimizer::ApplyGradients(const Scope& scope, const std::vector<GradAndVar>& given) {
  // Pairs whose gradient is NoGradient() leave their variable alone, as in TensorFlow.
  std::vector<GradAndVar> grads_and_vars;
  for (const auto& gv : given)
    if (gv.first.node() != nullptr) grads_and_vars.push_back(gv);
  if (!scope.ok() || grads_and_vars.empty()) return Operation();
  Scope s = scope.NewSubScope(name());
  std::vector<Operation> grad_ops;
  for (const auto& gv : grads_and_vars) grad_ops.push_back(gv.first.op());
  // One barrier: every update waits for every gradient (a variable is read when its
  // consumer runs, so an early update would leak into another variable's gradient).
  NoOp grads_done(s.WithControlDependencies(grad_ops).WithOpName("gradients_done"));
  Scope after = s.WithControlDependencies({grads_done.operation});
  std::vector<Operation> updates;
  for (const auto& [grad, var] : grads_and_vars) {
    Output u = ApplyOne(after.NewSubScope(SlotPrefix(var)), var, grad);
    if (u.node() != nullptr) updates.push_back(u.op());
  }
  if (!scope.ok()) return Operation();
  std::vector<Operation> all = Finish(s, updates);
  NoOp train(s.WithControlDependencies(all).WithOpName("train"));
  return train.operation;
}

Operation Optimizer::Minimize(const Scope& scope, const Output& loss,
                              std::vector<Output> var_list) {
  return ApplyGradients(scope, ComputeGradients(scope, loss, std::move(var_list)));
}

Output Optimizer::Slot(const Scope& scope, const Output& var, const std::string& slot,
                       double value) {
  const PartialTensorShape shape = var.shape();
  if (!shape.IsFullyDefined()) {
    scope.UpdateStatus(errors::InvalidArgument(name(), ": variable '", var.node()->name(),
                                               "' has shape ", shape.DebugString(),
                                               "; slots need a fully known shape"));
    return Output();
  }
  Tensor init(var.type(), *TensorShape::Build(shape.dim_sizes()));
  std::memset(init.data(), 0, init.TotalBytes());
  if (value != 0) {
    VisitDataType(var.type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      std::fill_n(init.base<T>(), init.NumElements(), static_cast<T>(value));
    });
  }
  Scope plain = scope.WithNoControlDependencies().WithOpName(slot);
  return Variable(plain, Input::Initializer(init));
}

Output Optimizer::PowerVariable(const Scope& scope, const std::string& name, double base,
                                DataType dt) {
  return Variable(scope.WithNoControlDependencies().WithOpName(name), grad::ScalarTensor(base, dt));
}

Operation Optimizer::AdvancePower(const Scope& after, const Output& power, double base,
                                  const std::string& name) {
  return Assign(after.WithOpName(name), power,
                Mul(after, power, grad::Scalar(after, base, power.type())))
      .operation;
}

Output GradientDescentOptimizer::ApplyOne(const Scope& s, const Output& var, const Output& grad) {
  return ApplyGradientDescent(s, var, grad::Scalar(s, lr_, var.type()), grad);
}

Output MomentumOptimizer::ApplyOne(const Scope& s, const Output& var, const Output& grad) {
  Output accum = ZerosSlot(s, var, "Momentum");
  if (accum.node() == nullptr) return Output();
  return ApplyMomentum(s, var, accum, grad::Scalar(s, lr_, var.type()), grad,
                       grad::Scalar(s, momentum_, var.type()),
                       ApplyMomentum::UseNesterov(nesterov_));
}

Output AdamOptimizer::ApplyOne(const Scope& s, const Output& var, const Output& grad) {
  const DataType dt = var.type();
  if (beta1_power_.node() == nullptr || beta1_power_.type() != dt) {
    beta1_power_ = PowerVariable(s, "beta1_power", beta1_, dt);
    beta2_power_ = PowerVariable(s, "beta2_power", beta2_, dt);
  }
  Output m = ZerosSlot(s, var, "m");
  Output v = ZerosSlot(s, var, "v");
  if (m.node() == nullptr || v.node() == nullptr) return Output();
  return ApplyAdam(s, var, m, v, beta1_power_, beta2_power_, grad::Scalar(s, lr_, dt),
                   grad::Scalar(s, beta1_, dt), grad::Scalar(s, beta2_, dt),
                   grad::Scalar(s, epsilon_, dt), grad, ApplyAdam::UseNesterov(nesterov_));
}

std::vector<Operation> AdamOptimizer::Finish(const Scope& s,
                                             const std::vector<Operation>& updates) {
  if (beta1_power_.node() == nullptr) return updates;
  Scope after = s.WithControlDependencies(updates);
  std::vector<Operation> all = updates;
  all.push_back(AdvancePower(after, beta1_power_, beta1_, "update_beta1_power"));
  all.push_back(AdvancePower(after, beta2_power_, beta2_, "update_beta2_power"));
  beta1_power_ = Output();  // a later Minimize gets its own
  beta2_power_ = Output();
  return all;
}

}  // namespace rill::ops
