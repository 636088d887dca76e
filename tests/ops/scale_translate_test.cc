// ScaleAndTranslate and its gradient: values against a float64 sampling written here from
// the definition (every kernel, with and without antialias, up and down, translated),
// exact shifts and copies, constants kept by the normalization, the gradient as the
// transpose (<S x, dy> == <x, S' dy>) and against central differences, and the checks.
#include <cmath>
#include <numeric>

#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/image_ops.h"

namespace rill::testing {
namespace {
namespace scale_translate_test {

MarkTested tested({"ScaleAndTranslate", "ScaleAndTranslateGrad"});
const bool kMarked = [] {
  GradTestedOps().insert("ScaleAndTranslate");
  return true;
}();

const char* kKernels[] = {"lanczos1", "lanczos3", "lanczos5",  "gaussian",
                          "box",      "triangle", "keyscubic", "mitchellcubic"};

// The kernels and their radii, in float64.
double Kernel(const std::string& k, double x, double* radius) {
  const double pi = M_PI;
  auto lanczos = [&](double r) {
    *radius = r;
    if (x > r) return 0.0;
    if (x <= 1e-3) return 1.0;
    return r * std::sin(pi * x) * std::sin(pi * x / r) / (pi * pi * x * x);
  };
  if (k == "lanczos1") return lanczos(1);
  if (k == "lanczos3") return lanczos(3);
  if (k == "lanczos5") return lanczos(5);
  if (k == "gaussian") return *radius = 1.5, x >= 1.5 ? 0 : std::exp(-2 * x * x);
  if (k == "box") return *radius = 1, x < 0.5 ? 1 : x == 0.5 ? 0.5 : 0;
  if (k == "triangle") return *radius = 1, x < 1 ? 1 - x : 0;
  *radius = 2;
  if (x >= 2) return 0;
  if (k == "keyscubic")
    return x >= 1 ? -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 : 1.5 * x * x * x - 2.5 * x * x + 1;
  return x >= 1 ? -7.0 / 18 * x * x * x + 2 * x * x - 10.0 / 3 * x + 16.0 / 9
                : 7.0 / 6 * x * x * x - 2 * x * x + 8.0 / 9;
}

// w[o][i]: the weight of input pixel i in output pixel o along an axis.
std::vector<std::vector<double>> Weights(const std::string& k, int64_t in, int64_t out,
                                         double scale, double translation, bool antialias) {
  double radius;
  Kernel(k, 0, &radius);
  const double stretch = antialias ? std::max(1 / scale, 1.0) : 1.0;
  std::vector<std::vector<double>> w(out, std::vector<double>(in, 0.0));
  for (int64_t o = 0; o < out; ++o) {
    const double at = (o + 0.5 - translation) / scale;
    if (at < 0 || at > in) continue;
    double sum = 0;
    for (int64_t i = 0; i < in; ++i) {
      const double d = i + 0.5 - at;
      if (std::abs(d) > radius * stretch) continue;  // outside the span
      w[o][i] = Kernel(k, std::abs(d) / stretch, &radius);
      sum += w[o][i];
    }
    for (double& v : w[o]) v = sum == 0 ? 0 : v / sum;
  }
  return w;
}

std::vector<double> Reference(const Tensor& x, int64_t oh, int64_t ow, const std::string& k,
                              std::pair<double, double> scale, std::pair<double, double> shift,
                              bool antialias) {
  const int64_t B = x.dim_size(0), H = x.dim_size(1), W = x.dim_size(2), C = x.dim_size(3);
  const auto wy = Weights(k, H, oh, scale.first, shift.first, antialias);
  const auto wx = Weights(k, W, ow, scale.second, shift.second, antialias);
  const std::vector<double> v = ToDoubles(x);
  std::vector<double> y;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t p = 0; p < oh; ++p)
      for (int64_t q = 0; q < ow; ++q)
        for (int64_t c = 0; c < C; ++c) {
          double sum = 0;
          for (int64_t i = 0; i < H; ++i)
            for (int64_t j = 0; j < W; ++j)
              sum += wy[p][i] * wx[q][j] * v[((b * H + i) * W + j) * C + c];
          y.push_back(sum);
        }
  return y;
}

Output Sample(const Scope& s, Input x, int oh, int ow, std::pair<float, float> scale,
              std::pair<float, float> shift, const std::string& k, bool antialias) {
  return ops::ScaleAndTranslate(s, x, {oh, ow}, {scale.first, scale.second},
                                {shift.first, shift.second},
                                ops::ScaleAndTranslate::KernelType(k).Antialias(antialias));
}

TEST(ScaleAndTranslate, MatchesTheDefinition) {
  struct Geometry {
    int oh, ow;
    std::pair<float, float> scale, shift;
  };
  const Geometry kGeometries[] = {{9, 14, {1.8f, 2.1f}, {0.5f, 0.7f}},    // up
                                  {3, 2, {0.37f, 0.29f}, {0.3f, -0.4f}},  // down
                                  {5, 7, {1, 1}, {1.5f, -2.25f}},         // shifted
                                  {6, 4, {0.9f, 0.6f}, {-30.f, 0.2f}}};   // partly outside
  const Tensor x = RandomTensor(DT_DOUBLE, {2, 5, 7, 3}, -2, 2, 21);
  for (const char* k : kKernels)
    for (const Geometry& g : kGeometries)
      for (bool antialias : {true, false}) {
        SCOPED_TRACE(absl::StrCat(k, " ", g.oh, "x", g.ow, antialias ? " antialias" : ""));
        auto got = RunOp(
            [&](const Scope& s, const auto& in) {
              return Sample(s, in[0], g.oh, g.ow, g.scale, g.shift, k, antialias);
            },
            {x});
        ASSERT_TRUE(got.ok()) << got.status();
        ExpectTensorNear(*got, DT_FLOAT, {2, g.oh, g.ow, 3},
                         Reference(x, g.oh, g.ow, k, g.scale, g.shift, antialias), 2e-5);
      }
}

TEST(ScaleAndTranslate, WholePixelShiftsCopyAndConstantsStay) {
  const Tensor x = RandomTensor(DT_FLOAT, {1, 4, 5, 2}, -1, 1, 22);
  // Scale 1 with a triangle reads one pixel: translation (1, -2) moves pixel (i, j) to
  // (i + 1, j - 2); what comes from outside is 0.
  auto got = RunOp(
      [&](const Scope& s, const auto& in) {
        return Sample(s, in[0], 4, 5, {1, 1}, {1, -2}, "triangle", false);
      },
      {x});
  ASSERT_TRUE(got.ok()) << got.status();
  const std::vector<double> v = ToDoubles(x);
  std::vector<double> want(v.size(), 0.0);
  for (int i = 1; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      for (int c = 0; c < 2; ++c) want[(i * 5 + j) * 2 + c] = v[((i - 1) * 5 + j + 2) * 2 + c];
  ExpectTensorNear(*got, DT_FLOAT, {1, 4, 5, 2}, want, 0);
  // A constant image sampled inside stays constant: each pixel's weights sum to 1.
  for (const char* k : kKernels) {
    auto flat = RunOp(
        [&](const Scope& s, const auto&) {
          return Sample(s, ops::Const(s, 3.5f, {1, 11, 13, 1}), 4, 5, {0.35f, 0.4f}, {0.1f, 0.2f},
                        k, true);
        },
        {});
    ASSERT_TRUE(flat.ok()) << flat.status();
    ExpectTensorNear(*flat, DT_FLOAT, {1, 4, 5, 1}, std::vector<double>(20, 3.5), 1e-5);
  }
}

// The gradient op is the sampling's transpose: <S x, dy> == <x, S' dy> for any x and dy.
TEST(ScaleAndTranslateGrad, IsTheTranspose) {
  const Tensor x = RandomTensor(DT_DOUBLE, {2, 6, 5, 3}, -1, 1, 23);
  const Tensor dy = RandomTensor(DT_FLOAT, {2, 4, 9, 3}, -1, 1, 24);
  for (const char* k : kKernels)
    for (bool antialias : {true, false}) {
      SCOPED_TRACE(absl::StrCat(k, antialias ? " antialias" : ""));
      Scope s = Scope::NewRootScope();
      auto px = ops::Placeholder(s, DT_DOUBLE);
      auto pdy = ops::Placeholder(s, DT_FLOAT);
      auto attrs = ops::ScaleAndTranslate::KernelType(k).Antialias(antialias);
      auto y = ops::ScaleAndTranslate(s, px, {4, 9}, {0.7f, 1.9f}, {0.4f, -0.8f}, attrs);
      auto dx =
          ops::internal::ScaleAndTranslateGrad(s, pdy, px, {0.7f, 1.9f}, {0.4f, -0.8f}, attrs);
      Session session(s);
      std::vector<Tensor> out;
      TF_ASSERT_OK(session.Run({{px, x}, {pdy, dy}}, {y, dx}, &out));
      ASSERT_EQ(out[1].dtype(), DT_DOUBLE);
      const auto a = ToDoubles(out[0]), b = ToDoubles(dy), c = ToDoubles(x), d = ToDoubles(out[1]);
      const double lhs = std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
      const double rhs = std::inner_product(c.begin(), c.end(), d.begin(), 0.0);
      EXPECT_NEAR(lhs, rhs, 1e-5 * std::max(1.0, std::abs(lhs)));
    }
}

// Linear in the image, so a wide step is exact up to the float32 output's rounding.
TEST(ScaleAndTranslate, GradientsMatchNumeric) {
  const std::vector<Tensor> x = {RandomTensor(DT_DOUBLE, {1, 4, 4, 2}, -1, 1, 25)};
  GradCheckOptions opt;
  opt.delta = 1e-2;
  for (const char* k : {"lanczos3", "keyscubic", "gaussian", "triangle"})
    for (bool antialias : {true, false}) {
      auto build = [=](const Scope& s, const std::vector<Output>& in) {
        return Sample(s, in[0], 3, 7, {0.6f, 1.7f}, {0.3f, -0.6f}, k, antialias);
      };
      for (DataType dt : {DT_DOUBLE, DT_FLOAT})
        for (bool known : {true, false}) {
          SCOPED_TRACE(absl::StrCat(k, antialias ? " antialias " : " ", DataTypeString(dt)));
          opt.known_shapes = known;
          auto err = GradientError(build, x, dt, opt);
          ASSERT_TRUE(err.ok()) << err.status();
          EXPECT_LT(*err, 1e-4);
        }
    }
}

TEST(ScaleAndTranslate, ShapesAndChecksWhenAdded) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_UINT8, ops::Placeholder::Shape({-1, 5, 6, 3}));
  auto y = ops::ScaleAndTranslate(s, x, {7, 2}, {1.4f, 0.3f}, {0.f, 0.f});
  TF_ASSERT_OK(s.status());
  EXPECT_EQ(y.resized_images.shape().DebugString(), "[?,7,2,3]");
  EXPECT_EQ(y.resized_images.type(), DT_FLOAT);
  for (auto [scale, kernel, says] :
       std::vector<std::tuple<std::vector<float>, std::string, std::string>>{
           {{1, 0}, "lanczos3", "greater than 0"},
           {{1, 1, 1}, "lanczos3", "2 values"},
           {{1, 1}, "lanczos2", "kernel_type"}}) {
    Scope t = Scope::NewRootScope();
    ops::ScaleAndTranslate(t, ops::Const(t, 1.f, {1, 4, 4, 1}), {2, 2},
                           ops::Const(t, scale, {static_cast<int64_t>(scale.size())}), {0.f, 0.f},
                           ops::ScaleAndTranslate::KernelType(kernel));
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << says;
    EXPECT_NE(t.status().message().find(says), std::string::npos) << t.status();
  }
}

}  // namespace scale_translate_test
}  // namespace
}  // namespace rill::testing
