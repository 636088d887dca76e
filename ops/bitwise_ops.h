// TensorFlow's bitwise ops (tf.bitwise) with their C++ names, over int32, int64 and uint8:
//   BitwiseAnd(x, y), BitwiseOr(x, y), BitwiseXor(x, y), with NumPy broadcasting;
//   LeftShift(x, y), RightShift(x, y): x shifted by y bits, broadcast; y clamped into
//     [0, bits - 1] as TensorFlow's kernels clamp it; a right shift of a signed value is
//     arithmetic (keeps the sign);
//   Invert(x): ~x;
//   PopulationCount(x): the number of bits set in each element, as uint8.
// None is differentiable. CPU kernels only: placed on a GPU, they run on the CPU (soft
// placement), as their integer operands are small in practice.
#pragma once

#include "rill/ops/math_ops.h"

namespace rill::ops {

RILL_DECLARE_BINARY_OP(BitwiseAnd)
RILL_DECLARE_BINARY_OP(BitwiseOr)
RILL_DECLARE_BINARY_OP(BitwiseXor)
RILL_DECLARE_BINARY_OP(LeftShift)
RILL_DECLARE_BINARY_OP(RightShift)
RILL_DECLARE_UNARY_OP(Invert)
RILL_DECLARE_UNARY_OP(PopulationCount)

}  // namespace rill::ops
