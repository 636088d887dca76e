// CheckNumerics, with TensorFlow's C++ name: a tensor passed through unchanged, or an
// InvalidArgument "<message> : Tensor had NaN values" (Inf, Inf and NaN) when it holds any.
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

class CheckNumerics : public OpWrapper {
 public:
  CheckNumerics(const Scope& scope, Input tensor, const std::string& message);
};

}  // namespace rill::ops
