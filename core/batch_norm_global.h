// BatchNormWithGlobalNormalization's and its gradient's checks and arithmetic (CPU): t 4-D,
// m, v, beta, gamma vectors as long as t's last dim (the channels), variance_epsilon
// finite and >= 0.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// The shape function of both: t (input 0) and the backprop (the gradient's input 4) of one
// shape; the vectors (the op's other inputs) one per channel.
absl::Status GlobalNormShape(InferenceContext& c);

// The same on a kernel's inputs; returns the channel count.
absl::StatusOr<int64_t> CheckGlobalNorm(const OpKernelContext& ctx, float epsilon);

}  // namespace rill
