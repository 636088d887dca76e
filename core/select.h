// The argument checks and the plan of Select and SelectV2 (select_plan.h), shared by their
// shape functions and kernels, and Where's coordinate listing.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/select_plan.h"

namespace rill {

// Select (v1, TensorFlow's rules): t and e of one shape; condition a scalar, of t's shape,
// or a vector over t's first dim. The output has t's shape.
absl::StatusOr<PartialTensorShape> SelectShape(const PartialTensorShape& cond,
                                               const PartialTensorShape& t,
                                               const PartialTensorShape& e);
// SelectV2: the three broadcast together (NumPy rules).
absl::StatusOr<PartialTensorShape> SelectV2Shape(const PartialTensorShape& cond,
                                                 const PartialTensorShape& t,
                                                 const PartialTensorShape& e);

// Validates the inputs (condition, t, e), allocates output 0 and plans the walk.
absl::StatusOr<SelectPlan> PrepareSelect(OpKernelContext& ctx, bool v2, Tensor** out);

// The walk on host memory over elements of `element_size` bytes.
void RunSelectOnHost(const SelectPlan& p, int64_t n, size_t element_size, const bool* cond,
                     const void* t, const void* e, void* out);

// Where(input): the coordinates of input's nonzero (true) elements, row-major, as an int64
// [count, rank] output allocated here.
absl::Status ComputeWhere(OpKernelContext& ctx);

}  // namespace rill
