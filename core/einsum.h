// Einsum of two operands, for the contractions that are a batched GEMM: every label is a
// batch label (in both operands and the output), a contracted one (in both operands only) or
// a free one (in one operand and the output). The plan permutes x to [batch, free_x,
// contracted], y to [batch, contracted, free_y], multiplies, and permutes [batch, free_x,
// free_y] to the output's order. Shared by the shape function and the CPU and GPU kernels.
#pragma once

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "rill/core/kernel.h"
#include "rill/core/shape_util.h"
#include "rill/core/strided_copy.h"

namespace rill {

struct EinsumPlan {
  std::vector<int> x_perm, y_perm;  // operand dims in [batch, free, contracted] orders
  std::vector<int> out_perm;        // output dim d is dim out_perm[d] of [batch, free_x, free_y]
  int64_t batch = 1, m = 1, k = 1, n = 1;
  shape_util::Dims out_dims;  // -1 where a size is unknown (shape functions)
  shape_util::Dims mid_dims;  // [batch, free_x, free_y] label sizes: the product's dims
  bool Identity(const std::vector<int>& perm) const;
};

// InvalidArgument for an equation that is not "x,y->out" over letters, a repeated label in
// one term, a label only the output has, sizes that disagree, or a contraction beyond a
// batched GEMM (a label summed within one operand, an ellipsis).
absl::StatusOr<EinsumPlan> PlanEinsum(absl::string_view equation, absl::Span<const int64_t> x,
                                      absl::Span<const int64_t> y);

// Plans the kernel's inputs (x, y) under `equation` and allocates output 0.
absl::StatusOr<EinsumPlan> PrepareEinsum(OpKernelContext& ctx, absl::string_view equation,
                                         Tensor** out);

// The equation of the gradient for operand `which` (0: x, 1: y): "out,y->x" or "x,out->y".
absl::StatusOr<std::string> EinsumGradEquation(absl::string_view equation, int which);

}  // namespace rill
