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

}  // namespace rill::ops
