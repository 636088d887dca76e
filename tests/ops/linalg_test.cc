// The square-matrix ops: determinants, inverses and solutions checked by hand and by their
// definitions (A inv(A) = I, A X = B) in float and double, the log-space determinant that
// does not overflow, empty and singular matrices, and shapes refused with what they lack;
// Cholesky factors (L L^T = A) and triangular solves in their four forms, the triangle that
// is not read left unread, matrices that are not positive definite or have a zero on the
// diagonal refused naming which; their op cases (every device, against float64) and
// gradients against central differences.
#include <cmath>
#include <limits>

#include "gradient_checker.h"
#include "rill/ops/linalg_ops.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace linalg_test {

MarkTested tested({"MatrixDeterminant", "LogMatrixDeterminant", "MatrixInverse", "MatrixSolve",
                   "Cholesky", "MatrixTriangularSolve"});

using Ins = std::vector<Output>;

// A batch of `count` random n x n matrices made well conditioned by a heavy diagonal.
Tensor WellConditioned(DataType dt, int64_t count, int64_t n, uint32_t seed) {
  Tensor t = RandomTensor(DT_DOUBLE, {count, n, n}, -1, 1, seed);
  std::vector<double> v = ToDoubles(t);
  for (int64_t b = 0; b < count; ++b) {
    for (int64_t i = 0; i < n; ++i) v[(b * n + i) * n + i] += (i % 2 == 0 ? 1 : -1) * n;
  }
  return FromDoubles(dt, {count, n, n}, v);
}

// Row-major product of matrix `i` of a [count, n, k] and b [count, k, m] batch.
std::vector<double> Product(const std::vector<double>& a, const std::vector<double>& b,
                            int64_t count, int64_t n, int64_t k, int64_t m) {
  std::vector<double> c(count * n * m, 0.0);
  for (int64_t t = 0; t < count; ++t)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < m; ++j)
        for (int64_t l = 0; l < k; ++l)
          c[(t * n + i) * m + j] += a[(t * n + i) * k + l] * b[(t * k + l) * m + j];
  return c;
}

TEST(LinalgOps, DeterminantsByHand) {
  // [[1, 2], [3, 4]]: -2; a singular matrix: 0; the identity: 1; [[0, 1], [1, 0]]: -1.
  const Tensor a =
      FromDoubles(DT_DOUBLE, {4, 2, 2}, {1, 2, 3, 4, 1, 2, 2, 4, 1, 0, 0, 1, 0, 1, 1, 0});
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    Tensor x = FromDoubles(dt, a.shape(), ToDoubles(a));
    auto det =
        RunOp([](const Scope& s, const Ins& in) { return ops::MatrixDeterminant(s, in[0]); }, {x});
    ASSERT_TRUE(det.ok()) << det.status();
    ExpectTensorNear(*det, dt, {4}, {-2, 0, 1, -1}, 1e-6);
    auto sign = RunOp(
        [](const Scope& s, const Ins& in) { return ops::LogMatrixDeterminant(s, in[0]).sign; },
        {x});
    auto log_abs =
        RunOp([](const Scope& s,
                 const Ins& in) { return ops::LogMatrixDeterminant(s, in[0]).log_abs_determinant; },
              {x});
    ASSERT_TRUE(sign.ok() && log_abs.ok());
    ExpectTensorNear(*sign, dt, {4}, {-1, 0, 1, -1}, 0);
    const std::vector<double> logs = ToDoubles(*log_abs);
    EXPECT_NEAR(logs[0], std::log(2.0), 1e-6);
    EXPECT_EQ(logs[1], -std::numeric_limits<double>::infinity());
    EXPECT_EQ(logs[2], 0);
    EXPECT_EQ(logs[3], 0);
  }
}

// diag(1e30, 1e30, 1e-30) in float: the determinant 1e30 is representable, the running
// product of the pivots (1e60) is not.
TEST(LinalgOps, TheDeterminantDoesNotOverflowOnTheWay) {
  const Tensor x = FromDoubles(DT_FLOAT, {3, 3}, {1e30, 0, 0, 0, 1e30, 0, 0, 0, 1e-30});
  auto det =
      RunOp([](const Scope& s, const Ins& in) { return ops::MatrixDeterminant(s, in[0]); }, {x});
  ASSERT_TRUE(det.ok()) << det.status();
  EXPECT_NEAR(det->scalar<float>()() / 1e30f, 1.f, 1e-5f);
}

