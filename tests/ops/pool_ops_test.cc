// MaxPool3D, AvgPool3D, MaxPoolV2 and their gradients: values against a float64 window
// loop written here, TensorFlow's tie and padding rules, gradients against central
// differences, window inputs that are not constants, and op cases for GPU parity.
#include "rill/ops/pool_ops.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace pool_ops_test {

MarkTested tested({"MaxPool3D", "AvgPool3D", "MaxPool3DGrad", "AvgPool3DGrad", "MaxPoolV2",
                   "MaxPoolGradV2"});

using Ints = std::vector<int64_t>;

// NDHWC pooling by its definition: out[n, o, c] over the input positions of the window
// o * stride - pad_before + [0, k), padding (SAME: half the excess before) skipped.
std::vector<double> Reference(const Tensor& x, Ints k, Ints st, bool same, bool max,
                              Ints* out_dims) {
  const std::vector<double> v = ToDoubles(x);
  const int64_t N = x.dim_size(0), C = x.dim_size(4);
  Ints in(3), out(3), pad(3);
  for (int d = 0; d < 3; ++d) {
    in[d] = x.dim_size(1 + d);
    out[d] = same ? (in[d] + st[d] - 1) / st[d] : (in[d] - k[d]) / st[d] + 1;
    pad[d] = same ? std::max<int64_t>((out[d] - 1) * st[d] + k[d] - in[d], 0) / 2 : 0;
  }
  *out_dims = {N, out[0], out[1], out[2], C};
  std::vector<double> y;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t a = 0; a < out[0]; ++a)
      for (int64_t b = 0; b < out[1]; ++b)
        for (int64_t e = 0; e < out[2]; ++e)
          for (int64_t c = 0; c < C; ++c) {
            double acc = max ? -std::numeric_limits<double>::infinity() : 0;
            int64_t count = 0;
            const int64_t o[3] = {a, b, e};
            for (int64_t i = 0; i < k[0]; ++i)
              for (int64_t j = 0; j < k[1]; ++j)
                for (int64_t l = 0; l < k[2]; ++l) {
                  const int64_t p[3] = {o[0] * st[0] - pad[0] + i, o[1] * st[1] - pad[1] + j,
                                        o[2] * st[2] - pad[2] + l};
                  bool inside = true;
                  for (int d = 0; d < 3; ++d) inside = inside && p[d] >= 0 && p[d] < in[d];
                  if (!inside) continue;
                  const double val =
                      v[(((n * in[0] + p[0]) * in[1] + p[1]) * in[2] + p[2]) * C + c];
                  acc = max ? std::max(acc, val) : acc + val;
                  ++count;
                }
            y.push_back(max ? acc : acc / count);
          }
  return y;
}

struct Window {
  Ints k, st;
  std::string padding;
};
const Window kWindows[] = {{{2, 2, 2}, {2, 2, 2}, "VALID"},
                           {{3, 2, 3}, {1, 2, 2}, "SAME"},
                           {{2, 3, 1}, {2, 1, 3}, "SAME"},
                           {{1, 3, 2}, {1, 1, 1}, "VALID"}};

ops::IntList Ndhwc(const Ints& v) { return {1, v[0], v[1], v[2], 1}; }

TEST(Pool3D, MatchesTheDefinition) {
  for (const Window& w : kWindows) {
    for (bool max : {true, false}) {
      for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
        SCOPED_TRACE(
            absl::StrCat(max ? "MaxPool3D " : "AvgPool3D ", w.padding, " ", DataTypeString(dt)));
        const Tensor x = RandomTensor(dt, {2, 5, 4, 6, 3}, -2, 2, 5);
        auto got = RunOp(
            [&](const Scope& s, const auto& in) -> Output {
              if (max) return ops::MaxPool3D(s, in[0], Ndhwc(w.k), Ndhwc(w.st), w.padding);
              return ops::AvgPool3D(s, in[0], Ndhwc(w.k), Ndhwc(w.st), w.padding);
            },
            {x});
        ASSERT_TRUE(got.ok()) << got.status();
        Ints dims;
        const auto want = Reference(x, w.k, w.st, w.padding == "SAME", max, &dims);
        ExpectTensorNear(*got, dt, TensorShape(dims), want, Tolerance(dt) * 10);
      }
    }
  }
}

