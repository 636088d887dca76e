// Einsum with TensorFlow's C++ name, for two operands whose contraction is a batched GEMM
// ("bij,bjk->bik", "ij,jk->ki", "bhqd,bhkd->bhqk", ...): each label in both operands and
// the output is a batch label, in both operands only a contracted one, in one operand and
// the output a free one.
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

class Einsum : public OpWrapper {
 public:
  Einsum(const Scope& scope, InputList inputs, const std::string& equation);
};

}  // namespace rill::ops
