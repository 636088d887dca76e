// ResizeNearestNeighbor, ResizeBilinear, ResizeBicubic and their gradients: TensorFlow's
// documented values, a float64 reference written here from the definitions in
// core/resize.h's comment, gradients against central differences, and op cases for GPU
// parity.
#include "rill/ops/image_ops.h"

#include <cmath>

#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace image_ops_test {

MarkTested tested({"ResizeNearestNeighbor", "ResizeBilinear", "ResizeBicubic",
                   "ResizeNearestNeighborGrad", "ResizeBilinearGrad", "ResizeBicubicGrad"});

enum Method { kNearest, kBilinear, kBicubic };

Output Resize(const Scope& s, Method m, Output x, Output size, ops::ResizeAttrs a) {
  if (m == kNearest) return ops::ResizeNearestNeighbor(s, x, size, a);
  if (m == kBilinear) return ops::ResizeBilinear(s, x, size, a);
  return ops::ResizeBicubic(s, x, size, a);
}

absl::StatusOr<Tensor> RunResize(Method m, const Tensor& x, int h, int w, ops::ResizeAttrs a) {
  return RunOp(
      [&](const Scope& s, const auto& in) {
        return Resize(s, m, in[0], ops::Const(s, {h, w}), a);
      },
      {x});
}

// 1-D taps of output position o: (input index, weight), from the definitions.
std::vector<std::pair<int64_t, double>> Taps(Method m, bool align, bool half, int64_t in,
                                             int64_t out, int64_t o) {
  const float scale = align && out > 1 ? float(in - 1) / float(out - 1) : float(in) / float(out);
  const float at = half ? (o + 0.5f) * scale - (m == kNearest ? 0.f : 0.5f) : o * scale;
  auto clamp = [in](int64_t i) { return std::min<int64_t>(in - 1, std::max<int64_t>(0, i)); };
  if (m == kNearest) {
    return {{clamp(align ? std::llround(at) : int64_t(std::floor(at))), 1.0}};
  }
  const int64_t fl = int64_t(std::floor(at));
  if (m == kBilinear) {
    const double t = at - std::floor(at);
    return {{clamp(fl), 1 - t}, {clamp(int64_t(std::ceil(at))), t}};
  }
  const double a = half ? -0.5 : -0.75;
  const double t = std::nearbyint((at - fl) * 1024.0) / 1024;  // TensorFlow's table step
  auto cubic = [a](double d) {
    d = std::abs(d);
    return d <= 1 ? ((a + 2) * d - (a + 3)) * d * d + 1 : ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  };
  std::vector<std::pair<int64_t, double>> taps;
  double sum = 0;
  for (int k = -1; k <= 2; ++k) {
    const bool inside = fl + k >= 0 && fl + k < in;
    const double w = half && !inside ? 0 : cubic(t - k);
    taps.push_back({clamp(fl + k), w});
    sum += w;
  }
  if (half) {
    for (auto& tap : taps) tap.second /= sum;
  }
  return taps;
}

std::vector<double> Reference(Method m, const Tensor& x, int64_t oh, int64_t ow, bool align,
                              bool half) {
  const std::vector<double> v = ToDoubles(x);
  const int64_t N = x.dim_size(0), H = x.dim_size(1), W = x.dim_size(2), C = x.dim_size(3);
  std::vector<double> y;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t c = 0; c < C; ++c) {
          double sum = 0;
          for (auto [r, wr] : Taps(m, align, half, H, oh, i))
            for (auto [q, wq] : Taps(m, align, half, W, ow, j))
              sum += wr * wq * v[((n * H + r) * W + q) * C + c];
          y.push_back(sum);
        }
  return y;
}

