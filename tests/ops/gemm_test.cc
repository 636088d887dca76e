// The CPU GEMM helper (kernels/cpu/gemm.h) on both of its float paths, with alpha, beta
// and a leading dimension of C wider than its columns, against a float64 reference.
#include "rill/kernels/cpu/gemm.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rill::cpu {
namespace {
namespace gemm_test {

struct Case {
  bool ta, tb;
  int64_t m, n, k;
  float alpha, beta;
  int64_t ldc_pad;
};

TEST(CpuGemm, BothFloatPathsMatchAFloat64Reference) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const Case cases[] = {
      {false, true, 32, 300, 96, 1.f, 0.f, 0},    // dZ W^T: computed transposed
      {false, true, 16, 128, 64, -0.5f, 0.f, 5},  // transposed, alpha and a wide C
      {false, true, 8, 300, 96, 1.f, 0.f, 0},     // batch too small: direct
      {false, true, 32, 300, 96, 2.f, 1.f, 3},    // beta = 1 accumulates: direct
      {false, false, 32, 300, 96, 1.f, 0.f, 0},   // no transpose: direct
      {true, false, 96, 40, 32, -0.1f, 1.f, 0},   // the fused update's shape
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) +
                 (c.ta ? " ta" : "") + (c.tb ? " tb" : "") + " beta " + std::to_string(c.beta));
    const int64_t lda = c.ta ? c.m : c.k, ldb = c.tb ? c.k : c.n, ldc = c.n + c.ldc_pad;
    std::vector<float> a(c.m * c.k), b(c.k * c.n), out(c.m * ldc);
    for (float& x : a) x = u(rng);
    for (float& x : b) x = u(rng);
    for (float& x : out) x = u(rng);
    std::vector<double> want(out.begin(), out.end());
    for (int64_t i = 0; i < c.m; ++i) {
      for (int64_t j = 0; j < c.n; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < c.k; ++p) {
          acc += double(a[c.ta ? p * lda + i : i * lda + p]) *
                 double(b[c.tb ? j * ldb + p : p * ldb + j]);
        }
        want[i * ldc + j] = c.alpha * acc + c.beta * want[i * ldc + j];
      }
    }
    ASSERT_TRUE(Sgemm(c.ta, c.tb, c.m, c.n, c.k, c.alpha, a.data(), lda, b.data(), ldb, c.beta,
                      out.data(), ldc)
                    .ok());
    for (int64_t i = 0; i < c.m * ldc; ++i) {
      const bool padding = i % ldc >= c.n;  // columns past n are never written
      ASSERT_NEAR(out[i], want[i], padding ? 0.0 : 1e-4 * (1 + std::abs(want[i]))) << "at " << i;
    }
  }
}

TEST(CpuGemm, TransposedPathIsTakenOnlyWhereMeasuredFaster) {
  EXPECT_TRUE(SgemmComputesTransposed(false, true, 32, 3000, 1000, 0.f));    // the MLP's dX
  EXPECT_TRUE(SgemmComputesTransposed(false, true, 50, 3136, 1024, 0.f));    // the CNN's dX
  EXPECT_FALSE(SgemmComputesTransposed(false, true, 8, 3000, 1000, 0.f));    // small batch
  EXPECT_FALSE(SgemmComputesTransposed(false, true, 512, 3000, 1000, 0.f));  // large batch
  EXPECT_FALSE(SgemmComputesTransposed(false, false, 32, 3000, 1000, 0.f));  // forward
  EXPECT_FALSE(SgemmComputesTransposed(false, true, 32, 3000, 1000, 1.f));   // accumulating
}

}  // namespace gemm_test
}  // namespace
}  // namespace rill::cpu
