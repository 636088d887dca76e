// Row-major GEMM for the CPU kernels: C = alpha op(A) op(B) + beta C. float goes to
// oneDNN's sgemm (its JIT picks the ISA at run time), with one rewrite where sgemm is
// measured slow (gemm.cc); other types go to Eigen.
#pragma once

#include <cstdint>

#include "rill/core/status.h"

namespace rill::cpu {

// Float GEMM through oneDNN; Internal if oneDNN reports a failure.
absl::Status Sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                   int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

// Whether Sgemm computes this product as (op(B)^T op(A)^T)^T (exposed for its tests).
bool SgemmComputesTransposed(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float beta);

// Defined in gemm_eigen.cc for the number types (RILL_FOR_NUMBER_TYPES): Eigen's matrix
// product is instantiated there once per type, not in every kernel file that multiplies.
template <typename T>
absl::Status Gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                  int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc);

}  // namespace rill::cpu
