// Neural-network activations.
#pragma once

#include "rill/ops/math_ops.h"

namespace rill::ops {

RILL_DECLARE_UNARY_OP(Relu)
RILL_DECLARE_UNARY_OP(Sigmoid)
RILL_DECLARE_UNARY_OP(Tanh)
// Softmax and LogSoftmax over the last dimension (rank >= 1).
RILL_DECLARE_UNARY_OP(Softmax)
RILL_DECLARE_UNARY_OP(LogSoftmax)

// Cross entropy of softmax(features) against label distributions, per row: features and
// labels are [batch, classes]; loss is [batch] and backprop (softmax - labels) the
// gradient of loss with respect to features. Stable for any logits.
class SoftmaxCrossEntropyWithLogits {
 public:
  SoftmaxCrossEntropyWithLogits(const Scope& scope, Input features, Input labels);
  Operation operation;
  Output loss, backprop;
};

// The same with integer class labels [batch] in [0, classes); a label out of range is
// InvalidArgument at run time.
class SparseSoftmaxCrossEntropyWithLogits {
 public:
  SparseSoftmaxCrossEntropyWithLogits(const Scope& scope, Input features, Input labels);
  Operation operation;
  Output loss, backprop;
};

// Elementwise logistic loss of logits against labels in [0, 1] (same shapes):
// max(x, 0) - x * z + log(1 + exp(-|x|)), stable for any x.
class SigmoidCrossEntropyWithLogits : public OpWrapper {
 public:
  SigmoidCrossEntropyWithLogits(const Scope& scope, Input logits, Input labels);
};

}  // namespace rill::ops
