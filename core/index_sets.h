// UnravelIndex (tf.unravel_index) and ListDiff (tf.compat.v1.setdiff1d). UnravelIndex:
// flat indices (a scalar or a vector) into coordinates of a row-major array of shape dims,
// out [ndims] or [ndims, n]; an index outside [0, prod(dims)) or a negative dim is
// InvalidArgument. ListDiff(x, y): the values of the vector x not in the vector y, in x's
// order with repeats kept, and their positions in x (out_idx). Shared by the kernels and
// the shape functions.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// indices of rank 0 or 1, dims a vector: out [ndims] or [ndims, n].
absl::Status UnravelIndexShape(InferenceContext& c);
// x and y vectors: both outputs [?].
absl::Status ListDiffShape(InferenceContext& c);

template <typename Tidx>
absl::Status UnravelIndex(OpKernelContext& ctx);
// Values compared as their bytes' dtype T; positions written as out_idx.
template <typename T>
absl::Status ListDiff(OpKernelContext& ctx);

}  // namespace rill
