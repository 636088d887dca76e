// Conv2D and its gradients with dilations (TensorFlow's atrous convolution): values
// against a float64 loop over the definition written here (SAME, VALID and EXPLICIT
// padding, strides, float through oneDNN and double through im2col), the same through
// the optimizer's fused layer, gradients against central differences, the depthwise ops
// refusing dilations as TensorFlow's kernels do, and op cases for every device.
#include <algorithm>

#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/conv_ops.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace dilated_conv_test {

using Ints = std::vector<int64_t>;

struct Geometry {
  Ints input, filter;  // [n, h, w, c], [kh, kw, c, oc]
  int64_t stride_h, stride_w, dil_h, dil_w;
  std::string padding;
  Ints explicit_paddings;  // {0, 0, top, bottom, left, right, 0, 0} for EXPLICIT
};
const Geometry kGeometries[] = {
    {{2, 7, 8, 3}, {3, 3, 3, 4}, 1, 1, 2, 2, "SAME", {}},
    {{1, 9, 7, 2}, {3, 2, 2, 3}, 2, 1, 2, 3, "VALID", {}},
    {{1, 6, 7, 2}, {2, 3, 2, 2}, 1, 2, 3, 1, "SAME", {}},
    {{2, 5, 6, 3}, {2, 2, 3, 2}, 1, 1, 2, 2, "EXPLICIT", {0, 0, 1, 2, 0, 1, 0, 0}},
};

ops::ConvAttrs AttrsOf(const Geometry& g) {
  ops::ConvAttrs a = ops::Conv2D::Dilations({1, g.dil_h, g.dil_w, 1});
  return g.explicit_paddings.empty() ? a : a.ExplicitPaddings(g.explicit_paddings);
}
ops::IntList Strides(const Geometry& g) { return {1, g.stride_h, g.stride_w, 1}; }
// A backprop's sizes input (int32, as TensorFlow's).
Tensor Sizes(const Ints& v) {
  return test::AsTensor<int32_t>(std::vector<int32_t>(v.begin(), v.end()));
}

// The definition's geometry per spatial dim and its products.
struct Reference {
  const Geometry& g;
  int64_t out[2], pad[2];
  explicit Reference(const Geometry& geo) : g(geo) {
    const int64_t st[2] = {g.stride_h, g.stride_w}, dl[2] = {g.dil_h, g.dil_w};
    for (int d = 0; d < 2; ++d) {
      const int64_t in = g.input[1 + d], span = (g.filter[d] - 1) * dl[d] + 1;
      if (g.padding == "SAME") {
        out[d] = (in + st[d] - 1) / st[d];
        pad[d] = std::max<int64_t>((out[d] - 1) * st[d] + span - in, 0) / 2;
      } else {
        const int64_t before = g.padding == "EXPLICIT" ? g.explicit_paddings[2 + 2 * d] : 0;
        const int64_t after = g.padding == "EXPLICIT" ? g.explicit_paddings[3 + 2 * d] : 0;
        out[d] = (in + before + after - span) / st[d] + 1;
        pad[d] = before;
      }
    }
  }
  TensorShape OutShape() const { return TensorShape({g.input[0], out[0], out[1], g.filter[3]}); }
  // fn(x index, w index, y index) for every product of the definition.
  template <typename Fn>
  void ForEachProduct(Fn fn) const {
    const int64_t H = g.input[1], W = g.input[2], C = g.input[3], OC = g.filter[3];
    for (int64_t b = 0; b < g.input[0]; ++b)
      for (int64_t oh = 0; oh < out[0]; ++oh)
        for (int64_t ow = 0; ow < out[1]; ++ow)
          for (int64_t i = 0; i < g.filter[0]; ++i)
            for (int64_t j = 0; j < g.filter[1]; ++j) {
              const int64_t ih = oh * g.stride_h - pad[0] + i * g.dil_h;
              const int64_t iw = ow * g.stride_w - pad[1] + j * g.dil_w;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              for (int64_t c = 0; c < C; ++c)
                for (int64_t o = 0; o < OC; ++o) {
                  fn(((b * H + ih) * W + iw) * C + c, ((i * g.filter[1] + j) * C + c) * OC + o,
                     ((b * out[0] + oh) * out[1] + ow) * OC + o);
                }
            }
  }
};