TEST(LinalgOps, InversesAndSolutionsMeetTheirDefinitions) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (bool adjoint : {false, true}) {
      SCOPED_TRACE(DataTypeString(dt) + (adjoint ? " adjoint" : ""));
      const Tensor a = WellConditioned(dt, 3, 5, 7);
      const Tensor b = RandomTensor(dt, {3, 5, 2}, -1, 1, 8);
      auto inv = RunOp(
          [&](const Scope& s, const Ins& in) {
            return ops::MatrixInverse(s, in[0], ops::MatrixInverse::Adjoint(adjoint));
          },
          {a});
      auto x = RunOp(
          [&](const Scope& s, const Ins& in) {
            return ops::MatrixSolve(s, in[0], in[1], ops::MatrixSolve::Adjoint(adjoint));
          },
          {a, b});
      ASSERT_TRUE(inv.ok()) << inv.status();
      ASSERT_TRUE(x.ok()) << x.status();
      // op(A) inv = I and op(A) X = B, with op the transpose when adjoint.
      std::vector<double> av = ToDoubles(a);
      if (adjoint) {
        for (int64_t t = 0; t < 3; ++t)
          for (int64_t i = 0; i < 5; ++i)
            for (int64_t j = 0; j < i; ++j)
              std::swap(av[(t * 5 + i) * 5 + j], av[(t * 5 + j) * 5 + i]);
      }
      std::vector<double> eye(3 * 25, 0.0);
      for (int64_t t = 0; t < 3; ++t)
        for (int64_t i = 0; i < 5; ++i) eye[(t * 5 + i) * 5 + i] = 1;
      ExpectTensorNear(FromDoubles(DT_DOUBLE, {3, 5, 5}, Product(av, ToDoubles(*inv), 3, 5, 5, 5)),
                       DT_DOUBLE, {3, 5, 5}, eye, 1e-5);
      ExpectTensorNear(FromDoubles(DT_DOUBLE, {3, 5, 2}, Product(av, ToDoubles(*x), 3, 5, 5, 2)),
                       DT_DOUBLE, {3, 5, 2}, ToDoubles(b), 1e-5);
    }
  }
}

TEST(LinalgOps, EmptyMatricesAndBatches) {
  // 0 x 0 matrices: determinant 1, empty inverse and solution; an empty batch: empty results.
  const Tensor empty = FromDoubles(DT_FLOAT, {2, 0, 0}, {});
  auto det = RunOp([](const Scope& s, const Ins& in) { return ops::MatrixDeterminant(s, in[0]); },
                   {empty});
  ASSERT_TRUE(det.ok()) << det.status();
  ExpectTensorNear(*det, DT_FLOAT, {2}, {1, 1}, 0);
  auto inv =
      RunOp([](const Scope& s, const Ins& in) { return ops::MatrixInverse(s, in[0]); }, {empty});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->shape(), TensorShape({2, 0, 0}));
  auto x = RunOp([](const Scope& s, const Ins& in) { return ops::MatrixSolve(s, in[0], in[1]); },
                 {FromDoubles(DT_DOUBLE, {0, 3, 3}, {}), FromDoubles(DT_DOUBLE, {0, 3, 4}, {})});
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_EQ(x->shape(), TensorShape({0, 3, 4}));
}