// TensorFlow's documented 2x2 -> 3x3 results.
TEST(Resize, TensorFlowsSmallCases) {
  const Tensor x = test::AsTensor<float>({1, 2, 3, 4}, {1, 2, 2, 1});
  auto bilinear = RunResize(kBilinear, x, 3, 3, {});
  ASSERT_TRUE(bilinear.ok()) << bilinear.status();
  test::ExpectTensorNear<float>(
      *bilinear,
      test::AsTensor<float>({1, 5 / 3.f, 2, 7 / 3.f, 3, 10 / 3.f, 3, 11 / 3.f, 4}, {1, 3, 3, 1}),
      1e-6);
  auto nearest = RunResize(kNearest, x, 3, 3, {});
  ASSERT_TRUE(nearest.ok()) << nearest.status();
  test::ExpectTensorEqual<float>(*nearest,
                                 test::AsTensor<float>({1, 1, 2, 1, 1, 2, 3, 3, 4}, {1, 3, 3, 1}));
  auto aligned = RunResize(kNearest, x, 3, 3, ops::ResizeAttrs().AlignCorners(true));
  ASSERT_TRUE(aligned.ok()) << aligned.status();
  test::ExpectTensorEqual<float>(*aligned,
                                 test::AsTensor<float>({1, 2, 2, 3, 4, 4, 3, 4, 4}, {1, 3, 3, 1}));
  auto one = RunResize(kBilinear, x, 1, 1, {});
  ASSERT_TRUE(one.ok()) << one.status();
  test::ExpectTensorEqual<float>(*one, test::AsTensor<float>({1}, {1, 1, 1, 1}));
}

TEST(Resize, MatchesTheDefinitions) {
  const Tensor x = RandomTensor(DT_DOUBLE, {2, 5, 7, 3}, -2, 2, 1);
  for (Method m : {kNearest, kBilinear, kBicubic}) {
    for (auto [align, half] : {std::pair{false, false}, {true, false}, {false, true}}) {
      for (auto [h, w] : {std::pair{3, 4}, {9, 13}, {5, 7}, {1, 1}}) {
        SCOPED_TRACE(absl::StrCat("method ", m, " align ", align, " half ", half, " ", h, "x", w));
        auto got =
            RunResize(m, x, h, w, ops::ResizeAttrs().AlignCorners(align).HalfPixelCenters(half));
        ASSERT_TRUE(got.ok()) << got.status();
        const DataType dt = m == kNearest ? DT_DOUBLE : DT_FLOAT;
        ExpectTensorNear(*got, dt, {2, h, w, 3}, Reference(m, x, h, w, align, half),
                         dt == DT_DOUBLE ? 1e-12 : 2e-5);
      }
    }
  }
}

TEST(Resize, NearestCopiesIntegersExactly) {
  const int64_t big = (int64_t{1} << 60) + 1;
  auto got =
      RunResize(kNearest, test::AsTensor<int64_t>({big, -big, 3, 4}, {1, 2, 2, 1}), 4, 4, {});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->flat<int64_t>()(0), big);
  EXPECT_EQ(got->flat<int64_t>()(3), -big);
}

TEST(Resize, SizeKnownAtConstructionAndErrors) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_UINT8, ops::Placeholder::Shape({2, -1, -1, 3}));
  auto y = ops::ResizeBilinear(s, x, ops::Const(s, {5, 6}));
  EXPECT_EQ(y.output.shape().DebugString(), "[2,5,6,3]");
  EXPECT_EQ(y.output.type(), DT_FLOAT);
  TF_EXPECT_OK(s.status());
  ops::ResizeBicubic(s, x, ops::Const(s, {5, 6}),
                     ops::ResizeAttrs().AlignCorners(true).HalfPixelCenters(true));
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("align_corners"), std::string::npos) << s.status();

  Scope r = Scope::NewRootScope();
  auto size = ops::Placeholder(r, DT_INT32);
  auto z = ops::ResizeNearestNeighbor(r, ops::Const(r, 1.f, {1, 2, 2, 1}), size);
  Session session(r);
  std::vector<Tensor> out;
  const absl::Status st = session.Run({{size, test::AsTensor<int32_t>({0, 3})}}, {z}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("positive"), std::string::npos) << st;
}

