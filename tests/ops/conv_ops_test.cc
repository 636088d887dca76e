// Conv2D, pooling and BiasAdd against direct loops written here, for SAME and VALID and
// strides > 1; bad attributes and shapes as a Status naming the node.
#include "rill/ops/conv_ops.h"

#include <cmath>
#include <limits>

#include "rill/core/conv_kernel_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace conv_ops_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPool",
                   "MaxPoolGrad", "AvgPool", "AvgPoolGrad", "BiasAdd", "BiasAddGrad"});

struct Geo {
  int n, h, w, c, kh, kw, oc, s;
  bool same;
  int oh() const { return same ? (h + s - 1) / s : (h - kh) / s + 1; }
  int ow() const { return same ? (w + s - 1) / s : (w - kw) / s + 1; }
  int pt() const { return same ? std::max((oh() - 1) * s + kh - h, 0) / 2 : 0; }
  int pl() const { return same ? std::max((ow() - 1) * s + kw - w, 0) / 2 : 0; }
};

// Direct convolution, and direct pooling (max or mean over the window's real elements).
std::vector<double> Conv(const Geo& g, const std::vector<double>& x, const std::vector<double>& f) {
  std::vector<double> y(g.n * g.oh() * g.ow() * g.oc, 0.0);
  for (int n = 0; n < g.n; ++n)
    for (int i = 0; i < g.oh(); ++i)
      for (int j = 0; j < g.ow(); ++j)
        for (int o = 0; o < g.oc; ++o) {
          double acc = 0;
          for (int a = 0; a < g.kh; ++a)
            for (int b = 0; b < g.kw; ++b) {
              int ih = i * g.s - g.pt() + a, iw = j * g.s - g.pl() + b;
              if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w) continue;
              for (int c = 0; c < g.c; ++c)
                acc += x[((n * g.h + ih) * g.w + iw) * g.c + c] *
                       f[((a * g.kw + b) * g.c + c) * g.oc + o];
            }
          y[((n * g.oh() + i) * g.ow() + j) * g.oc + o] = acc;
        }
  return y;
}

std::vector<double> Pool(const Geo& g, const std::vector<double>& x, bool max) {
  std::vector<double> y;
  for (int n = 0; n < g.n; ++n)
    for (int i = 0; i < g.oh(); ++i)
      for (int j = 0; j < g.ow(); ++j)
        for (int c = 0; c < g.c; ++c) {
          double acc = max ? -std::numeric_limits<double>::infinity() : 0;
          int count = 0;
          for (int a = 0; a < g.kh; ++a)
            for (int b = 0; b < g.kw; ++b) {
              int ih = i * g.s - g.pt() + a, iw = j * g.s - g.pl() + b;
              if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w) continue;
              double v = x[((n * g.h + ih) * g.w + iw) * g.c + c];
              acc = max ? std::max(acc, v) : acc + v;
              ++count;
            }
          y.push_back(max ? acc : acc / count);
        }
  return y;
}

const std::vector<Geo> kGeos = {{2, 5, 5, 3, 3, 3, 4, 1, true}, {2, 5, 5, 3, 3, 3, 4, 1, false},
                                {1, 7, 6, 2, 3, 2, 3, 2, true}, {1, 7, 6, 2, 3, 2, 3, 2, false},
                                {1, 4, 4, 1, 5, 5, 2, 1, true}, {3, 6, 6, 2, 2, 2, 2, 2, false}};

TEST(ConvOps, Conv2DMatchesDirectConvolution) {
  for (const Geo& g : kGeos) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(::testing::Message()
                   << g.h << "x" << g.w << " k" << g.kh << "x" << g.kw << " s" << g.s
                   << (g.same ? " SAME " : " VALID ") << DataTypeString(dt));
      Tensor x = RandomTensor(dt, {g.n, g.h, g.w, g.c}, -1, 1, 1);
      Tensor f = RandomTensor(dt, {g.kh, g.kw, g.c, g.oc}, -1, 1, 2);
      auto got = RunOp(
          [&](const Scope& s, const auto& in) {
            return Conv2D(s, in[0], in[1], {1, g.s, g.s, 1}, g.same ? "SAME" : "VALID");
          },
          {x, f});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, TensorShape({g.n, g.oh(), g.ow(), g.oc}),
                       Conv(g, ToDoubles(x), ToDoubles(f)), dt == DT_FLOAT ? 1e-5 : 1e-12);
    }
  }
}