TEST(LinalgOps, SingularMatricesAreRefusedNamingTheMatrix) {
  const Tensor a = FromDoubles(DT_DOUBLE, {2, 2, 2}, {1, 0, 0, 1, 1, 2, 2, 4});
  auto inv = RunOp([](const Scope& s, const Ins& in) { return ops::MatrixInverse(s, in[0]); }, {a});
  ASSERT_FALSE(inv.ok());
  EXPECT_EQ(inv.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(inv.status().message().find("matrix 1 of the input of shape [2,2,2] is not invertible"),
            std::string::npos)
      << inv.status();
  auto x = RunOp([](const Scope& s, const Ins& in) { return ops::MatrixSolve(s, in[0], in[1]); },
                 {a, FromDoubles(DT_DOUBLE, {2, 2, 1}, {1, 1, 1, 1})});
  ASSERT_FALSE(x.ok());
  EXPECT_NE(x.status().message().find("not invertible"), std::string::npos) << x.status();
  // NaN is no pivot either.
  const Tensor nan = FromDoubles(DT_FLOAT, {2, 2}, {std::nan(""), 1, 1, 1});
  EXPECT_FALSE(
      RunOp([](const Scope& s, const Ins& in) { return ops::MatrixInverse(s, in[0]); }, {nan})
          .ok());
  auto det =
      RunOp([](const Scope& s, const Ins& in) { return ops::MatrixDeterminant(s, in[0]); }, {nan});
  ASSERT_TRUE(det.ok());
  EXPECT_TRUE(std::isnan(det->scalar<float>()()));
}

// Shapes known when the graph is built: the outputs' shapes, and what does not fit refused
// there.
TEST(LinalgOps, ShapeFunctions) {
  Scope root = Scope::NewRootScope();
  auto m = ops::Placeholder(root, DT_FLOAT, ops::Placeholder::Shape({4, -1, 3}));
  auto rhs = ops::Placeholder(root, DT_FLOAT, ops::Placeholder::Shape({-1, 3, 7}));
  EXPECT_EQ(Output(ops::MatrixDeterminant(root, m)).shape().DebugString(), "[4]");
  EXPECT_EQ(Output(ops::MatrixInverse(root, m)).shape().DebugString(), "[4,3,3]");
  EXPECT_EQ(Output(ops::MatrixSolve(root, m, rhs)).shape().DebugString(), "[4,3,7]");
  ASSERT_TRUE(root.status().ok()) << root.status();

  Scope bad = Scope::NewRootScope();
  ops::MatrixInverse(bad, ops::Const(bad, FromDoubles(DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6})));
  EXPECT_NE(bad.status().message().find("square matrices, got shape [2,3]"), std::string::npos)
      << bad.status();
  Scope bad_rhs = Scope::NewRootScope();
  ops::MatrixSolve(bad_rhs, ops::Const(bad_rhs, FromDoubles(DT_FLOAT, {2, 2}, {1, 0, 0, 1})),
                   ops::Const(bad_rhs, FromDoubles(DT_FLOAT, {3, 1}, {1, 2, 3})));
  EXPECT_NE(bad_rhs.status().message().find("rhs of shape [3,1] does not fit"), std::string::npos)
      << bad_rhs.status();
}

// `count` symmetric positive definite n x n matrices: B B^T + n I for random B.
Tensor PositiveDefinite(DataType dt, int64_t count, int64_t n, uint32_t seed) {
  const std::vector<double> b = ToDoubles(RandomTensor(DT_DOUBLE, {count, n, n}, -1, 1, seed));
  std::vector<double> a(count * n * n, 0.0);
  for (int64_t t = 0; t < count; ++t)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = i == j ? static_cast<double>(n) : 0.0;
        for (int64_t k = 0; k < n; ++k) sum += b[(t * n + i) * n + k] * b[(t * n + j) * n + k];
        a[(t * n + i) * n + j] = sum;
      }
  return FromDoubles(dt, {count, n, n}, a);
}

TEST(Cholesky, FactorsByHandFromTheLowerTriangleOnly) {
  // [[4, 12, -16], [12, 37, -43], [-16, -43, 98]] = L L^T with L [[2,0,0],[6,1,0],[-8,5,3]];
  // the second matrix has nonsense above its diagonal, which is not read.
  const std::vector<double> a = {4, 12, -16, 12, 37, -43, -16, -43, 98,
                                 4, 99, 99,  12, 37, 99,  -16, -43, 98};
  const std::vector<double> l = {2, 0, 0, 6, 1, 0, -8, 5, 3};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    auto got = RunOp([](const Scope& s, const Ins& in) { return ops::Cholesky(s, in[0]); },
                     {FromDoubles(dt, {2, 3, 3}, a)});
    ASSERT_TRUE(got.ok()) << got.status();
    std::vector<double> want = l;
    want.insert(want.end(), l.begin(), l.end());
    ExpectTensorNear(*got, dt, {2, 3, 3}, want, 1e-5);
  }
}

TEST(Cholesky, TheFactorTimesItsTransposeIsTheInput) {
  const Tensor a = PositiveDefinite(DT_DOUBLE, 3, 5, 31);
  auto l = RunOp([](const Scope& s, const Ins& in) { return ops::Cholesky(s, in[0]); }, {a});
  ASSERT_TRUE(l.ok()) << l.status();
  const std::vector<double> lv = ToDoubles(*l), av = ToDoubles(a);
  for (int64_t t = 0; t < 3; ++t)
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < 5; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < 5; ++k) sum += lv[(t * 5 + i) * 5 + k] * lv[(t * 5 + j) * 5 + k];
        EXPECT_NEAR(sum, av[(t * 5 + i) * 5 + j], 1e-10) << t << " " << i << " " << j;
        if (j > i) {
          EXPECT_EQ(lv[(t * 5 + i) * 5 + j], 0.0);
        }
      }
}

