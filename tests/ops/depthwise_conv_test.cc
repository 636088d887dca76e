// DepthwiseConv2dNative and its gradients against direct loops written here: channel
// multipliers 1 to 3, SAME and VALID, strides, a VALID window that leaves the last row
// unused; float (oneDNN) against double (the shared row functions); the gradients through
// the adjoint identities; a constant filter (reordered once per kernel) over several runs.
#include <cmath>

#include "rill/ops/conv_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace depthwise_conv_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
                   "DepthwiseConv2dNativeBackpropFilter"});

struct Geo {
  int n, h, w, c, m, kh, kw, s;
  bool same;
  int oc() const { return c * m; }
  int oh() const { return same ? (h + s - 1) / s : (h - kh) / s + 1; }
  int ow() const { return same ? (w + s - 1) / s : (w - kw) / s + 1; }
  int pt() const { return same ? std::max((oh() - 1) * s + kh - h, 0) / 2 : 0; }
  int pl() const { return same ? std::max((ow() - 1) * s + kw - w, 0) / 2 : 0; }
  IntList strides() const { return {1, s, s, 1}; }
  const char* padding() const { return same ? "SAME" : "VALID"; }
};

const Geo kGeos[] = {{2, 5, 5, 3, 1, 3, 3, 1, true},  {1, 8, 6, 2, 2, 3, 2, 2, false},
                     {1, 4, 4, 4, 3, 5, 5, 1, true},  {3, 6, 6, 16, 1, 3, 3, 2, true},
                     {1, 9, 7, 5, 2, 3, 3, 2, false}, {2, 12, 10, 24, 1, 5, 5, 1, true}};

std::vector<double> Depthwise(const Geo& g, const std::vector<double>& x,
                              const std::vector<double>& f) {
  std::vector<double> y;
  for (int n = 0; n < g.n; ++n)
    for (int i = 0; i < g.oh(); ++i)
      for (int j = 0; j < g.ow(); ++j)
        for (int o = 0; o < g.oc(); ++o) {
          const int ch = o / g.m;
          double acc = 0;
          for (int a = 0; a < g.kh; ++a)
            for (int b = 0; b < g.kw; ++b) {
              const int ih = i * g.s - g.pt() + a, iw = j * g.s - g.pl() + b;
              if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w) continue;
              acc += x[((n * g.h + ih) * g.w + iw) * g.c + ch] * f[(a * g.kw + b) * g.oc() + o];
            }
          y.push_back(acc);
        }
  return y;
}

std::string Describe(const Geo& g) {
  return absl::StrCat(g.h, "x", g.w, " c", g.c, " m", g.m, " k", g.kh, "x", g.kw, " s", g.s, " ",
                      g.padding());
}

TEST(DepthwiseConv, MatchesDirectLoopsInFloatAndDouble) {
  for (const Geo& g : kGeos) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(Describe(g) + " " + DataTypeString(dt));
      Tensor x = RandomTensor(dt, {g.n, g.h, g.w, g.c}, -1, 1, 1);
      Tensor f = RandomTensor(dt, {g.kh, g.kw, g.c, g.m}, -1, 1, 2);
      const std::vector<double> want = Depthwise(g, ToDoubles(x), ToDoubles(f));
      for (const auto& run : {RunOp, RunOpConst}) {
        auto got = run(
            [&](const Scope& s, const auto& in) {
              return DepthwiseConv2dNative(s, in[0], in[1], g.strides(), g.padding());
            },
            {x, f});
        ASSERT_TRUE(got.ok()) << got.status();
        ExpectTensorNear(*got, dt, TensorShape({g.n, g.oh(), g.ow(), g.oc()}), want,
                         dt == DT_FLOAT ? 1e-5 : 1e-12);
      }
    }
  }
}

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// <dy, conv(x, f)> = <dF(x, dy), f> = <dX(f, dy), x> in double (the direct path), and the
// float gradients (oneDNN) equal the double ones.
TEST(DepthwiseConv, GradientsSatisfyTheAdjointIdentitiesAndAgreeAcrossDtypes) {
  for (const Geo& g : kGeos) {
    SCOPED_TRACE(Describe(g));
    std::vector<std::vector<double>> grads[2];
    for (int k = 0; k < 2; ++k) {
      const DataType dt = k == 0 ? DT_DOUBLE : DT_FLOAT;
      Tensor x = RandomTensor(dt, {g.n, g.h, g.w, g.c}, -1, 1, 11);
      Tensor f = RandomTensor(dt, {g.kh, g.kw, g.c, g.m}, -1, 1, 12);
      Tensor dy = RandomTensor(dt, {g.n, g.oh(), g.ow(), g.oc()}, -1, 1, 13);
      auto dx = RunOp(
          [&](const Scope& s, const auto& in) {
            return DepthwiseConv2dNativeBackpropInput(s, Const(s, {g.n, g.h, g.w, g.c}), in[0],
                                                      in[1], g.strides(), g.padding());
          },
          {f, dy});
      auto df = RunOp(
          [&](const Scope& s, const auto& in) {
            return DepthwiseConv2dNativeBackpropFilter(s, in[0], Const(s, {g.kh, g.kw, g.c, g.m}),
                                                       in[1], g.strides(), g.padding());
          },
          {x, dy});
      ASSERT_TRUE(dx.ok()) << dx.status();
      ASSERT_TRUE(df.ok()) << df.status();
      EXPECT_EQ(dx->shape(), x.shape());
      EXPECT_EQ(df->shape(), f.shape());
      grads[k] = {ToDoubles(*dx), ToDoubles(*df)};
      if (dt == DT_DOUBLE) {
        const double lhs = Dot(ToDoubles(dy), Depthwise(g, ToDoubles(x), ToDoubles(f)));
        EXPECT_NEAR(Dot(grads[k][0], ToDoubles(x)), lhs, 1e-9 * (1 + std::abs(lhs)));
        EXPECT_NEAR(Dot(grads[k][1], ToDoubles(f)), lhs, 1e-9 * (1 + std::abs(lhs)));
      }
    }
    for (int which = 0; which < 2; ++which) {
      ASSERT_EQ(grads[0][which].size(), grads[1][which].size());
      for (size_t i = 0; i < grads[0][which].size(); ++i) {
        EXPECT_NEAR(grads[1][which][i], grads[0][which][i], 1e-4) << which << " " << i;
      }
    }
  }
}

