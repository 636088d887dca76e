// TopKV2's argument checks and geometry, shared by its shape function and kernels.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/shape_util.h"

namespace rill {

// [rows, n] rows of the input, k kept of each.
struct TopKGeometry {
  int64_t rows = 0, n = 0, k = 0;
};

// The output dims: input's with the last replaced by k (0 <= k <= last dim, rank >= 1).
absl::StatusOr<shape_util::Dims> TopKDims(absl::Span<const int64_t> input, int64_t k);

// Validates (input, k) and allocates outputs 0 (values) and 1 (int32 indices).
absl::StatusOr<TopKGeometry> PrepareTopK(OpKernelContext& ctx, Tensor** values, Tensor** indices);

}  // namespace rill