TEST(Cholesky, AMatrixThatIsNotPositiveDefiniteIsNamed) {
  const Tensor a = FromDoubles(DT_FLOAT, {2, 2, 2}, {1, 0, 0, 1, 1, 2, 2, 1});
  auto got = RunOp([](const Scope& s, const Ins& in) { return ops::Cholesky(s, in[0]); }, {a});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(got.status().message().find("matrix 1 of the input of shape [2,2,2] is not positive"),
            std::string::npos)
      << got.status();
}

TEST(MatrixTriangularSolve, ByHandAndByDefinitionInTheFourForms) {
  auto solve = [](bool lower, bool adjoint) {
    return [lower, adjoint](const Scope& s, const Ins& in) {
      return ops::MatrixTriangularSolve(s, in[0], in[1],
                                        ops::MatrixTriangularSolve::Lower(lower).Adjoint(adjoint));
    };
  };
  // [[2, 0], [3, 1]] x = [2, 5]: x = [1, 2]; the 7 above the diagonal is not read.
  auto x = RunOp(solve(true, false), {FromDoubles(DT_FLOAT, {2, 2}, {2, 7, 3, 1}),
                                      FromDoubles(DT_FLOAT, {2, 1}, {2, 5})});
  ASSERT_TRUE(x.ok()) << x.status();
  ExpectTensorNear(*x, DT_FLOAT, {2, 1}, {1, 2}, 1e-6);
  const int64_t n = 4, k = 3;
  const Tensor m = WellConditioned(DT_DOUBLE, 2, n, 41),
               b = RandomTensor(DT_DOUBLE, {2, n, k}, -1, 1, 42);
  const std::vector<double> mv = ToDoubles(m), bv = ToDoubles(b);
  for (bool lower : {true, false}) {
    for (bool adjoint : {false, true}) {
      SCOPED_TRACE(std::string(lower ? "lower" : "upper") + (adjoint ? " adjoint" : ""));
      auto got = RunOp(solve(lower, adjoint), {m, b});
      ASSERT_TRUE(got.ok()) << got.status();
      const std::vector<double> xv = ToDoubles(*got);
      for (int64_t t = 0; t < 2; ++t)
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < k; ++j) {
            double sum = 0;
            for (int64_t l = 0; l < n; ++l) {
              const int64_t r = adjoint ? l : i, c = adjoint ? i : l;  // op(M)(i, l) = M(r, c)
              const bool read = lower ? c <= r : c >= r;
              if (read) sum += mv[(t * n + r) * n + c] * xv[(t * n + l) * k + j];
            }
            EXPECT_NEAR(sum, bv[(t * n + i) * k + j], 1e-12);
          }
    }
  }
}

TEST(MatrixTriangularSolve, AZeroOnTheDiagonalAndABadRhsAreRefused) {
  auto got = RunOp(
      [](const Scope& s, const Ins& in) { return ops::MatrixTriangularSolve(s, in[0], in[1]); },
      {FromDoubles(DT_FLOAT, {2, 2, 2}, {1, 0, 0, 1, 1, 0, 5, 0}),
       RandomTensor(DT_FLOAT, {2, 2, 1}, -1, 1, 5)});
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("matrix 1 of the input of shape [2,2,2] is not invertible"),
            std::string::npos)
      << got.status();
  Scope bad = Scope::NewRootScope();
  ops::MatrixTriangularSolve(bad, ops::Const(bad, FromDoubles(DT_FLOAT, {2, 2}, {1, 0, 0, 1})),
                             ops::Const(bad, FromDoubles(DT_FLOAT, {3, 1}, {1, 2, 3})));
  EXPECT_NE(bad.status().message().find("rhs of shape [3,1] does not fit"), std::string::npos)
      << bad.status();
}

