// Row-major GEMM for the CPU kernels: C = alpha op(A) op(B) + beta C. float goes to
// oneDNN's sgemm (its JIT picks the ISA at run time), with one rewrite where sgemm is
// measured slow (gemm.cc); other types go to Eigen.
#pragma once

#include <cstdint>
#include <type_traits>

#include "Eigen/Core"
#include "rill/core/status.h"

namespace rill::cpu {

// Float GEMM through oneDNN; Internal if oneDNN reports a failure.
absl::Status Sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                   int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

// Whether Sgemm computes this product as (op(B)^T op(A)^T)^T (exposed for its tests).
bool SgemmComputesTransposed(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float beta);

template <typename T>
absl::Status Gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                  int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  if (m == 0 || n == 0) return absl::OkStatus();
  if constexpr (std::is_same_v<T, float>) {
    return Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Stride = Eigen::OuterStride<>;
    Eigen::Map<const M, 0, Stride> A(a, ta ? k : m, ta ? m : k, Stride(lda));
    Eigen::Map<const M, 0, Stride> B(b, tb ? n : k, tb ? k : n, Stride(ldb));
    Eigen::Map<M, 0, Stride> C(c, m, n, Stride(ldc));
    if (beta == T(0)) {
      C.setZero();
    } else if (beta != T(1)) {
      C *= beta;
    }
    if (ta && tb) {
      C.noalias() += alpha * (A.transpose() * B.transpose());
    } else if (ta) {
      C.noalias() += alpha * (A.transpose() * B);
    } else if (tb) {
      C.noalias() += alpha * (A * B.transpose());
    } else {
      C.noalias() += alpha * (A * B);
    }
    return absl::OkStatus();
  }
}

}  // namespace rill::cpu
