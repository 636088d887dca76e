// SelfAdjointEigV2 (tf.linalg.eigh): eigenvalues ascending and eigenvectors checked by their
// definition (V diag(e) V^T = A, V^T V = I) in float and double, the upper triangle left
// unread, compute_v off, empty matrices, and gradients against central differences.
#include <algorithm>
#include <cmath>

#include "gradient_checker.h"
#include "rill/ops/linalg_ops.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace eig_test {

MarkTested tested({"SelfAdjointEigV2"});

using Ins = std::vector<Output>;

// e and v of the batch `a`.
std::pair<std::vector<double>, std::vector<double>> Eig(const Tensor& a, bool compute_v = true) {
  std::vector<double> e, v;
  for (int which : {0, 1}) {
    auto got = RunOp(
        [which, compute_v](const Scope& s, const Ins& in) {
          ops::SelfAdjointEigV2 eig(s, in[0], ops::SelfAdjointEigV2::ComputeV(compute_v));
          return which == 0 ? eig.e : eig.v;
        },
        {a});
    EXPECT_TRUE(got.ok()) << got.status();
    if (got.ok()) (which == 0 ? e : v) = ToDoubles(*got);
  }
  return {e, v};
}

// `count` random symmetric n x n matrices, with junk above the diagonal when `junk`.
std::vector<double> Symmetric(int64_t count, int64_t n, uint32_t seed, bool junk,
                              std::vector<double>* with_junk) {
  std::vector<double> a = ToDoubles(RandomTensor(DT_DOUBLE, {count, n, n}, -2, 2, seed));
  for (int64_t b = 0; b < count; ++b)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) a[(b * n + i) * n + j] = a[(b * n + j) * n + i];
  *with_junk = a;
  if (junk) {
    for (int64_t b = 0; b < count; ++b)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = i + 1; j < n; ++j) (*with_junk)[(b * n + i) * n + j] = 100.0 + i + j;
  }
  return a;
}

TEST(SelfAdjointEig, EigenvectorsReconstructTheMatrixFromItsLowerTriangle) {
  const int64_t count = 3, n = 5;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    const double tol = dt == DT_FLOAT ? 1e-4 : 1e-10;
    std::vector<double> fed;
    const std::vector<double> a = Symmetric(count, n, 5, true, &fed);
    auto [e, v] = Eig(FromDoubles(dt, {count, n, n}, fed));
    ASSERT_EQ(e.size(), static_cast<size_t>(count * n));
    ASSERT_EQ(v.size(), static_cast<size_t>(count * n * n));
    for (int64_t b = 0; b < count; ++b) {
      EXPECT_TRUE(std::is_sorted(e.begin() + b * n, e.begin() + (b + 1) * n));
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double rebuilt = 0, gram = 0;
          for (int64_t k = 0; k < n; ++k) {
            const double vik = v[(b * n + i) * n + k], vjk = v[(b * n + j) * n + k];
            rebuilt += vik * e[b * n + k] * vjk;
            gram += v[(b * n + k) * n + i] * v[(b * n + k) * n + j];
          }
          EXPECT_NEAR(rebuilt, a[(b * n + i) * n + j], tol) << b << " " << i << " " << j;
          EXPECT_NEAR(gram, i == j ? 1.0 : 0.0, tol);
        }
      }
    }
    // Without eigenvectors: the same eigenvalues, v of shape [0].
    auto [e_only, none] = Eig(FromDoubles(dt, {count, n, n}, fed), false);
    EXPECT_TRUE(none.empty());
    for (size_t i = 0; i < e.size(); ++i) EXPECT_NEAR(e_only[i], e[i], tol);
  }
}

TEST(SelfAdjointEig, ByHandAndEmpty) {
  auto [e, v] = Eig(FromDoubles(DT_DOUBLE, {2, 2}, {2, 0, 0, 1}));
  EXPECT_EQ(e, (std::vector<double>{1, 2}));
  for (double& x : v) x = std::abs(x);
  EXPECT_EQ(v, (std::vector<double>{0, 1, 1, 0}));
  auto [e2, v2] = Eig(FromDoubles(DT_DOUBLE, {2, 2}, {2, 1, 1, 2}));  // 1 and 3
  EXPECT_NEAR(e2[0], 1, 1e-12);
  EXPECT_NEAR(e2[1], 3, 1e-12);
  auto got = RunOp([](const Scope& s, const Ins& in) { return ops::SelfAdjointEigV2(s, in[0]).e; },
                   {Tensor(DT_FLOAT, TensorShape({2, 0, 0}))});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->shape(), TensorShape({2, 0}));
}

TEST(SelfAdjointEig, GradientsMatchNumeric) {
  // Well separated eigenvalues; the input need not be symmetric (its upper triangle has no
  // gradient), and v enters squared (its columns' signs are Eigen's choice).
  const Tensor a = FromDoubles(DT_DOUBLE, {2, 3, 3},
                               {4, 0.3, -0.2, 0.5, 1, 0.7, -0.4, 0.2, -2,  //
                                3, 9, 9, 0.6, -1, 9, 0.1, 0.8, 6});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) { return ops::SelfAdjointEigV2(s, in[0]).e; }, {a});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        return ops::SelfAdjointEigV2(s, in[0], ops::SelfAdjointEigV2::ComputeV(false)).e;
      },
      {a});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        ops::SelfAdjointEigV2 eig(s, in[0]);
        return ops::Add(s, ops::Square(s, eig.v), ops::ExpandDims(s, eig.e, -1));
      },
      {a});
}

const bool kMarked = [] {
  GradTestedOps().insert("SelfAdjointEigV2");
  return true;
}();

}  // namespace eig_test
}  // namespace
}  // namespace rill::testing