// ResizeBilinear and ResizeBicubic give float32 for any input: the numeric side steps a
// float64 input by 1e-2 (the resizes are linear, so any step is exact but for the float32
// rounding of the outputs).
TEST(ResizeGrad, MatchesNumeric) {
  for (Method m : {kNearest, kBilinear, kBicubic}) {
    for (auto [align, half] : {std::pair{false, false}, {true, false}, {false, true}}) {
      for (auto [h, w] : {std::pair{3, 2}, {7, 9}}) {
        SCOPED_TRACE(absl::StrCat("method ", m, " align ", align, " half ", half, " ", h, "x", w));
        // Copied: lambdas capture no structured bindings before C++20 (clang's sanitizer
        // builds refuse them).
        const int oh = h, ow = w;
        const auto a = ops::ResizeAttrs().AlignCorners(align).HalfPixelCenters(half);
        auto build = [=](const Scope& s, const std::vector<Output>& in) {
          return Resize(s, m, in[0], ops::Const(s, {oh, ow}), a);
        };
        const std::vector<Tensor> x = {RandomTensor(DT_DOUBLE, {2, 4, 5, 2}, -1, 1, 2)};
        GradCheckOptions opt;
        opt.delta = 1e-2;
        for (DataType dt : {DT_DOUBLE, DT_FLOAT}) {
          for (bool known : {true, false}) {
            opt.known_shapes = known;
            auto err = GradientError(build, x, dt, opt);
            ASSERT_TRUE(err.ok()) << err.status();
            EXPECT_LT(*err, 1e-4);
          }
        }
      }
    }
  }
}

const bool kMarked = [] {
  GradTestedOps().insert({"ResizeNearestNeighbor", "ResizeBilinear", "ResizeBicubic"});
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (Method m : {kNearest, kBilinear, kBicubic}) {
    for (auto [align, half] : {std::pair{false, false}, {true, false}, {false, true}}) {
      const auto a = ops::ResizeAttrs().AlignCorners(align).HalfPixelCenters(half);
      const std::string what = absl::StrCat(m == kNearest    ? "ResizeNearestNeighbor"
                                            : m == kBilinear ? "ResizeBilinear"
                                                             : "ResizeBicubic",
                                            " align ", align, " half ", half);
      c.push_back({what + " float",
                   [=](const Scope& s, const auto& in) {
                     return Resize(s, m, in[0], ops::Const(s, {7, 4}), a);
                   },
                   {RandomTensor(DT_FLOAT, {2, 5, 6, 3}, -1, 1, 3)}});
      c.push_back({what + " uint8",
                   [=](const Scope& s, const auto& in) {
                     return Resize(s, m, in[0], ops::Const(s, {3, 9}), a);
                   },
                   {RandomTensor(DT_UINT8, {1, 5, 6, 2}, 0, 255, 4)},
                   1e-5,
                   false});
      const Tensor dy = RandomTensor(DT_FLOAT, {2, 7, 4, 3}, -1, 1, 5);
      c.push_back(
          {absl::StrCat(what, " grad"),
           [=](const Scope& s, const auto& in) -> Output {
             if (m == kNearest) {
               return ops::internal::ResizeNearestNeighborGrad(s, in[0], ops::Const(s, {5, 6}), a);
             }
             // grads are float32 whatever the image (TensorFlow's signature).
             const Output g = ops::Cast(s, in[0], DT_FLOAT);
             const Output image = ops::ZerosLike(s, in[1]);
             if (m == kBilinear) return ops::internal::ResizeBilinearGrad(s, g, image, a);
             return ops::internal::ResizeBicubicGrad(s, g, image, a);
           },
           {dy, RandomTensor(DT_FLOAT, {2, 5, 6, 3}, -1, 1, 6)}});
    }
  }
  return c;
}

}  // namespace image_ops_test
}  // namespace

RILL_OP_CASES(image, image_ops_test::Cases);

}  // namespace rill::testing
