// BatchMatMulV2(x, y, adj_x, adj_y): the shape rule its shape function and kernels share,
// and the plan of one GEMM per output matrix, with NumPy broadcasting of the batch dims.
#pragma once

#include <vector>

#include "rill/core/kernel.h"
#include "rill/core/shape_util.h"

namespace rill {

// x [..., m, k] (adj_x: [..., k, m]) times y [..., k, n] (adj_y: [..., n, k]) gives
// [broadcast batch dims..., m, n]. -1 dims stay unknown (partial shapes).
absl::StatusOr<shape_util::Dims> BatchMatMulDims(absl::Span<const int64_t> x,
                                                 absl::Span<const int64_t> y, bool adj_x,
                                                 bool adj_y);

struct BatchMatMulPlan {
  int64_t m = 0, n = 0, k = 0;
  // For output matrix b: the index of the x matrix and of the y matrix it multiplies.
  std::vector<int64_t> x_index, y_index;
  // Every output matrix reads x matrix b * x_step and y matrix b * y_step (steps 0 or 1):
  // one strided-batched GEMM serves.
  bool strided = true;
  int64_t x_step = 1, y_step = 1;
};

// Validates (x, y) and allocates output 0.
absl::StatusOr<BatchMatMulPlan> PrepareBatchMatMul(OpKernelContext& ctx, bool adj_x, bool adj_y,
                                                   Tensor** out);

}  // namespace rill