TEST(Pool3D, ShapeKnownAtConstruction) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({-1, 7, 5, 4, 3}));
  auto y = ops::AvgPool3D(s, x, {1, 2, 2, 3, 1}, {1, 2, 2, 2, 1}, "SAME");
  EXPECT_EQ(y.output.shape().DebugString(), "[?,4,3,2,3]");
  auto z = ops::MaxPool3D(s, x, {1, 2, 2, 3, 1}, {1, 2, 2, 2, 1}, "VALID");
  EXPECT_EQ(z.output.shape().DebugString(), "[?,3,2,1,3]");
  TF_EXPECT_OK(s.status());
}

// A window of equal values gives its gradient to its first element only (TensorFlow's 2-D
// CPU rule; its 3-D CPU kernel gives it to every element within 1e-5 of the max).
TEST(Pool3D, MaxGradientGoesToTheFirstMaximum) {
  auto got = RunOp(
      [](const Scope& s, const auto& in) -> Output {
        const ops::IntList k = {1, 2, 2, 2, 1};
        return ops::MaxPool3DGrad(s, in[0], ops::MaxPool3D(s, in[0], k, k, "VALID"), in[1], k, k,
                                  "VALID");
      },
      {FromDoubles(DT_FLOAT, {1, 2, 2, 4, 1}, std::vector<double>(16, 1.0)),
       FromDoubles(DT_FLOAT, {1, 1, 1, 2, 1}, {3, 5})});
  ASSERT_TRUE(got.ok()) << got.status();
  std::vector<double> want(16, 0);
  want[0] = 3;  // window 0 covers w in [0, 2), window 1 w in [2, 4)
  want[2] = 5;
  ExpectTensorNear(*got, DT_FLOAT, {1, 2, 2, 4, 1}, want, 0);
}

TEST(Pool3D, GradientsMatchNumeric) {
  for (const Window& w : kWindows) {
    SCOPED_TRACE(w.padding);
    const Tensor x = DistinctTensor({1, 4, 3, 5, 2}, 6);
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const std::vector<Output>& in) {
          return Output(ops::MaxPool3D(s, in[0], Ndhwc(w.k), Ndhwc(w.st), w.padding));
        },
        {x});
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const std::vector<Output>& in) {
          return Output(ops::AvgPool3D(s, in[0], Ndhwc(w.k), Ndhwc(w.st), w.padding));
        },
        {x});
  }
  // AvgPool3DGrad's own gradient: the average again.
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        const ops::IntList k = {1, 2, 3, 2, 1}, st = {1, 1, 2, 2, 1};
        return Output(ops::AvgPool3DGrad(s, ops::Const(s, {1, 3, 4, 3, 2}), in[0], k, st, "SAME"));
      },
      {RandomTensor(DT_DOUBLE, {1, 3, 2, 2, 2}, -1, 1, 7)});
}

TEST(MaxPoolV2, IsMaxPoolWithWindowInputs) {
  const Tensor x = DistinctTensor({2, 5, 6, 3}, 8);
  for (const std::string pad : {"SAME", "VALID"}) {
    auto v1 = RunOp(
        [&](const Scope& s, const auto& in) {
          return ops::MaxPool(s, in[0], {1, 3, 2, 1}, {1, 2, 2, 1}, pad);
        },
        {x});
    // ksize and strides fed: nothing about the output's spatial dims is known until run.
    Scope s = Scope::NewRootScope();
    auto px = ops::Placeholder(s, DT_DOUBLE);
    auto k = ops::Placeholder(s, DT_INT32);
    auto st = ops::Placeholder(s, DT_INT32);
    auto y = ops::MaxPoolV2(s, px, k, st, pad);
    TF_ASSERT_OK(s.status());
    EXPECT_EQ(y.output.shape().DebugString(), "[?,?,?,?]");
    Session session(s);
    std::vector<Tensor> out;
    TF_ASSERT_OK(session.Run({{px, x},
                              {k, test::AsTensor<int32_t>({1, 3, 2, 1})},
                              {st, test::AsTensor<int32_t>({1, 2, 2, 1})}},
                             {y}, &out));
    ASSERT_TRUE(v1.ok()) << v1.status();
    test::ExpectTensorEqual<double>(out[0], *v1);
    // A bad window fed at run time is the kernel's error.
    const absl::Status bad = session.Run({{px, x},
                                          {k, test::AsTensor<int32_t>({1, 0, 2, 1})},
                                          {st, test::AsTensor<int32_t>({1, 2, 2, 1})}},
                                         {y}, &out);
    EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(bad.message().find("ksize"), std::string::npos) << bad;
  }
}

