// Qr and Svd (tf.linalg.qr, tf.linalg.svd): factors checked by their definitions (q r = A
// with q's columns orthonormal and r upper triangular; u diag(s) v^T = A with orthonormal
// u and v, s descending) for deep, square and wide batches in float and double, thin and
// full; empty matrices; NaN inputs; gradients against central differences, through
// outputs that do not depend on the signs the factorizations choose.
#include <algorithm>
#include <cmath>
#include <functional>

#include "gradient_checker.h"
#include "rill/ops/linalg_ops.h"
#include "rill/ops/strided_slice_ops.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace qr_svd_test {

MarkTested tested({"Qr", "Svd"});

using Ins = std::vector<Output>;
using Doubles = std::vector<double>;

// An output of an op on `a`, as doubles and a shape.
struct Got {
  Doubles v;
  TensorShape shape;
};

Got Factor(const std::function<Output(const Scope&, const Output&)>& build, const Tensor& a) {
  auto got = RunOp([&](const Scope& s, const Ins& in) { return build(s, in[0]); }, {a});
  EXPECT_TRUE(got.ok()) << got.status();
  if (!got.ok()) return {};
  return {ToDoubles(*got), got->shape()};
}

// Element (i, j) of matrix b of a batch of rows x cols matrices.
double At(const Doubles& x, int64_t b, int64_t rows, int64_t cols, int64_t i, int64_t j) {
  return x[(b * rows + i) * cols + j];
}

// Expects the k columns of each rows x k matrix of x to be orthonormal.
void ExpectOrthonormalColumns(const Doubles& x, int64_t kCount, int64_t rows, int64_t k,
                              double tol) {
  for (int64_t b = 0; b < kCount; ++b) {
    for (int64_t i = 0; i < k; ++i) {
      for (int64_t j = 0; j < k; ++j) {
        double dot = 0;
        for (int64_t r = 0; r < rows; ++r) dot += At(x, b, rows, k, r, i) * At(x, b, rows, k, r, j);
        EXPECT_NEAR(dot, i == j ? 1.0 : 0.0, tol) << b << " " << i << " " << j;
      }
    }
  }
}

struct Case {
  int64_t m, n;
  bool full;
};

const Case kCases[] = {{5, 3, false}, {5, 3, true}, {4, 4, false}, {4, 4, true},
                       {3, 5, false}, {3, 5, true}, {1, 4, false}, {4, 1, true}};

constexpr int64_t kCount = 2;  // matrices per batch

// Runs `check` on a random batch [kCount, m, n] for each dtype and case, with a tolerance
// for the dtype.
void ForEachCase(uint32_t seed,
                 const std::function<void(const Case&, const Tensor&, double)>& check) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (const Case& c : kCases) {
      SCOPED_TRACE(DataTypeString(dt) + " " + std::to_string(c.m) + "x" + std::to_string(c.n) +
                   (c.full ? " full" : ""));
      check(c, RandomTensor(dt, {kCount, c.m, c.n}, -2, 2, seed), dt == DT_FLOAT ? 1e-5 : 1e-12);
    }
  }
}

TEST(Qr, FactorsRebuildTheMatrix) {
  ForEachCase(7, [](const Case& c, const Tensor& a, double tol) {
    const Doubles want = ToDoubles(a);
    const auto attrs = ops::Qr::FullMatrices(c.full);
    const Got q =
        Factor([&](const Scope& s, const Output& x) { return ops::Qr(s, x, attrs).q; }, a);
    const Got r =
        Factor([&](const Scope& s, const Output& x) { return ops::Qr(s, x, attrs).r; }, a);
    const int64_t k = c.full ? c.m : std::min(c.m, c.n);
    ASSERT_EQ(q.shape, TensorShape({kCount, c.m, k}));
    ASSERT_EQ(r.shape, TensorShape({kCount, k, c.n}));
    ExpectOrthonormalColumns(q.v, kCount, c.m, k, 4 * tol);
    for (int64_t b = 0; b < kCount; ++b) {
      for (int64_t i = 0; i < c.m; ++i) {
        for (int64_t j = 0; j < c.n; ++j) {
          double sum = 0;
          for (int64_t l = 0; l < k; ++l)
            sum += At(q.v, b, c.m, k, i, l) * At(r.v, b, k, c.n, l, j);
          EXPECT_NEAR(sum, At(want, b, c.m, c.n, i, j), 8 * tol) << b << " " << i << " " << j;
        }
      }
      for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < std::min(i, c.n); ++j) EXPECT_EQ(At(r.v, b, k, c.n, i, j), 0.0);
    }
  });
}