std::vector<OpCase> Linalg() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    const Tensor a = WellConditioned(dt, 4, 6, 11), b = RandomTensor(dt, {4, 6, 3}, -1, 1, 12);
    const std::string t = std::string(" ") + DataTypeString(dt);
    c.push_back({"MatrixDeterminant" + t,
                 [](const Scope& s, const Ins& in) { return ops::MatrixDeterminant(s, in[0]); },
                 {a}});
    c.push_back({"LogMatrixDeterminant" + t,
                 [](const Scope& s, const Ins& in) {
                   return ops::LogMatrixDeterminant(s, in[0]).log_abs_determinant;
                 },
                 {a}});
    for (bool adjoint : {false, true}) {
      const std::string adj = adjoint ? " adjoint" : "";
      c.push_back({"MatrixInverse" + adj + t,
                   [adjoint](const Scope& s, const Ins& in) {
                     return ops::MatrixInverse(s, in[0], ops::MatrixInverse::Adjoint(adjoint));
                   },
                   {a}});
      c.push_back({"MatrixSolve" + adj + t,
                   [adjoint](const Scope& s, const Ins& in) {
                     return ops::MatrixSolve(s, in[0], in[1], ops::MatrixSolve::Adjoint(adjoint));
                   },
                   {a, b}});
      for (bool lower : {true, false}) {
        c.push_back({std::string("MatrixTriangularSolve") + (lower ? " lower" : " upper") + adj + t,
                     [lower, adjoint](const Scope& s, const Ins& in) {
                       return ops::MatrixTriangularSolve(
                           s, in[0], in[1],
                           ops::MatrixTriangularSolve::Lower(lower).Adjoint(adjoint));
                     },
                     {a, b}});
      }
    }
    c.push_back({"Cholesky" + t,
                 [](const Scope& s, const Ins& in) { return ops::Cholesky(s, in[0]); },
                 {PositiveDefinite(dt, 3, 6, 51)}});
  }
  return c;
}

// Gradients against central differences, on well-conditioned matrices (a determinant's
// gradient needs the inverse).
struct GradCase {
  std::string op;
  GradBuildFn build;
  std::vector<Tensor> inputs;
};

std::vector<GradCase> GradCases() {
  const Tensor a = WellConditioned(DT_DOUBLE, 2, 3, 21),
               b = RandomTensor(DT_DOUBLE, {2, 3, 2}, -1, 1, 22);
  std::vector<GradCase> c = {
      {"MatrixDeterminant",
       [](const Scope& s, const Ins& in) { return Output(ops::MatrixDeterminant(s, in[0])); },
       {a}},
      {"LogMatrixDeterminant",
       [](const Scope& s, const Ins& in) {
         return ops::LogMatrixDeterminant(s, in[0]).log_abs_determinant;
       },
       {a}},
  };
  for (bool adjoint : {false, true}) {
    c.push_back({"MatrixInverse",
                 [adjoint](const Scope& s, const Ins& in) {
                   return Output(
                       ops::MatrixInverse(s, in[0], ops::MatrixInverse::Adjoint(adjoint)));
                 },
                 {a}});
    c.push_back({"MatrixSolve",
                 [adjoint](const Scope& s, const Ins& in) {
                   return Output(
                       ops::MatrixSolve(s, in[0], in[1], ops::MatrixSolve::Adjoint(adjoint)));
                 },
                 {a, b}});
    for (bool lower : {true, false}) {
      c.push_back(
          {"MatrixTriangularSolve",
           [lower, adjoint](const Scope& s, const Ins& in) {
             return Output(ops::MatrixTriangularSolve(
                 s, in[0], in[1], ops::MatrixTriangularSolve::Lower(lower).Adjoint(adjoint)));
           },
           {a, b}});
    }
  }
  // Cholesky reads one triangle of a symmetric input, and its gradient (TensorFlow's) is the
  // symmetric one: checked, as TensorFlow checks it, through an input made symmetric,
  // x x^T + 3 I.
  c.push_back({"Cholesky",
               [](const Scope& s, const Ins& in) {
                 Output sym = ops::BatchMatMulV2(s, in[0], in[0], ops::BatchMatMulV2::AdjY(true));
                 Output eye = ops::Cast(
                     s, ops::Const(s, FromDoubles(DT_DOUBLE, {3, 3}, {3, 0, 0, 0, 3, 0, 0, 0, 3})),
                     in[0].type());
                 return Output(ops::Cholesky(s, ops::Add(s, sym, eye)));
               },
               {RandomTensor(DT_DOUBLE, {2, 3, 3}, -1, 1, 61)}});
  return c;
}

class LinalgGradient : public ::testing::TestWithParam<int> {};

TEST_P(LinalgGradient, SymbolicMatchesNumeric) {
  static const std::vector<GradCase> cases = GradCases();
  const GradCase& c = cases[GetParam()];
  SCOPED_TRACE(c.op);
  ExpectGradientMatchesNumeric(c.build, c.inputs);
}
INSTANTIATE_TEST_SUITE_P(Linalg, LinalgGradient,
                         ::testing::Range(0, static_cast<int>(GradCases().size())));

const bool kMarked = [] {
  for (const GradCase& c : GradCases()) GradTestedOps().insert(c.op);
  return true;
}();

}  // namespace linalg_test
}  // namespace

RILL_OP_CASES(linalg, linalg_test::Linalg);

}  // namespace rill::testing
