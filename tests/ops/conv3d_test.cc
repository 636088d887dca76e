// Conv3D and its two gradients: values against a float64 loop over the definition written
// here (grouped, dilated, strided, SAME and VALID windows; float through oneDNN and double
// through the kernels' own path), shapes known when the graph is built, gradients and
// second-order gradients against central differences, and op cases for every device.
#include "rill/core/conv3d.h"

#include <algorithm>

#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/conv3d_ops.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace conv3d_test {

MarkTested tested({"Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2"});

using Ints = std::vector<int64_t>;

// A geometry: input [n, d, h, w, c], filter [kd, kh, kw, c / groups, oc], strides,
// dilations and padding.
struct Geometry {
  Ints input, filter, st, dl;
  std::string padding;
};
const Geometry kGeometries[] = {
    {{2, 4, 5, 6, 3}, {2, 2, 3, 3, 4}, {1, 1, 1}, {1, 1, 1}, "VALID"},
    {{1, 5, 4, 6, 2}, {3, 2, 3, 2, 3}, {2, 1, 2}, {1, 1, 1}, "SAME"},
    {{2, 6, 5, 7, 4}, {2, 3, 2, 2, 6}, {1, 2, 1}, {2, 1, 3}, "SAME"},  // 2 groups, dilated
    {{1, 7, 6, 5, 2}, {3, 2, 2, 2, 2}, {2, 2, 1}, {2, 3, 1}, "VALID"},
    {{1, 3, 4, 5, 4}, {1, 3, 2, 1, 4}, {1, 1, 2}, {1, 1, 1}, "SAME"},  // depthwise-like
};

ops::IntList Ndhwc(const Ints& v) { return {1, v[0], v[1], v[2], 1}; }
// A backprop's sizes input: int64 for the input's (Conv3DBackpropInputV2 takes either),
// int32 for the filter's.
Output InputSizes(const Scope& s, const Ints& v) {
  return ops::Const(s, test::AsTensor<int64_t>(v));
}
Output FilterSizes(const Scope& s, const Ints& v) {
  return ops::Const(s, test::AsTensor<int32_t>(std::vector<int32_t>(v.begin(), v.end())));
}
ops::Conv3D::Attrs AttrsOf(const Geometry& g) { return ops::Conv3D::Dilations(Ndhwc(g.dl)); }

// The definition: out[n, o, oc] = sum over taps t and group channels ic of
// x[n, o * stride - pad + t * dilation, g * icg + ic] * w[t, ic, oc], g = oc / (oc / groups).
struct Reference {
  Ints in, k, out, pad;
  int64_t n, c, oc, icg, ocg;
  const Geometry& g;

  explicit Reference(const Geometry& geo) : g(geo) {
    n = g.input[0];
    c = g.input[4];
    oc = g.filter[4];
    icg = g.filter[3];
    ocg = oc / (c / icg);
    for (int d = 0; d < 3; ++d) {
      in.push_back(g.input[1 + d]);
      k.push_back(g.filter[d]);
      const int64_t span = (k[d] - 1) * g.dl[d] + 1;
      const bool same = g.padding == "SAME";
      out.push_back(same ? (in[d] + g.st[d] - 1) / g.st[d] : (in[d] - span) / g.st[d] + 1);
      pad.push_back(same ? std::max<int64_t>((out[d] - 1) * g.st[d] + span - in[d], 0) / 2 : 0);
    }
  }
  TensorShape OutShape() const { return TensorShape({n, out[0], out[1], out[2], oc}); }

  // Calls fn(x index, w index, y index) for every product of the definition.
  template <typename Fn>
  void ForEachProduct(Fn fn) const {
    int64_t o[3], t[3];
    for (int64_t b = 0; b < n; ++b)
      for (o[0] = 0; o[0] < out[0]; ++o[0])
        for (o[1] = 0; o[1] < out[1]; ++o[1])
          for (o[2] = 0; o[2] < out[2]; ++o[2])
            for (int64_t f = 0; f < oc; ++f)
              for (t[0] = 0; t[0] < k[0]; ++t[0])
                for (t[1] = 0; t[1] < k[1]; ++t[1])
                  for (t[2] = 0; t[2] < k[2]; ++t[2])
                    for (int64_t ic = 0; ic < icg; ++ic) {
                      int64_t p[3];
                      bool inside = true;
                      for (int d = 0; d < 3; ++d) {
                        p[d] = o[d] * g.st[d] - pad[d] + t[d] * g.dl[d];
                        inside = inside && p[d] >= 0 && p[d] < in[d];
                      }
                      if (!inside) continue;
                      const int64_t xi = (((b * in[0] + p[0]) * in[1] + p[1]) * in[2] + p[2]) * c +
                                         (f / ocg) * icg + ic;
                      const int64_t wi = (((t[0] * k[1] + t[1]) * k[2] + t[2]) * icg + ic) * oc + f;
                      const int64_t yi =
                          (((b * out[0] + o[0]) * out[1] + o[1]) * out[2] + o[2]) * oc + f;
                      fn(xi, wi, yi);
                    }
  }
};

