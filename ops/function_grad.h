// What the gradients of If and While share (ops/control_flow_grad.cc,
// ops/control_flow_grad_while.cc): both run their functions again from the node's inputs
// and differentiate the copy.
#pragma once

#include <vector>

#include "rill/core/function_chain.h"
#include "rill/ops/scope.h"

namespace rill::ops::grad {

// InvalidArgument when running `f` again could give other values: it holds a stateful op
// other than the function-calling ones (If, While, _WhileRecord), whose functions are
// checked in turn. The message names `caller`, the function and the op.
absl::Status CheckRecomputable(const Function& f, const Node& caller);

// In `s` (a function's graph): runs `f` on `args` (its nodes copied in), and appends to
// *dxs the gradients of its args `wrt` given `dys` for its rets `of`: zeros where no
// gradient flows. *inlined, when given, receives the copy.
absl::Status BackpropThrough(const Scope& s, const Function& f, const std::vector<Output>& args,
                             const std::vector<int>& of, const std::vector<Output>& dys,
                             const std::vector<int>& wrt, std::vector<Output>* dxs,
                             InlinedFunction* inlined = nullptr);

// The indices of the values gradients flow through: floats, and int32 and int64 as in
// TensorFlow (whose while-loop gradient tests differentiate integer loop variables). Not
// bools, uint8 or complex.
std::vector<int> DifferentiableIndices(const std::vector<DataType>& types);

}  // namespace rill::ops::grad
