// The band diagonal ops (MatrixDiagV2/V3, MatrixDiagPartV2/V3, MatrixSetDiagV2/V3): values
// by hand in each alignment, the size inference of MatrixDiag, round trips against a mask
// of the band over random matrices in several dtypes, and numeric gradients.
#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/diag_band_ops.h"
#include "rill/ops/grad_util.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace diag_band_test {

MarkTested tested({"MatrixDiagV2", "MatrixDiagV3", "MatrixDiagPartV2", "MatrixDiagPartV3",
                   "MatrixSetDiagV2", "MatrixSetDiagV3"});

using Xs = std::vector<Output>;

Tensor Run1(const std::function<Output(const Scope&)>& build) {
  Scope s = Scope::NewRootScope();
  Output y = build(s);
  EXPECT_TRUE(s.ok()) << s.status();
  Session session(s);
  std::vector<Tensor> out;
  absl::Status st = session.Run({y}, &out);
  EXPECT_TRUE(st.ok()) << st;
  return st.ok() ? out[0] : Tensor();
}

Tensor Ints(std::vector<int64_t> shape, std::vector<int32_t> v) {
  return test::AsTensor<int32_t>(v, TensorShape(shape));
}

// A 3x3 tridiagonal band, packed as each alignment packs it (0 where a row is padded).
TEST(MatrixDiagBand, TridiagonalInEachAlignment) {
  const Tensor want = Ints({3, 3}, {1, 8, 0, 4, 2, 9, 0, 5, 3});
  const std::vector<std::pair<const char*, std::vector<int32_t>>> packed = {
      {"RIGHT_LEFT", {0, 8, 9, 1, 2, 3, 4, 5, 0}},
      {"LEFT_RIGHT", {8, 9, 0, 1, 2, 3, 0, 4, 5}},
      {"LEFT_LEFT", {8, 9, 0, 1, 2, 3, 4, 5, 0}},
      {"RIGHT_RIGHT", {0, 8, 9, 1, 2, 3, 0, 4, 5}}};
  for (const auto& [align, values] : packed) {
    SCOPED_TRACE(align);
    const Tensor diag = Ints({3, 3}, values);
    const auto a = ops::MatrixDiagV3::Align(align);
    test::ExpectTensorEqual<int32_t>(Run1([&](const Scope& s) {
                                       return ops::MatrixDiagV3(s, diag, {-1, 1}, -1, -1, 0, a);
                                     }),
                                     want);
    test::ExpectTensorEqual<int32_t>(Run1([&](const Scope& s) {
                                       return ops::MatrixDiagPartV3(s, want, {-1, 1}, 0, a);
                                     }),
                                     diag);
    test::ExpectTensorEqual<int32_t>(Run1([&](const Scope& s) {
                                       return ops::MatrixSetDiagV3(
                                           s, Ints({3, 3}, std::vector<int32_t>(9, 7)), diag,
                                           {-1, 1}, a);
                                     }),
                                     Ints({3, 3}, {1, 8, 7, 4, 2, 9, 7, 5, 3}));
  }
  // V2 packs as LEFT_LEFT.
  const Tensor left = Ints({3, 3}, {8, 9, 0, 1, 2, 3, 4, 5, 0});
  test::ExpectTensorEqual<int32_t>(Run1([&](const Scope& s) {
                                     return ops::MatrixDiagV2(s, left, {-1, 1}, 3, 3, 0);
                                   }),
                                   want);
  test::ExpectTensorEqual<int32_t>(Run1([&](const Scope& s) {
                                     return ops::MatrixDiagPartV2(s, want, {-1, 1}, 0);
                                   }),
                                   left);
}

// A 3x4 matrix's diagonals -1..2: the 2nd superdiagonal and the subdiagonal are short.
TEST(MatrixDiagBand, PartOfAWideMatrixPadsShortDiagonals) {
  const Tensor m = Ints({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3});
  test::ExpectTensorEqual<int32_t>(Run1([&](const Scope& s) {
                                     return ops::MatrixDiagPartV3(s, m, {-1, 2}, 9);
                                   }),
                                   Ints({4, 3}, {9, 3, 8, 2, 7, 3, 1, 6, 2, 5, 1, 9}));
  test::ExpectTensorEqual<int32_t>(
      Run1([&](const Scope& s) {
        return ops::MatrixDiagPartV3(s, m, {-1, 2}, 9, ops::MatrixDiagPartV3::Align("LEFT_RIGHT"));
      }),
      Ints({4, 3}, {3, 8, 9, 2, 7, 3, 1, 6, 2, 9, 5, 1}));
  // One diagonal packs as a vector; a batch keeps its dims.
  test::ExpectTensorEqual<int32_t>(
      Run1([&](const Scope& s) { return ops::MatrixDiagPartV3(s, m, 1, 0); }),
      Ints({3}, {2, 7, 3}));
}

