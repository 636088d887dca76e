// Gemm for every number type, instantiated once here: Eigen's general matrix product is
// the costliest template the kernels use (tens of seconds of compiling per type and file).
#include <cstdint>
#include <type_traits>

#include "Eigen/Core"
#include "rill/core/kernel.h"
#include "rill/kernels/cpu/gemm.h"

namespace rill::cpu {

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

#define RILL_INSTANTIATE_GEMM(T, unused)                                                     \
  template absl::Status Gemm<T>(bool, bool, int64_t, int64_t, int64_t, T, const T*, int64_t, \
                                const T*, int64_t, T, T*, int64_t);
RILL_FOR_NUMBER_TYPES(RILL_INSTANTIATE_GEMM, 0)
#undef RILL_INSTANTIATE_GEMM

}  // namespace rill::cpu
