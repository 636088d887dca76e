// NumPy broadcasting of two inputs as collapsed dims with per-input element strides
// (0 where an input is broadcast). CPU and GPU elementwise kernels both walk this plan.
#pragma once

#include <cstdint>

#include "rill/core/broadcast_plan.h"
#include "rill/core/tensor_shape.h"

namespace rill {

// The broadcast of `a` and `b` as collapsed dims with element strides (0 = broadcast).

BroadcastPlan MakeBroadcastPlan(const TensorShape& a, const TensorShape& b, const TensorShape& out);

}  // namespace rill