TEST(MatrixDiagBand, MatrixDiagInfersTheSizeAsTensorFlowDoes) {
  const Tensor d = Ints({2, 2}, {1, 2, 3, 4});  // a batch of two diagonals of length 2
  // k = 1, no size given: square, 3x3, padding everywhere else.
  test::ExpectTensorEqual<int32_t>(
      Run1([&](const Scope& s) { return ops::MatrixDiagV3(s, d, 1, -1, -1, 9); }),
      Ints({2, 3, 3}, {9, 1, 9, 9, 9, 2, 9, 9, 9, 9, 3, 9, 9, 9, 4, 9, 9, 9}));
  // Three rows asked for: the columns are the least that hold the diagonal.
  test::ExpectTensorEqual<int32_t>(
      Run1([&](const Scope& s) { return ops::MatrixDiagV3(s, d, 0, 3, -1, 0); }),
      Ints({2, 3, 2}, {1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0}));
  // A subdiagonal in a 2x3 matrix? Too few rows: refused, naming the least.
  Scope s = Scope::NewRootScope();
  ops::MatrixDiagV3(s, d, -1, 2, 3, 0);
  EXPECT_NE(s.status().message().find("at least 3"), std::string::npos) << s.status();
}

// The band of x by definition: x where k0 <= col - row <= k1, `pad` elsewhere.
Tensor Masked(const Tensor& x, int k0, int k1, double pad) {
  std::vector<double> v = ToDoubles(x);
  const int64_t rows = x.dim_size(x.dims() - 2), cols = x.dim_size(x.dims() - 1);
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    const int64_t d = i % cols - (i / cols) % rows;
    if (d < k0 || d > k1) v[static_cast<size_t>(i)] = pad;
  }
  return FromDoubles(x.dtype(), x.shape(), v);
}

TEST(MatrixDiagBand, RoundTripsMatchTheBandInEveryDtype) {
  struct Case {
    std::vector<int64_t> shape;
    int k0, k1;
  };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    for (const Case& c : {Case{{2, 4, 5}, -2, 1}, Case{{3, 2}, 0, 1}, Case{{1, 5, 3}, -4, -1},
                          Case{{2, 3, 3}, 0, 0}, Case{{4, 6}, 2, 5}}) {
      for (const char* align : {"RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"}) {
        SCOPED_TRACE(::testing::Message()
                     << DataTypeString(dt) << " k=[" << c.k0 << ", " << c.k1 << "] " << align);
        const Tensor x = RandomTensor(dt, TensorShape(c.shape), 1, 50, c.k0 + 10 * c.k1 + 7);
        const int64_t rows = c.shape[c.shape.size() - 2], cols = c.shape.back();
        Scope s = Scope::NewRootScope();
        const Output k = ops::Const(s, {c.k0, c.k1});
        const Output pad = ops::Const(s, FromDoubles(dt, {}, {3}));
        const auto a = ops::MatrixDiagPartV3::Align(align);
        auto part = ops::MatrixDiagPartV3(s, x, k, pad, a);
        auto back = ops::MatrixSetDiagV3(s, x, part, k, a);
        auto band =
            ops::MatrixDiagV3(s, part, k, static_cast<int>(rows), static_cast<int>(cols), pad, a);
        ASSERT_TRUE(s.ok()) << s.status();
        std::vector<Tensor> out;
        ASSERT_TRUE(Session(s).Run({back, band}, &out).ok());
        test::ExpectEqual(out[0], x);
        test::ExpectEqual(out[1], Masked(x, c.k0, c.k1, 3));
      }
    }
  }
}

TEST(MatrixDiagBand, GradientsMatchNumeric) {
  const Tensor x = RandomTensor(DT_DOUBLE, {2, 3, 4}, -1, 1, 3);
  const Tensor packed = RandomTensor(DT_DOUBLE, {2, 3, 3}, -1, 1, 4);
  for (const char* align : {"RIGHT_LEFT", "LEFT_RIGHT"}) {
    SCOPED_TRACE(align);
    const auto a = ops::MatrixDiagV3::Align(align);
    auto k = [](const Scope& s) { return ops::Const(s, {-1, 1}); };
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const Xs& in) -> Output {
          return ops::MatrixDiagPartV3(s, in[0], k(s), ops::grad::Scalar(s, 0, in[0].type()), a);
        },
        {x});
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const Xs& in) -> Output {
          return ops::MatrixDiagV3(s, in[0], k(s), 3, 4, ops::grad::Scalar(s, 0, in[0].type()), a);
        },
        {packed});
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const Xs& in) -> Output {
          return ops::MatrixSetDiagV3(s, in[0], in[1], k(s), a);
        },
        {x, packed});
  }
  ExpectGradientMatchesNumeric(
      [&](const Scope& s, const Xs& in) -> Output {
        return ops::MatrixSetDiagV2(s, in[0], in[1], ops::Const(s, {-1, 1}));
      },
      {x, packed});
  ExpectGradientMatchesNumeric(
      [&](const Scope& s, const Xs& in) -> Output {
        return ops::MatrixDiagV2(s,
                                 ops::MatrixDiagPartV2(s, in[0], ops::Const(s, {0, 2}),
                                                       ops::grad::Scalar(s, 0, in[0].type())),
                                 ops::Const(s, {0, 2}), 3, 4,
                                 ops::grad::Scalar(s, 0, in[0].type()));
      },
      {x});
}

const bool kMarked = [] {
  for (const char* op : {"MatrixDiagV2", "MatrixDiagV3", "MatrixDiagPartV2", "MatrixDiagPartV3",
                         "MatrixSetDiagV2", "MatrixSetDiagV3"}) {
    GradTestedOps().insert(op);
  }
  return true;
}();

}  // namespace diag_band_test
}  // namespace
}  // namespace rill::testing
