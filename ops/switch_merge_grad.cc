// Gradients of Switch and Merge, TensorFlow 1's cond gradients built from the same two ops,
// so the backward pass takes the branch the forward pass took:
//  - Switch: Merge of its two outputs' gradients. The untaken output's gradient is dead
//    (computed from dead values), or ZerosLike of that output when none reached it, which
//    is dead with it; the Merge forwards the live one. `pred` gets none.
//  - Merge: input i's gradient is the output's gradient switched on value_index == i, live
//    only for the input the forward Merge forwarded.
#include "rill/ops/control_flow_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {
namespace {

absl::Status SwitchGrad(const Scope& s, const Operation&, const std::vector<Output>& g,
                        std::vector<Output>* out) {
  out->push_back(Merge(s, {g[0], g[1]}).output);
  out->push_back(NoGradient());
  return s.status();
}

absl::Status MergeGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                       std::vector<Output>* out) {
  const Output value_index(op.node(), 1);
  for (int i = 0; i < op.node()->num_inputs(); ++i) {
    out->push_back(Switch(s, g[0], Equal(s, value_index, i)).output_true);
  }
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("Switch", SwitchGrad);
RILL_REGISTER_GRADIENT("Merge", MergeGrad);

}  // namespace rill::ops