TEST(DilatedConv2D, MatchesTheDefinition) {
  uint32_t seed = 10;
  for (const Geometry& g : kGeometries) {
    const Reference r(g);
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(absl::StrCat(g.padding, " d", g.dil_h, "x", g.dil_w, " ", DataTypeString(dt)));
      const Tensor x = RandomTensor(dt, TensorShape(g.input), -1, 1, ++seed);
      const Tensor w = RandomTensor(dt, TensorShape(g.filter), -1, 1, ++seed);
      const Tensor dy = RandomTensor(dt, r.OutShape(), -1, 1, ++seed);
      const std::vector<double> xv = ToDoubles(x), wv = ToDoubles(w), dv = ToDoubles(dy);
      std::vector<double> y(r.OutShape().num_elements()), dx(xv.size()), dw(wv.size());
      r.ForEachProduct([&](int64_t xi, int64_t wi, int64_t yi) {
        y[yi] += xv[xi] * wv[wi];
        dx[xi] += wv[wi] * dv[yi];
        dw[wi] += xv[xi] * dv[yi];
      });
      const double tol = dt == DT_FLOAT ? 1e-4 : 1e-11;
      auto got_y = RunOp(
          [&](const Scope& s, const auto& in) {
            return ops::Conv2D(s, in[0], in[1], Strides(g), g.padding, AttrsOf(g));
          },
          {x, w});
      ASSERT_TRUE(got_y.ok()) << got_y.status();
      ExpectTensorNear(*got_y, dt, r.OutShape(), y, tol);
      auto got_dx = RunOp(
          [&](const Scope& s, const auto& in) {
            return ops::Conv2DBackpropInput(s, ops::Const(s, Sizes(g.input)), in[0], in[1],
                                            Strides(g), g.padding, AttrsOf(g));
          },
          {w, dy});
      ASSERT_TRUE(got_dx.ok()) << got_dx.status();
      ExpectTensorNear(*got_dx, dt, TensorShape(g.input), dx, tol);
      auto got_dw = RunOp(
          [&](const Scope& s, const auto& in) {
            return ops::Conv2DBackpropFilter(s, in[0], ops::Const(s, Sizes(g.filter)), in[1],
                                             Strides(g), g.padding, AttrsOf(g));
          },
          {x, dy});
      ASSERT_TRUE(got_dw.ok()) << got_dw.status();
      ExpectTensorNear(*got_dw, dt, TensorShape(g.filter), dw, tol);
    }
  }
}

// Relu(BiasAdd(Conv2D)) runs as the optimizer's fused layer, which keeps the dilations.
TEST(DilatedConv2D, TheFusedLayerKeepsTheDilations) {
  const Geometry& g = kGeometries[0];
  const Reference r(g);
  const Tensor x = RandomTensor(DT_FLOAT, TensorShape(g.input), -1, 1, 30);
  const Tensor w = RandomTensor(DT_FLOAT, TensorShape(g.filter), -1, 1, 31);
  const Tensor b = RandomTensor(DT_FLOAT, {g.filter[3]}, -1, 1, 32);
  const std::vector<double> xv = ToDoubles(x), wv = ToDoubles(w), bv = ToDoubles(b);
  std::vector<double> y(r.OutShape().num_elements());
  r.ForEachProduct([&](int64_t xi, int64_t wi, int64_t yi) { y[yi] += xv[xi] * wv[wi]; });
  for (size_t i = 0; i < y.size(); ++i) y[i] = std::max(y[i] + bv[i % bv.size()], 0.0);
  auto got = RunOp(
      [&](const Scope& s, const auto& in) {
        return ops::Relu(
            s, ops::BiasAdd(s, ops::Conv2D(s, in[0], in[1], Strides(g), g.padding, AttrsOf(g)),
                            in[2]));
      },
      {x, w, b});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, r.OutShape(), y, 1e-4);
}

