// Row-major batched GEMM on the device through cuBLAS, for BatchMatMulV2 and Einsum:
// out[b] = op(x[b]) op(y[b]) for `count` products, x[b] at x + b * x_stride and y[b] at
// y + b * y_stride (a stride of 0 repeats one matrix), out[b] at out + b * m * n. Row-major
// C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T, so the operands are swapped. The
// caller holds the handle's lock; m, n, k and count must fit an int.
#pragma once

#include "rill/kernels/cuda/gpu_context.h"

namespace rill::gpu {

template <typename T>
absl::Status StridedBatchedGemm(GpuContext* g, bool adj_x, bool adj_y, int64_t m, int64_t n,
                                int64_t k, const T* x, int64_t x_stride, const T* y,
                                int64_t y_stride, T* out, int64_t count, bool allow_tf32);

// InvalidArgument when a GEMM dimension or the count does not fit cuBLAS's int.
absl::Status CheckGemmDims(const char* op, int64_t m, int64_t n, int64_t k, int64_t count);

}  // namespace rill::gpu
