// Einsum with TensorFlow's C++ name and semantics: one or two operands and an explicit
// output ("ij,jk->ik", "bhqd,bhkd->bhqk", "ii->i", "...ij,...jk->...ik", "i->ii"). A label
// in both operands and not in the output is contracted; a label repeated within an operand
// takes its diagonal, one repeated in the output writes a diagonal (zeros elsewhere); a
// label in one operand alone and not in the output is summed; "..." stands for broadcast
// dims (aligned from the right). Gradients for every form (core/einsum.h has the plan).
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

class Einsum : public OpWrapper {
 public:
  Einsum(const Scope& scope, InputList inputs, const std::string& equation);
};

}  // namespace rill::ops
