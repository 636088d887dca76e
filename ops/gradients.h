// Symbolic differentiation, as TensorFlow's AddSymbolicGradients: builds the backward
// graph of `outputs` with respect to `inputs` into the same graph. Each op type registers
// a gradient function (RILL_REGISTER_GRADIENT) or declares itself not differentiable
// (RILL_REGISTER_NO_GRADIENT); the completeness test checks every op does one of the two.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "rill/ops/scope.h"

namespace rill::ops {

// Given the gradients of `op`'s outputs (one per output; an empty Output for an output no
// gradient reached, except that multi-output ops get ZerosLike there), appends one Output
// per input of `op` to *grad_outputs: the gradient for that input, or an empty Output
// when none flows to it.
using GradFunc = std::function<absl::Status(const Scope& scope, const Operation& op,
                                            const std::vector<Output>& grad_inputs,
                                            std::vector<Output>* grad_outputs)>;

class GradOpRegistry {
 public:
  static GradOpRegistry* Global();
  void Register(const std::string& op, GradFunc fn);
  void RegisterNoGradient(const std::string& op);
  // The op's gradient function; nullptr both for a not-differentiable op and an unknown one.
  const GradFunc* Lookup(const std::string& op) const;
  bool IsNotDifferentiable(const std::string& op) const;

 private:
  absl::flat_hash_map<std::string, GradFunc> fns_;
  absl::flat_hash_map<std::string, bool> no_grad_;
};

struct GradRegistration {
  GradRegistration(const char* op, GradFunc fn) { GradOpRegistry::Global()->Register(op, fn); }
  explicit GradRegistration(const char* op) { GradOpRegistry::Global()->RegisterNoGradient(op); }
};

#define RILL_REGISTER_GRADIENT(op, fn)                                                    \
  static ::rill::ops::GradRegistration RILL_CONCAT_(rill_grad_registration_, __COUNTER__) \
      [[maybe_unused]] (op, fn)
#define RILL_REGISTER_NO_GRADIENT(op)                                                     \
  static ::rill::ops::GradRegistration RILL_CONCAT_(rill_grad_registration_, __COUNTER__) \
      [[maybe_unused]] (op)

// TensorFlow's sentinel for "no gradient flows along this edge": what a gradient function
// returns for an input it does not differentiate, and what AddSymbolicGradients returns
// for an input every path to which is stopped.
inline Output NoGradient() { return Output(nullptr, -1); }

// d(sum of outputs[i] * grad_inputs[i]) / d inputs[j] for each j, appended to
// *grad_outputs in the order of `inputs`, as TensorFlow's AddSymbolicGradients. Gradients
// arriving by several paths are summed; broadcasting is undone (each gradient has its
// input's shape); StopGradient and ops declared not differentiable stop the flow, and an
// input whose every path is stopped gets NoGradient(). An input that no output depends on
// is InvalidArgument ("Cannot compute the partial derivative for node 'z' as it's
// unreachable from the output node(s)."). Integer outputs differentiate as in TensorFlow.
// Errors (an op on the path with no gradient function, mismatched grad_inputs) name the
// node and op.
absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  const std::vector<Output>& grad_inputs,
                                  std::vector<Output>* grad_outputs);
// The same with grad_inputs of ones (OnesLike of each output).
absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  std::vector<Output>* grad_outputs);
// The grad_inputs entry of ones for `y` that the call above makes (a Const when y has one
// element).
Output OnesSeed(const Scope& scope, const Output& y);

}  // namespace rill::ops

namespace rill {
// Where TensorFlow declares them.
using ops::AddSymbolicGradients;
using ops::NoGradient;
}  // namespace rill