std::vector<double> Forward(const Reference& r, const Tensor& x, const Tensor& w) {
  const std::vector<double> xv = ToDoubles(x), wv = ToDoubles(w);
  std::vector<double> y(r.OutShape().num_elements(), 0.0);
  r.ForEachProduct([&](int64_t xi, int64_t wi, int64_t yi) { y[yi] += xv[xi] * wv[wi]; });
  return y;
}
std::vector<double> InputGrad(const Reference& r, const Tensor& w, const Tensor& dy) {
  const std::vector<double> wv = ToDoubles(w), dv = ToDoubles(dy);
  std::vector<double> dx(TensorShape(r.g.input).num_elements(), 0.0);
  r.ForEachProduct([&](int64_t xi, int64_t wi, int64_t yi) { dx[xi] += wv[wi] * dv[yi]; });
  return dx;
}
std::vector<double> FilterGrad(const Reference& r, const Tensor& x, const Tensor& dy) {
  const std::vector<double> xv = ToDoubles(x), dv = ToDoubles(dy);
  std::vector<double> dw(TensorShape(r.g.filter).num_elements(), 0.0);
  r.ForEachProduct([&](int64_t xi, int64_t wi, int64_t yi) { dw[wi] += xv[xi] * dv[yi]; });
  return dw;
}

TEST(Conv3D, MatchesTheDefinition) {
  uint32_t seed = 20;
  for (const Geometry& g : kGeometries) {
    const Reference r(g);
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(absl::StrCat(TensorShape(g.input).DebugString(), " ",
                                TensorShape(g.filter).DebugString(), " ", g.padding, " ",
                                DataTypeString(dt)));
      const Tensor x = RandomTensor(dt, TensorShape(g.input), -1, 1, ++seed);
      const Tensor w = RandomTensor(dt, TensorShape(g.filter), -1, 1, ++seed);
      const Tensor dy = RandomTensor(dt, r.OutShape(), -1, 1, ++seed);
      const double tol = dt == DT_FLOAT ? 1e-4 : 1e-11;
      auto y = RunOp(
          [&](const Scope& s, const auto& in) {
            return ops::Conv3D(s, in[0], in[1], Ndhwc(g.st), g.padding, AttrsOf(g));
          },
          {x, w});
      ASSERT_TRUE(y.ok()) << y.status();
      ExpectTensorNear(*y, dt, r.OutShape(), Forward(r, x, w), tol);
      auto dx = RunOp(
          [&](const Scope& s, const auto& in) {
            return ops::Conv3DBackpropInputV2(s, InputSizes(s, g.input), in[0], in[1], Ndhwc(g.st),
                                              g.padding, AttrsOf(g));
          },
          {w, dy});
      ASSERT_TRUE(dx.ok()) << dx.status();
      ExpectTensorNear(*dx, dt, TensorShape(g.input), InputGrad(r, w, dy), tol);
      auto dw = RunOp(
          [&](const Scope& s, const auto& in) {
            return ops::Conv3DBackpropFilterV2(s, in[0], FilterSizes(s, g.filter), in[1],
                                               Ndhwc(g.st), g.padding, AttrsOf(g));
          },
          {x, dy});
      ASSERT_TRUE(dw.ok()) << dw.status();
      ExpectTensorNear(*dw, dt, TensorShape(g.filter), FilterGrad(r, x, dy), tol);
    }
  }
}