TEST(Qr, EmptyMatricesGiveTheIdentitysColumns) {
  const Tensor a(DT_DOUBLE, TensorShape({2, 3, 0}));
  const Got q = Factor(
      [](const Scope& s, const Output& x) { return ops::Qr(s, x, ops::Qr::FullMatrices(true)).q; },
      a);
  EXPECT_EQ(q.shape, TensorShape({2, 3, 3}));
  EXPECT_EQ(q.v, (Doubles{1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1}));
  const Got r = Factor([](const Scope& s, const Output& x) { return ops::Qr(s, x).r; }, a);
  EXPECT_EQ(r.shape, TensorShape({2, 0, 0}));
  const Got thin_q = Factor([](const Scope& s, const Output& x) { return ops::Qr(s, x).q; }, a);
  EXPECT_EQ(thin_q.shape, TensorShape({2, 3, 0}));
}

TEST(Svd, FactorsRebuildTheMatrix) {
  ForEachCase(11, [](const Case& c, const Tensor& a, double tol) {
    const Doubles want = ToDoubles(a);
    const auto attrs = ops::Svd::FullMatrices(c.full);
    const auto output = [&](int i) {
      return Factor(
          [&](const Scope& s, const Output& x) {
            ops::Svd svd(s, x, attrs);
            return i == 0 ? svd.s : i == 1 ? svd.u : svd.v;
          },
          a);
    };
    const Got sv = output(0), u = output(1), v = output(2);
    const int64_t p = std::min(c.m, c.n);
    const int64_t uc = c.full ? c.m : p, vc = c.full ? c.n : p;
    ASSERT_EQ(sv.shape, TensorShape({kCount, p}));
    ASSERT_EQ(u.shape, TensorShape({kCount, c.m, uc}));
    ASSERT_EQ(v.shape, TensorShape({kCount, c.n, vc}));
    ExpectOrthonormalColumns(u.v, kCount, c.m, uc, 8 * tol);
    ExpectOrthonormalColumns(v.v, kCount, c.n, vc, 8 * tol);
    for (int64_t b = 0; b < kCount; ++b) {
      EXPECT_TRUE(
          std::is_sorted(sv.v.begin() + b * p, sv.v.begin() + (b + 1) * p, std::greater<double>()));
      EXPECT_GE(sv.v[b * p + p - 1], 0.0);
      for (int64_t i = 0; i < c.m; ++i) {
        for (int64_t j = 0; j < c.n; ++j) {
          double sum = 0;
          for (int64_t l = 0; l < p; ++l)
            sum += At(u.v, b, c.m, uc, i, l) * sv.v[b * p + l] * At(v.v, b, c.n, vc, j, l);
          EXPECT_NEAR(sum, At(want, b, c.m, c.n, i, j), 8 * tol) << b << " " << i << " " << j;
        }
      }
    }
    // Without u and v: the same singular values; u and v of shape [0].
    const Got only =
        Factor([](const Scope& s,
                  const Output& x) { return ops::Svd(s, x, ops::Svd::ComputeUv(false)).s; },
               a);
    for (size_t i = 0; i < sv.v.size(); ++i) EXPECT_NEAR(only.v[i], sv.v[i], 4 * tol);
    const Got none =
        Factor([](const Scope& s,
                  const Output& x) { return ops::Svd(s, x, ops::Svd::ComputeUv(false)).u; },
               a);
    EXPECT_EQ(none.shape, TensorShape({0}));
  });
}

