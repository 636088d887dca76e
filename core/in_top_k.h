// InTopK and InTopKV2 (tf.math.in_top_k): for each row b of predictions [batch, classes],
// whether class targets[b] is among the k largest: fewer than k classes predicted strictly
// above it, so classes tied with it at the boundary all count as in. As TensorFlow's
// kernel: false for a target outside [0, classes) or a row with a value that is not finite,
// and k <= 0 is false everywhere. Shared by the kernel and the shape functions.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// predictions 2-D, targets 1-D of its batch; V2's k (input 2) a scalar. Output [batch].
absl::Status InTopKShape(InferenceContext& c);

// The kernels' work: the inputs checked, output 0 allocated and filled. k from the attr
// (InTopK) or from input 2 (InTopKV2, when `k_input`).
template <typename TargetT>
absl::Status InTopK(OpKernelContext& ctx, bool k_input, int64_t k_attr);

}  // namespace rill
