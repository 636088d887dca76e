#include "rill/kernels/cuda/gemm.h"

#include <limits>

namespace rill::gpu {

template <typename T>
absl::Status StridedBatchedGemm(GpuContext* g, bool adj_x, bool adj_y, int64_t m64, int64_t n64,
                                int64_t k64, const T* x, int64_t x_stride, const T* y,
                                int64_t y_stride, T* out, int64_t count, bool allow_tf32) {
  const T one = 1, zero = 0;
  const auto op = [](bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; };
  const int m = static_cast<int>(m64), n = static_cast<int>(n64), k = static_cast<int>(k64);
  const int lda = adj_x ? m : k, ldb = adj_y ? k : n;
  if constexpr (std::is_same_v<T, float>) {
    RILL_CUDA_CHECK(Cublas().GemmStridedBatchedEx(
        g->cublas, op(adj_y), op(adj_x), n, m, k, &one, y, CUDA_R_32F, ldb, y_stride, x, CUDA_R_32F,
        lda, x_stride, &zero, out, CUDA_R_32F, n, m64 * n64, static_cast<int>(count),
        allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  } else {
    RILL_CUDA_CHECK(Cublas().DgemmStridedBatched(g->cublas, op(adj_y), op(adj_x), n, m, k, &one, y,
                                                 ldb, y_stride, x, lda, x_stride, &zero, out, n,
                                                 m64 * n64, static_cast<int>(count)));
  }
  return absl::OkStatus();
}

template absl::Status StridedBatchedGemm<float>(GpuContext*, bool, bool, int64_t, int64_t, int64_t,
                                                const float*, int64_t, const float*, int64_t,
                                                float*, int64_t, bool);
template absl::Status StridedBatchedGemm<double>(GpuContext*, bool, bool, int64_t, int64_t, int64_t,
                                                 const double*, int64_t, const double*, int64_t,
                                                 double*, int64_t, bool);

absl::Status CheckGemmDims(const char* op, int64_t m, int64_t n, int64_t k, int64_t count) {
  constexpr int64_t kMaxInt = std::numeric_limits<int>::max();
  if (m > kMaxInt || n > kMaxInt || k > kMaxInt || count > kMaxInt) {
    return errors::InvalidArgument(op, " dimension beyond cuBLAS's int range: m ", m, ", n ", n,
                                   ", k ", k, ", ", count, " matrices");
  }
  return absl::OkStatus();
}

}  // namespace rill::gpu