TEST(DilatedConv2D, ShapesAndRefusals) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({-1, 9, 8, 2}));
  auto w = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({3, 3, 2, 4}));
  auto y = ops::Conv2D(s, x, w, {1, 1, 1, 1}, "VALID", ops::Conv2D::Dilations({1, 3, 2, 1}));
  EXPECT_EQ(y.output.shape().DebugString(), "[?,3,4,4]");
  TF_EXPECT_OK(s.status());
  // The depthwise ops take dilations of 1 only, as TensorFlow's kernels.
  ops::DepthwiseConv2dNative(s, x, w, {1, 1, 1, 1}, "SAME",
                             ops::DepthwiseConv2dNative::Dilations({1, 2, 2, 1}));
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("dilations of 1 only"), std::string::npos) << s.status();
}

TEST(DilatedConv2D, GradientsMatchNumeric) {
  const Geometry small[] = {{{1, 5, 5, 2}, {2, 2, 2, 2}, 1, 1, 2, 2, "SAME", {}},
                            {{1, 6, 5, 1}, {2, 2, 1, 2}, 2, 1, 2, 3, "VALID", {}}};
  uint32_t seed = 40;
  for (const Geometry& g : small) {
    SCOPED_TRACE(g.padding);
    const Reference r(g);
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const std::vector<Output>& in) {
          return Output(ops::Conv2D(s, in[0], in[1], Strides(g), g.padding, AttrsOf(g)));
        },
        {RandomTensor(DT_DOUBLE, TensorShape(g.input), -1, 1, ++seed),
         RandomTensor(DT_DOUBLE, TensorShape(g.filter), -1, 1, ++seed)});
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const std::vector<Output>& in) {
          return Output(ops::Conv2DBackpropInput(s, ops::Const(s, Sizes(g.input)), in[0], in[1],
                                                 Strides(g), g.padding, AttrsOf(g)));
        },
        {RandomTensor(DT_DOUBLE, TensorShape(g.filter), -1, 1, ++seed),
         RandomTensor(DT_DOUBLE, r.OutShape(), -1, 1, ++seed)});
  }
}

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  uint32_t seed = 60;
  for (const Geometry& g : kGeometries) {
    const Reference r(g);
    const std::string what = absl::StrCat(" dilated ", g.padding, " d", g.dil_h, g.dil_w);
    const Tensor x = RandomTensor(DT_FLOAT, TensorShape(g.input), -1, 1, ++seed);
    const Tensor w = RandomTensor(DT_FLOAT, TensorShape(g.filter), -1, 1, ++seed);
    const Tensor dy = RandomTensor(DT_FLOAT, r.OutShape(), -1, 1, ++seed);
    const ops::IntList st = Strides(g);
    const ops::ConvAttrs a = AttrsOf(g);
    const std::string pad = g.padding;
    const Tensor in_sizes =
        test::AsTensor<int32_t>(std::vector<int32_t>(g.input.begin(), g.input.end()));
    const Tensor f_sizes =
        test::AsTensor<int32_t>(std::vector<int32_t>(g.filter.begin(), g.filter.end()));
    c.push_back(
        {"Conv2D" + what,
         [=](const Scope& s, const auto& in) { return ops::Conv2D(s, in[0], in[1], st, pad, a); },
         {x, w}});
    c.push_back({"Conv2DBackpropInput" + what,
                 [=](const Scope& s, const auto& in) {
                   return ops::Conv2DBackpropInput(s, ops::Const(s, in_sizes), in[0], in[1], st,
                                                   pad, a);
                 },
                 {w, dy}});
    c.push_back({"Conv2DBackpropFilter" + what,
                 [=](const Scope& s, const auto& in) {
                   return ops::Conv2DBackpropFilter(s, in[0], ops::Const(s, f_sizes), in[1], st,
                                                    pad, a);
                 },
                 {x, dy}});
  }
  return c;
}

}  // namespace dilated_conv_test
}  // namespace

RILL_OP_CASES(dilated_conv, dilated_conv_test::Cases);

}  // namespace rill::testing
