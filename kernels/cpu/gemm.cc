#include "rill/kernels/cpu/gemm.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.h"

namespace rill::cpu {
namespace {

// dst[j, i] = src[i, j] for src [rows, cols] (leading dimension cols), dst with leading
// dimension ld, in tiles that stay in L1.
void Transpose(const float* src, int64_t rows, int64_t cols, float* dst, int64_t ld) {
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = std::min(rows, i0 + kTile);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t j1 = std::min(cols, j0 + kTile);
      for (int64_t j = j0; j < j1; ++j) {
        for (int64_t i = i0; i < i1; ++i) dst[j * ld + i] = src[i * cols + j];
      }
    }
  }
}

absl::Status Call(char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                  int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  const dnnl_status_t st = dnnl_sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  if (st != dnnl_success) {
    return errors::Internal("oneDNN sgemm failed with status ", static_cast<int>(st), " for ",
                            std::string{ta, tb}, " [", m, "x", k, "] x [", k, "x", n, "]");
  }
  return absl::OkStatus();
}

}  // namespace

// oneDNN 2.6's sgemm is slow for A [m, k] times B^T with B [n, k] when m is a small batch
// (16..128 rows) and n is much larger: 32x3000 by 1000 took 2.3-3.1 ms where the
// transposed product B A^T (n rows) plus a transpose took 1.1-2.0 ms (medians of 15, cold
// caches, 2-core AMD EPYC, 2026-11-22; the sweep is in docs/benchmarks.md). That is the
// shape of every dense layer's input gradient, dZ W^T, at training batch sizes.
bool SgemmComputesTransposed(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float beta) {
  return !ta && tb && beta == 0.0f && m >= 16 && m <= 128 && n >= 8 * m && k >= 64;
}

absl::Status Sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                   int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m == 0 || n == 0) return absl::OkStatus();
  if (!SgemmComputesTransposed(ta, tb, m, n, k, beta)) {
    return Call(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  // C^T [n, m] = B [n, k] A^T, into a per-thread buffer (kept when small) and transposed.
  constexpr int64_t kKeptFloats = int64_t{1} << 20;
  thread_local std::vector<float> kept;
  std::unique_ptr<float[]> big;
  float* ct;
  if (n * m <= kKeptFloats) {
    if (static_cast<int64_t>(kept.size()) < n * m) kept.resize(n * m);
    ct = kept.data();
  } else {
    big.reset(new float[n * m]);
    ct = big.get();
  }
  RILL_RETURN_IF_ERROR(Call('N', 'T', n, m, k, alpha, b, ldb, a, lda, 0.0f, ct, m));
  Transpose(ct, n, m, c, ldc);
  return absl::OkStatus();
}

}  // namespace rill::cpu