TEST(MaxPoolV2, ConstantWindowGivesTheShapeAndGradient) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({2, 5, 6, 3}));
  auto y = ops::MaxPoolV2(s, x, ops::Const(s, {1, 3, 2, 1}), ops::Const(s, {1, 2, 2, 1}), "SAME");
  EXPECT_EQ(y.output.shape().DebugString(), "[2,3,3,3]");
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(ops::MaxPoolV2(s, in[0], ops::Const(s, {1, 2, 3, 1}),
                                     ops::Const(s, {1, 1, 2, 1}), "VALID"));
      },
      {DistinctTensor({2, 4, 5, 2}, 9)});
}

TEST(Pool3D, OnlyChannelsLastLayouts) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  ops::MaxPool3D(s, x, {1, 1, 2, 2, 2}, {1, 1, 2, 2, 2}, "VALID",
                 ops::MaxPool3D::DataFormat("NCDHW"));
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("NCDHW"), std::string::npos) << s.status();
}

const bool kMarked = [] {
  // The max gradients' own gradients are refused (as MaxPoolGrad's).
  GradTestedOps().insert({"MaxPool3D", "AvgPool3D", "AvgPool3DGrad", "MaxPoolV2"});
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (const Window& w : kWindows) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      const std::string what = absl::StrCat(" ", w.padding, " k", w.k[0], w.k[1], w.k[2], " s",
                                            w.st[0], w.st[1], w.st[2], " ", DataTypeString(dt));
      const Tensor x = RandomTensor(dt, {2, 5, 4, 6, 3}, -2, 2, 10);
      Ints dims;
      Reference(x, w.k, w.st, w.padding == "SAME", true, &dims);
      const Tensor dy = RandomTensor(dt, TensorShape(dims), -1, 1, 11);
      const auto k = Ndhwc(w.k), st = Ndhwc(w.st);
      const std::string pad = w.padding;
      c.push_back(
          {"MaxPool3D" + what,
           [=](const Scope& s, const auto& in) { return ops::MaxPool3D(s, in[0], k, st, pad); },
           {x}});
      c.push_back(
          {"AvgPool3D" + what,
           [=](const Scope& s, const auto& in) { return ops::AvgPool3D(s, in[0], k, st, pad); },
           {x}});
      c.push_back({"MaxPool3DGrad" + what,
                   [=](const Scope& s, const auto& in) {
                     return ops::MaxPool3DGrad(s, in[0], ops::MaxPool3D(s, in[0], k, st, pad),
                                               in[1], k, st, pad);
                   },
                   {x, dy}});
      c.push_back(
          {"AvgPool3DGrad" + what,
           [=](const Scope& s, const auto& in) {
             return ops::AvgPool3DGrad(s, ops::Const(s, {2, 5, 4, 6, 3}), in[0], k, st, pad);
           },
           {dy}});
    }
  }
  const Tensor x = RandomTensor(DT_FLOAT, {2, 7, 6, 4}, -2, 2, 12);
  const Tensor dy = RandomTensor(DT_FLOAT, {2, 4, 3, 4}, -1, 1, 13);
  c.push_back({"MaxPoolV2",
               [](const Scope& s, const auto& in) {
                 return ops::MaxPoolV2(s, in[0], in[1], in[2], "SAME");
               },
               {x, test::AsTensor<int32_t>({1, 3, 2, 1}), test::AsTensor<int32_t>({1, 2, 2, 1})}});
  c.push_back(
      {"MaxPoolGradV2",
       [](const Scope& s, const auto& in) {
         return ops::internal::MaxPoolGradV2(
             s, in[0], ops::MaxPoolV2(s, in[0], in[2], in[3], "SAME"), in[1], in[2], in[3], "SAME");
       },
       {x, dy, test::AsTensor<int32_t>({1, 3, 2, 1}), test::AsTensor<int32_t>({1, 2, 2, 1})}});
  return c;
}

}  // namespace pool_ops_test
}  // namespace

RILL_OP_CASES(pool3d, pool_ops_test::Cases);

}  // namespace rill::testing
