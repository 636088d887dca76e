// Helpers that gradient functions share: constants of a given dtype, shapes known at
// construction as constants (else a Shape op), and undoing broadcasting.
#pragma once

#include <vector>

#include "rill/ops/scope.h"

namespace rill::ops::grad {

// Input i, output i and the output dtype of a forward op, as Outputs.
inline Output In(const Operation& op, int i) {
  NodeOut n = op.node()->input(i);
  return Output(n.node, n.index);
}
inline Output Out(const Operation& op, int i = 0) { return Output(op.node(), i); }
inline DataType T(const Operation& op) { return op.node()->output_type(0); }

// A scalar tensor, and a scalar constant, `v` of dtype `dt`.
Tensor ScalarTensor(double v, DataType dt);
Output Scalar(const Scope& s, double v, DataType dt);
// An int32 vector constant.
Output IntVector(const Scope& s, const std::vector<int64_t>& v);
// x's shape: a constant when fully known at construction, else a Shape op.
Output ShapeOf(const Scope& s, const Output& x);
// A spec for Reshape to x's shape: constant when at most one dim is unknown (-1).
Output ReshapeSpecOf(const Scope& s, const Output& x);

// The gradient `g` of a broadcasting op's output, summed back to operand `x` (whose
// partner operand is `other`, or for BroadcastTo the output itself). Decided at
// construction when the shapes allow, else by a BroadcastGradientArgs op at run time.
Output ReduceToOperand(const Scope& s, const Output& g, const Output& x,
                       const PartialTensorShape& other, const Output& other_value);

// Gradients for both operands of a broadcasting binary op.
void ReduceBinary(const Scope& s, const Output& x, const Output& y, const Output& gx_full,
                  const Output& gy_full, std::vector<Output>* grads);

}  // namespace rill::ops::grad