// Float convolutions go through oneDNN's primitives (double, and VALID geometries that
// leave rows unused, through im2col + GEMM): both gradients in float must match the double
// path element by element.
TEST(ConvOps, FloatGradientsMatchTheDoublePath) {
  for (const Geo& g : kGeos) {
    SCOPED_TRACE(::testing::Message() << g.h << "x" << g.w << " k" << g.kh << "x" << g.kw << " s"
                                      << g.s << (g.same ? " SAME" : " VALID"));
    const std::vector<int64_t> strides = {1, g.s, g.s, 1};
    const char* padding = g.same ? "SAME" : "VALID";
    for (int which = 0; which < 2; ++which) {
      std::vector<Tensor> got;
      for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
        Tensor x = RandomTensor(dt, {g.n, g.h, g.w, g.c}, -1, 1, 11);
        Tensor f = RandomTensor(dt, {g.kh, g.kw, g.c, g.oc}, -1, 1, 12);
        Tensor dy = RandomTensor(dt, {g.n, g.oh(), g.ow(), g.oc}, -1, 1, 13);
        auto r = which == 0 ? RunOp(
                                  [&](const Scope& s, const auto& in) {
                                    return Conv2DBackpropInput(s, Const(s, {g.n, g.h, g.w, g.c}),
                                                               in[0], in[1], strides, padding);
                                  },
                                  {f, dy})
                            : RunOp(
                                  [&](const Scope& s, const auto& in) {
                                    return Conv2DBackpropFilter(s, in[0],
                                                                Const(s, {g.kh, g.kw, g.c, g.oc}),
                                                                in[1], strides, padding);
                                  },
                                  {x, dy});
        ASSERT_TRUE(r.ok()) << r.status();
        got.push_back(*r);
      }
      ExpectTensorNear(got[0], DT_FLOAT, got[1].shape(), ToDoubles(got[1]), 1e-5);
    }
  }
}

// A larger layer (3 images of 64x64x16, 5x5 filters): the forward against direct loops,
// and both gradients through the adjoint identities <dy, conv(x, f)> = <dF, f> = <dX, x>.
TEST(ConvOps, LargerLayerAndAdjointIdentities) {
  const Geo g{3, 64, 64, 16, 5, 5, 4, 1, true};
  Tensor x = RandomTensor(DT_FLOAT, {g.n, g.h, g.w, g.c}, -1, 1, 3);
  Tensor f = RandomTensor(DT_FLOAT, {g.kh, g.kw, g.c, g.oc}, -1, 1, 4);
  Tensor dy = RandomTensor(DT_FLOAT, {g.n, g.oh(), g.ow(), g.oc}, -1, 1, 5);
  auto y = RunOpConst(
      [&](const Scope& s, const auto& in) {
        return Conv2D(s, in[0], in[1], {1, 1, 1, 1}, "SAME");
      },
      {x, f});
  ASSERT_TRUE(y.ok()) << y.status();
  const std::vector<double> want = Conv(g, ToDoubles(x), ToDoubles(f));
  ExpectTensorNear(*y, DT_FLOAT, TensorShape({g.n, g.oh(), g.ow(), g.oc}), want, 1e-4);
  auto dfilter = RunOpConst(
      [&](const Scope& s, const auto& in) {
        return Conv2DBackpropFilter(s, in[0], Const(s, {g.kh, g.kw, g.c, g.oc}), in[1],
                                    {1, 1, 1, 1}, "SAME");
      },
      {x, dy});
  auto dinput = RunOpConst(
      [&](const Scope& s, const auto& in) {
        return Conv2DBackpropInput(s, Const(s, {g.n, g.h, g.w, g.c}), in[0], in[1], {1, 1, 1, 1},
                                   "SAME");
      },
      {f, dy});
  ASSERT_TRUE(dfilter.ok() && dinput.ok());
  auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
  };
  const double lhs = dot(ToDoubles(dy), want);
  EXPECT_NEAR(dot(ToDoubles(*dfilter), ToDoubles(f)), lhs, 1e-4 * std::abs(lhs) + 1e-2);
  EXPECT_NEAR(dot(ToDoubles(*dinput), ToDoubles(x)), lhs, 1e-4 * std::abs(lhs) + 1e-2);
}