TEST(Svd, ByHandEmptyAndNaN) {
  const Got sv = Factor([](const Scope& s, const Output& x) { return ops::Svd(s, x).s; },
                        FromDoubles(DT_DOUBLE, {2, 2}, {0, -2, 3, 0}));
  EXPECT_EQ(sv.v, (Doubles{3, 2}));
  const Got u =
      Factor([](const Scope& s,
                const Output& x) { return ops::Svd(s, x, ops::Svd::FullMatrices(true)).u; },
             Tensor(DT_FLOAT, TensorShape({2, 0})));
  EXPECT_EQ(u.v, (Doubles{1, 0, 0, 1}));
  // A NaN in matrix 1 makes its outputs NaN; matrix 0 is factored.
  const Tensor bad = FromDoubles(DT_FLOAT, {2, 2, 2}, {2, 0, 0, 1, 1, NAN, 0, 1});
  const Got s2 = Factor([](const Scope& s, const Output& x) { return ops::Svd(s, x).s; }, bad);
  ASSERT_EQ(s2.v.size(), 4u);
  EXPECT_EQ(s2.v[0], 2);
  EXPECT_EQ(s2.v[1], 1);
  EXPECT_TRUE(std::isnan(s2.v[2]) && std::isnan(s2.v[3]));
  const Got v2 = Factor([](const Scope& s, const Output& x) { return ops::Svd(s, x).v; }, bad);
  EXPECT_TRUE(std::all_of(v2.v.begin() + 4, v2.v.end(), [](double x) { return std::isnan(x); }));
}

// x[..., :, k:] of a known rank-3 x.
Output LastColumns(const Scope& s, const Output& x, int64_t k) {
  return ops::StridedSlice(s, x, ops::Const(s, {0, 0, static_cast<int32_t>(k)}),
                           ops::Const(s, {0, 0, 0}), ops::Const(s, {1, 1, 1}),
                           ops::StridedSlice::BeginMask(3).EndMask(7));
}

// Well-conditioned matrices: distinct singular values, away from 0.
Tensor Matrices(int64_t m, int64_t n, uint32_t seed) {
  Doubles v = ToDoubles(RandomTensor(DT_DOUBLE, {2, m, n}, -1, 1, seed));
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < std::min(m, n); ++i) v[(b * m + i) * n + i] += 2.0 + i;
  return FromDoubles(DT_DOUBLE, {2, m, n}, v);
}

TEST(Qr, GradientsMatchNumeric) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + (c.full ? " full" : ""));
    if (c.full && c.m - c.n > 1) continue;  // q's last columns: below
    const Tensor a = Matrices(c.m, c.n, 3);
    const auto attrs = ops::Qr::FullMatrices(c.full);
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const Ins& in) { return ops::Qr(s, in[0], attrs).q; }, {a});
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const Ins& in) { return ops::Qr(s, in[0], attrs).r; }, {a});
  }
  // Full q of a 5x2 matrix: its last 3 columns are unique only up to a rotation, so the
  // check goes through their projection, which is unique.
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        const Output q2 = LastColumns(s, ops::Qr(s, in[0], ops::Qr::FullMatrices(true)).q, 2);
        return ops::BatchMatMulV2(s, q2, q2, ops::BatchMatMulV2::AdjY(true));
      },
      {Matrices(5, 2, 4)});
}

TEST(Svd, GradientsMatchNumeric) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + (c.full ? " full" : ""));
    if (c.full && std::abs(c.m - c.n) > 1) continue;  // below
    const Tensor a = Matrices(c.m, c.n, 5);
    const auto attrs = ops::Svd::FullMatrices(c.full);
    // s; u and v squared (each column's sign is Eigen's choice); u v^T of the first columns.
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const Ins& in) { return ops::Svd(s, in[0], attrs).s; }, {a});
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const Ins& in) { return ops::Square(s, ops::Svd(s, in[0], attrs).u); },
        {a});
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const Ins& in) { return ops::Square(s, ops::Svd(s, in[0], attrs).v); },
        {a});
    if (!c.full) {
      ExpectGradientMatchesNumeric(
          [&](const Scope& s, const Ins& in) {
            ops::Svd svd(s, in[0]);
            return ops::BatchMatMulV2(s, svd.u, svd.v, ops::BatchMatMulV2::AdjY(true));
          },
          {a});
    }
  }
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        return ops::Svd(s, in[0], ops::Svd::ComputeUv(false)).s;
      },
      {Matrices(3, 4, 6)});
  // Full v of a 2x5 matrix: its last 3 columns through their projection.
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        const Output v2 = LastColumns(s, ops::Svd(s, in[0], ops::Svd::FullMatrices(true)).v, 2);
        return ops::BatchMatMulV2(s, v2, v2, ops::BatchMatMulV2::AdjY(true));
      },
      {Matrices(2, 5, 7)});
}

const bool kMarked = [] {
  GradTestedOps().insert("Qr");
  GradTestedOps().insert("Svd");
  return true;
}();

}  // namespace qr_svd_test
}  // namespace
}  // namespace rill::testing