// The GPU kernels' arithmetic (core/conv3d_row.h), run here on the host in float64.
TEST(Conv3D, RowFunctionsMatchTheDefinition) {
  uint32_t seed = 80;
  for (const Geometry& geo : kGeometries) {
    const Reference r(geo);
    auto dims = ComputeConv3DDims(geo.input, geo.filter, Ndhwc(geo.st), Ndhwc(geo.dl), geo.padding);
    ASSERT_TRUE(dims.ok()) << dims.status();
    const Tensor x = RandomTensor(DT_DOUBLE, TensorShape(geo.input), -1, 1, ++seed);
    const Tensor w = RandomTensor(DT_DOUBLE, TensorShape(geo.filter), -1, 1, ++seed);
    const Tensor dy = RandomTensor(DT_DOUBLE, r.OutShape(), -1, 1, ++seed);
    const double *xv = x.base<double>(), *wv = w.base<double>(), *dv = dy.base<double>();
    const std::vector<double> y = Forward(r, x, w), dx = InputGrad(r, w, dy),
                              dw = FilterGrad(r, x, dy);
    for (size_t e = 0; e < y.size(); ++e)
      EXPECT_NEAR(Conv3DOutputAt(*dims, xv, wv, e), y[e], 1e-12);
    for (size_t e = 0; e < dx.size(); ++e) {
      EXPECT_NEAR(Conv3DInputGradAt(*dims, wv, dv, e), dx[e], 1e-12);
    }
    for (size_t e = 0; e < dw.size(); ++e) {
      EXPECT_NEAR(Conv3DFilterGradAt(*dims, xv, dv, e), dw[e], 1e-12);
    }
  }
}

TEST(Conv3D, ByHand) {
  // One 2x2x2 cube of 1..8 and a filter of ones over it: the sum, 36; with the filter's
  // second output channel 2 at the first tap only: 2.
  const Tensor x = FromDoubles(DT_FLOAT, {1, 2, 2, 2, 1}, {1, 2, 3, 4, 5, 6, 7, 8});
  std::vector<double> wv(16, 0.0);
  for (int t = 0; t < 8; ++t) wv[2 * t] = 1;
  wv[1] = 2;
  auto y = RunOp(
      [](const Scope& s, const auto& in) {
        return ops::Conv3D(s, in[0], in[1], {1, 1, 1, 1, 1}, "VALID");
      },
      {x, FromDoubles(DT_FLOAT, {2, 2, 2, 1, 2}, wv)});
  ASSERT_TRUE(y.ok()) << y.status();
  ExpectTensorNear(*y, DT_FLOAT, {1, 1, 1, 1, 2}, {36, 2}, 0);
}

TEST(Conv3D, EmptyInputsGiveEmptyOrZeroOutputs) {
  // No images: an empty output; no input channels: zeros; an empty batch's filter gradient:
  // zeros.
  auto y = RunOp(
      [](const Scope& s, const auto& in) {
        return ops::Conv3D(s, in[0], in[1], {1, 1, 1, 1, 1}, "SAME");
      },
      {Tensor(DT_FLOAT, TensorShape({0, 3, 3, 3, 2})),
       RandomTensor(DT_FLOAT, {2, 2, 2, 2, 3}, -1, 1, 1)});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), TensorShape({0, 3, 3, 3, 3}));
  auto dw = RunOp(
      [](const Scope& s, const auto& in) {
        return ops::Conv3DBackpropFilterV2(s, in[0], ops::Const(s, {2, 2, 2, 2, 3}), in[1],
                                           {1, 1, 1, 1, 1}, "SAME");
      },
      {Tensor(DT_FLOAT, TensorShape({0, 3, 3, 3, 2})),
       Tensor(DT_FLOAT, TensorShape({0, 3, 3, 3, 3}))});
  ASSERT_TRUE(dw.ok()) << dw.status();
  ExpectTensorNear(*dw, DT_FLOAT, {2, 2, 2, 2, 3}, std::vector<double>(48, 0.0), 0);
}

TEST(Conv3D, ShapeKnownAtConstruction) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({-1, 7, 6, 5, 4}));
  auto w = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({3, 2, 2, 2, 6}));
  auto y = ops::Conv3D(s, x, w, {1, 2, 1, 2, 1}, "SAME", ops::Conv3D::Dilations({1, 1, 2, 1, 1}));
  EXPECT_EQ(y.output.shape().DebugString(), "[?,4,6,3,6]");
  auto z = ops::Conv3D(s, x, w, {1, 1, 1, 1, 1}, "VALID", ops::Conv3D::Dilations({1, 2, 2, 1, 1}));
  EXPECT_EQ(z.output.shape().DebugString(), "[?,3,4,4,6]");
  auto dx =
      ops::Conv3DBackpropInputV2(s, InputSizes(s, {2, 7, 6, 5, 4}), w, y, {1, 2, 1, 2, 1}, "SAME");
  EXPECT_EQ(dx.output.shape().DebugString(), "[2,7,6,5,4]");
  TF_EXPECT_OK(s.status());
}