// A Const filter is reordered into oneDNN's layout by the first run and reused: later runs
// on other inputs still give the right values, for Conv2D and the depthwise op alike.
TEST(DepthwiseConv, ConstantFiltersStayRightOverRuns) {
  const Geo g{1, 6, 6, 16, 2, 3, 3, 1, true};
  Scope root = Scope::NewRootScope();
  Tensor f = RandomTensor(DT_FLOAT, {g.kh, g.kw, g.c, g.m}, -1, 1, 5);
  Tensor f2 = RandomTensor(DT_FLOAT, {3, 3, g.c, 8}, -1, 1, 6);
  auto x = Placeholder(root, DT_FLOAT);
  auto y = DepthwiseConv2dNative(root, x, Const(root, f), g.strides(), g.padding());
  auto y2 = Conv2D(root, x, Const(root, f2), {1, 1, 1, 1}, "SAME");
  ClientSession session(root);
  for (uint32_t seed = 20; seed < 23; ++seed) {
    Tensor xv = RandomTensor(DT_FLOAT, {g.n, g.h, g.w, g.c}, -1, 1, seed);
    std::vector<Tensor> out;
    ASSERT_TRUE(session.Run({{x, xv}}, {y, y2}, &out).ok());
    ExpectTensorNear(out[0], DT_FLOAT, TensorShape({g.n, g.oh(), g.ow(), g.oc()}),
                     Depthwise(g, ToDoubles(xv), ToDoubles(f)), 1e-5);
    // Conv2D against the depthwise loops of a multiplier-8 filter summed over channels:
    // recomputed directly here.
    std::vector<double> want;
    const std::vector<double> xd = ToDoubles(xv), fd = ToDoubles(f2);
    for (int i = 0; i < g.h; ++i)
      for (int j = 0; j < g.w; ++j)
        for (int o = 0; o < 8; ++o) {
          double acc = 0;
          for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) {
              const int ih = i - 1 + a, iw = j - 1 + b;
              if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w) continue;
              for (int c = 0; c < g.c; ++c)
                acc += xd[(ih * g.w + iw) * g.c + c] * fd[((a * 3 + b) * g.c + c) * 8 + o];
            }
          want.push_back(acc);
        }
    ExpectTensorNear(out[1], DT_FLOAT, TensorShape({1, g.h, g.w, 8}), want, 1e-5);
  }
}

TEST(DepthwiseConv, BadShapesAreAStatus) {
  Tensor x = RandomTensor(DT_FLOAT, {1, 4, 4, 3}, -1, 1, 1);
  Tensor f = RandomTensor(DT_FLOAT, {3, 3, 2, 1}, -1, 1, 2);
  auto got = RunOp(
      [](const Scope& s, const auto& in) {
        return DepthwiseConv2dNative(s, in[0], in[1], {1, 1, 1, 1}, "SAME");
      },
      {x, f});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(got.status().message().find("[3,3,2,1]"), std::string::npos) << got.status();
}

}  // namespace depthwise_conv_test
}  // namespace
}  // namespace rill::testing