TEST(ConvOps, PoolingMatchesDirectLoops) {
  for (const Geo& g : kGeos) {
    for (bool max : {true, false}) {
      Tensor x = RandomTensor(DT_DOUBLE, {g.n, g.h, g.w, g.c}, -1, 1, 3);
      auto got = RunOp(
          [&](const Scope& s, const auto& in) {
            const IntList k = {1, g.kh, g.kw, 1}, st = {1, g.s, g.s, 1};
            const char* pad = g.same ? "SAME" : "VALID";
            return max ? Output(MaxPool(s, in[0], k, st, pad))
                       : Output(AvgPool(s, in[0], k, st, pad));
          },
          {x});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, DT_DOUBLE, TensorShape({g.n, g.oh(), g.ow(), g.c}),
                       Pool(g, ToDoubles(x), max), 1e-12);
    }
  }
}

TEST(ConvOps, BiasAddAndItsGradient) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32}) {
    Tensor v = RandomTensor(dt, {2, 3, 4}, -5, 5, 4);
    Tensor b = RandomTensor(dt, {4}, -5, 5, 5);
    auto got =
        RunOp([](const Scope& s, const auto& in) { return BiasAdd(s, in[0], in[1]); }, {v, b});
    auto sum = RunOp([](const Scope& s, const auto& in) { return BiasAddGrad(s, in[0]); }, {v});
    ASSERT_TRUE(got.ok() && sum.ok());
    auto vv = ToDoubles(v), bv = ToDoubles(b);
    std::vector<double> want(vv.size()), sums(4, 0.0);
    for (size_t i = 0; i < vv.size(); ++i) {
      want[i] = vv[i] + bv[i % 4];
      sums[i % 4] += vv[i];
    }
    ExpectTensorNear(*got, dt, TensorShape({2, 3, 4}), want, Tolerance(dt));
    ExpectTensorNear(*sum, dt, TensorShape({4}), sums, Tolerance(dt) * 10);
  }
}

// padding "EXPLICIT" (TensorFlow's explicit_paddings) equals padding the input with zeros
// first and convolving VALID, for Conv2D and the depthwise op, in float and double, with
// strides and pads that differ per side; both gradients likewise.
TEST(ConvOps, ExplicitPaddingEqualsPaddingFirst) {
  const IntList pads = {0, 0, 2, 0, 1, 3, 0, 0}, strides = {1, 2, 1, 1};
  for (bool depthwise : {false, true}) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(::testing::Message() << (depthwise ? "depthwise " : "") << DataTypeString(dt));
      Tensor x = RandomTensor(dt, {2, 5, 6, 3}, -1, 1, 31);
      Tensor f = RandomTensor(dt, {3, 2, 3, depthwise ? 2 : 4}, -1, 1, 32);
      auto conv = [&](const Scope& s, Output in, Output filter, const std::string& padding,
                      const IntList& e) -> Output {
        if (depthwise) return DepthwiseConv2dNative(s, in, filter, strides, padding, e);
        return Conv2D(s, in, filter, strides, padding, e);
      };
      auto padded = [&](const Scope& s, Output in) {
        Tensor p = FromDoubles(DT_INT32, {4, 2}, {0, 0, 2, 0, 1, 3, 0, 0});
        return Pad(s, in, Const(s, p));
      };
      auto got = RunOp(
          [&](const Scope& s, const auto& in) { return conv(s, in[0], in[1], "EXPLICIT", pads); },
          {x, f});
      auto want =
          RunOp([&](const Scope& s,
                    const auto& in) { return conv(s, padded(s, in[0]), in[1], "VALID", {}); },
                {x, f});
      ASSERT_TRUE(got.ok()) << got.status();
      ASSERT_TRUE(want.ok()) << want.status();
      ExpectTensorNear(*got, dt, want->shape(), ToDoubles(*want), Tolerance(dt) * 10);
      // Gradients: of sum(conv(x) * w) through both forms.
      Tensor w = RandomTensor(dt, want->shape(), -1, 1, 33);
      for (int which = 0; which < 2; ++which) {
        std::vector<Tensor> grads;
        for (bool explicit_form : {true, false}) {
          Scope s = Scope::NewRootScope();
          auto xi = Placeholder(s, dt), fi = Placeholder(s, dt);
          Output y = explicit_form ? conv(s, xi, fi, "EXPLICIT", pads)
                                   : conv(s, padded(s, xi), fi, "VALID", {});
          Output loss = ReduceSum(s, Mul(s, y, Const(s, w)), Const(s, {0, 1, 2, 3}));
          std::vector<Output> g;
          ASSERT_TRUE(
              AddSymbolicGradients(s, {loss}, {which == 0 ? Output(xi) : Output(fi)}, &g).ok());
          ClientSession session(s);
          std::vector<Tensor> out;
          ASSERT_TRUE(session.Run({{xi, x}, {fi, f}}, {g[0]}, &out).ok());
          grads.push_back(out[0]);
        }
        ExpectTensorNear(grads[0], dt, grads[1].shape(), ToDoubles(grads[1]), Tolerance(dt) * 10);
      }
    }
  }
}