TEST(Conv3D, RefusesWhatItCannotCompute) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({1, 4, 4, 4, 3}));
  auto w = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({2, 2, 2, 2, 4}));
  ops::Conv3D(s, x, w, {1, 1, 1, 1, 1}, "VALID");  // 3 channels are not groups of 2
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("not a multiple"), std::string::npos) << s.status();
  Scope s2 = Scope::NewRootScope();
  auto x2 = ops::Placeholder(s2, DT_FLOAT);
  ops::Conv3D(s2, x2, x2, {1, 1, 1, 1, 1}, "VALID", ops::Conv3D::DataFormat("NCDHW"));
  EXPECT_NE(s2.status().message().find("NCDHW"), std::string::npos) << s2.status();
}

TEST(Conv3D, GradientsMatchNumeric) {
  uint32_t seed = 40;
  // Small enough for central differences over every element: SAME with strides, and
  // grouped and dilated.
  const Geometry small[] = {
      {{1, 3, 3, 4, 2}, {2, 2, 3, 2, 2}, {2, 1, 2}, {1, 1, 1}, "SAME"},
      {{1, 4, 3, 4, 2}, {2, 1, 2, 1, 4}, {1, 1, 1}, {2, 1, 2}, "VALID"},
  };
  for (const Geometry& g : small) {
    SCOPED_TRACE(g.padding);
    const Reference r(g);
    const Tensor x = RandomTensor(DT_DOUBLE, TensorShape(g.input), -1, 1, ++seed);
    const Tensor w = RandomTensor(DT_DOUBLE, TensorShape(g.filter), -1, 1, ++seed);
    const Tensor dy = RandomTensor(DT_DOUBLE, r.OutShape(), -1, 1, ++seed);
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const std::vector<Output>& in) {
          return Output(ops::Conv3D(s, in[0], in[1], Ndhwc(g.st), g.padding, AttrsOf(g)));
        },
        {x, w});
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const std::vector<Output>& in) {
          return Output(ops::Conv3DBackpropInputV2(s, InputSizes(s, g.input), in[0], in[1],
                                                   Ndhwc(g.st), g.padding, AttrsOf(g)));
        },
        {w, dy});
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const std::vector<Output>& in) {
          return Output(ops::Conv3DBackpropFilterV2(s, in[0], FilterSizes(s, g.filter), in[1],
                                                    Ndhwc(g.st), g.padding, AttrsOf(g)));
        },
        {x, dy});
  }
}

const bool kMarked = [] {
  GradTestedOps().insert({"Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2"});
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  uint32_t seed = 60;
  for (const Geometry& g : kGeometries) {
    const Reference r(g);
    const std::string what =
        absl::StrCat(" ", TensorShape(g.input).DebugString(), TensorShape(g.filter).DebugString(),
                     " ", g.padding, " d", g.dl[0], g.dl[1], g.dl[2]);
    const Tensor x = RandomTensor(DT_FLOAT, TensorShape(g.input), -1, 1, ++seed);
    const Tensor w = RandomTensor(DT_FLOAT, TensorShape(g.filter), -1, 1, ++seed);
    const Tensor dy = RandomTensor(DT_FLOAT, r.OutShape(), -1, 1, ++seed);
    const ops::IntList st = Ndhwc(g.st);
    const ops::Conv3D::Attrs a = AttrsOf(g);
    const std::string pad = g.padding;
    const Ints in_sizes = g.input, f_sizes = g.filter;
    c.push_back(
        {"Conv3D" + what,
         [=](const Scope& s, const auto& in) { return ops::Conv3D(s, in[0], in[1], st, pad, a); },
         {x, w}});
    c.push_back({"Conv3DBackpropInputV2" + what,
                 [=](const Scope& s, const auto& in) {
                   return ops::Conv3DBackpropInputV2(s, InputSizes(s, in_sizes), in[0], in[1], st,
                                                     pad, a);
                 },
                 {w, dy}});
    c.push_back({"Conv3DBackpropFilterV2" + what,
                 [=](const Scope& s, const auto& in) {
                   return ops::Conv3DBackpropFilterV2(s, in[0], FilterSizes(s, f_sizes), in[1], st,
                                                      pad, a);
                 },
                 {x, dy}});
  }
  return c;
}

}  // namespace conv3d_test
}  // namespace

RILL_OP_CASES(conv3d, conv3d_test::Cases);

}  // namespace rill::testing
