// The checks of Cross (tf.linalg.cross), shared by the CPU and GPU kernels and the shape
// function; the arithmetic is core/cross_row.h's.
#pragma once

#include "rill/core/cross_row.h"
#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// a and b of one shape, rank >= 1, the last dim 3; the output has that shape.
absl::Status CrossShape(InferenceContext& c);

// The same on the node's inputs; allocates output 0 and returns the number of vectors.
absl::StatusOr<int64_t> PrepareCross(OpKernelContext& ctx, Tensor** out);

}  // namespace rill