TEST(ConvOps, BadAttributesAndShapesAreStatus) {
  Tensor x(DT_FLOAT, TensorShape({1, 4, 4, 2}));
  Tensor f(DT_FLOAT, TensorShape({3, 3, 2, 1}));
  auto conv = [](IntList strides, std::string pad, IntList explicit_paddings = {}) {
    return [=](const Scope& s, const auto& in) {
      return Conv2D(s, in[0], in[1], strides, pad, explicit_paddings);
    };
  };
  struct Bad {
    BuildFn fn;
    std::vector<Tensor> in;
    const char* needle;
  };
  std::vector<Bad> bad = {
      {conv({1, 0, 1, 1}, "SAME"), {x, f}, "positive"},
      {conv({1, -2, 1, 1}, "SAME"), {x, f}, "positive"},
      {conv({2, 1, 1, 1}, "SAME"), {x, f}, "batch and channel"},
      {conv({1, 1, 1}, "SAME"), {x, f}, "4 elements"},
      {conv({1, 1, 1, 1}, "FULL"), {x, f}, "SAME, VALID or EXPLICIT"},
      {conv({1, 1, 1, 1}, "EXPLICIT"), {x, f}, "8 values"},
      {conv({1, 1, 1, 1}, "EXPLICIT", {0, 0, 1, 1, 1}), {x, f}, "8 values"},
      {conv({1, 1, 1, 1}, "EXPLICIT", {0, 0, -1, 1, 1, 1, 0, 0}), {x, f}, ">= 0"},
      {conv({1, 1, 1, 1}, "EXPLICIT", {1, 0, 1, 1, 1, 1, 0, 0}), {x, f}, "batch and channel"},
      {conv({1, 1, 1, 1}, "SAME", {0, 0, 1, 1, 1, 1, 0, 0}), {x, f}, "unless padding is EXPLICIT"},
      {conv({1, 1, 1, 1}, "EXPLICIT", {0, 0, 0, 0, int64_t{1} << 62, int64_t{1} << 62, 0, 0}),
       {x, f},
       "overflows"},
      {conv({1, 1, 1, 1}, "EXPLICIT", {0, 0, 0, 0, 0, 0, 0, 0}),
       {x, Tensor(DT_FLOAT, TensorShape({5, 3, 2, 1}))},
       "larger than the padded"},
      {conv({1, 1, 1, 1}, "VALID"), {x, Tensor(DT_FLOAT, TensorShape({5, 5, 2, 1}))}, "larger"},
      {conv({1, 1, 1, 1}, "SAME"), {x, Tensor(DT_FLOAT, TensorShape({3, 3, 3, 1}))}, "channels"},
      {conv({1, 1, 1, 1}, "SAME"), {Tensor(DT_FLOAT, TensorShape({4, 4, 2})), f}, "rank"},
      {[](const Scope& s, const auto& in) {
         return MaxPool(s, in[0], {1, 0, 2, 1}, {1, 1, 1, 1}, "SAME");
       },
       {x},
       "positive"},
      {[](const Scope& s, const auto& in) {
         return AvgPool(s, in[0], {1, 5, 5, 1}, {1, 1, 1, 1}, "VALID");
       },
       {x},
       "larger"},
      {[](const Scope& s, const auto& in) { return BiasAdd(s, in[0], in[1]); },
       {x, Tensor(DT_FLOAT, TensorShape({3}))},
       "last dim"},
  };
  for (auto& b : bad) {
    for (auto* run : {&RunOp, &RunOpConst}) {
      auto r = (*run)(b.fn, b.in);
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
      EXPECT_NE(std::string(r.status().message()).find(b.needle), std::string::npos) << r.status();
    }
  }
  // Gradients with shapes that do not fit.
  auto bp = RunOp(
      [](const Scope& s, const auto& in) {
        return Conv2DBackpropInput(s, in[0], in[1], in[2], {1, 1, 1, 1}, "SAME");
      },
      {FromDoubles(DT_INT32, {4}, {1, 4, 4, 2}), f, Tensor(DT_FLOAT, TensorShape({1, 3, 3, 1}))});
  EXPECT_EQ(bp.status().code(), absl::StatusCode::kInvalidArgument);
  auto mg = RunOp(
      [](const Scope& s, const auto& in) {
        return MaxPoolGrad(s, in[0], in[1], in[2], {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID");
      },
      {x, Tensor(DT_FLOAT, TensorShape({1, 2, 2, 2})),
       Tensor(DT_FLOAT, TensorShape({1, 3, 2, 2}))});
  EXPECT_EQ(mg.status().code(), absl::StatusCode::kInvalidArgument);
}

// The GPU convolutions hand cuDNN (which pads both sides alike) either TensorFlow's own
// padding or an explicitly padded input; either way every output window must start where
// TensorFlow's does and the output count must match. Checked over every small geometry.
TEST(ConvGeometry, SymmetricPadLayoutReproducesTensorFlowsWindows) {
  int padded = 0, checked = 0;
  for (int64_t in = 1; in <= 12; ++in) {
    for (int64_t k = 1; k <= 5; ++k) {
      for (int64_t s = 1; s <= 3; ++s) {
        for (const char* pad : {"SAME", "VALID"}) {
          auto g = ComputeConv2DGeometry({2, in, in + 1, 3}, k, k, 4, {1, s, s, 1}, pad);
          if (!g.ok()) continue;  // a VALID window larger than the input
          const SymmetricPadLayout lay = SymmetricPadLayoutOf(*g);
          SCOPED_TRACE(absl::StrCat(in, " k", k, " s", s, " ", pad));
          // The library's output count over its view of the input.
          EXPECT_EQ((lay.h + 2 * lay.pad_h - k) / s + 1, g->out_h);
          EXPECT_EQ((lay.w + 2 * lay.pad_w - k) / s + 1, g->out_w);
          // Window o starts at o*s - pad in the library's coordinates, which are shifted
          // by (pad_top, pad_left) for a padded copy.
          const int64_t shift_h = lay.padded_copy ? g->pad_top : 0;
          const int64_t shift_w = lay.padded_copy ? g->pad_left : 0;
          EXPECT_EQ(-lay.pad_h - shift_h, -g->pad_top);
          EXPECT_EQ(-lay.pad_w - shift_w, -g->pad_left);
          // Every window lies inside the library's (possibly padded) input.
          EXPECT_LE((g->out_h - 1) * s - lay.pad_h + k, lay.h + lay.pad_h);
          EXPECT_LE((g->out_w - 1) * s - lay.pad_w + k, lay.w + lay.pad_w);
          if (!lay.padded_copy) {
            EXPECT_EQ(lay.h, in);
          }
          padded += lay.padded_copy;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(padded, 0);  // odd SAME totals occur and take the padded copy
  EXPECT_GT(checked, 300);
}

}  // namespace conv_ops_test
}  // namespace
}  // namespace rill::testing
