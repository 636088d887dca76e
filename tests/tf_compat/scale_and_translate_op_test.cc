// The cases of TensorFlow's tensorflow/core/kernels/image/scale_and_translate_op_test.cc,
// which drive ScaleAndTranslate through OpsTestBase (runtime/testing/ops_testutil.h),
// rewritten against rill (their images, sizes, kernels, scales, translations and
// tolerance are TensorFlow's; the code is ours, its direct, non-separable reference
// included: output pixel o samples the input around (o + 0.5 - translation) / scale with
// the kernel widened by 1 / scale when shrinking with antialias, the weights normalized).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace scale_and_translate_op_test {

struct Kernel {
  float radius;
  float (*value)(float);
};

template <int R>
float Lanczos(float x) {
  x = std::abs(x);
  if (x > R) return 0;
  const float px = x * std::numbers::pi_v<float>;
  if (px < 1e-3f) return 1;
  return R * std::sin(px) * std::sin(px / R) / (px * px);
}
float Box(float x) {
  x = std::abs(x);
  return x < 0.5f ? 1.f : (x == 0.5f ? 0.5f : 0.f);
}
float Triangle(float x) {
  x = std::abs(x);
  return x < 1 ? 1 - x : 0;
}
float KeysCubic(float x) {  // a = -0.5
  x = std::abs(x);
  if (x < 1) return ((1.5f * x - 2.5f) * x) * x + 1;
  if (x < 2) return ((-0.5f * x + 2.5f) * x - 4) * x + 2;
  return 0;
}
float MitchellCubic(float x) {  // B = C = 1/3
  x = std::abs(x);
  if (x < 1) return (7.f / 6 * x - 2) * x * x + 8.f / 9;
  if (x < 2) return ((-7.f / 18 * x + 2) * x - 10.f / 3) * x + 16.f / 9;
  return 0;
}

Kernel KernelNamed(const std::string& name) {
  if (name == "lanczos1") return {1, Lanczos<1>};
  if (name == "lanczos3") return {3, Lanczos<3>};
  if (name == "lanczos5") return {5, Lanczos<5>};
  if (name == "box") return {1, Box};
  if (name == "triangle") return {1, Triangle};
  if (name == "keyscubic") return {2, KeysCubic};
  return {2, MitchellCubic};
}

// One output pixel at input position (fy, fx) of batch b; `inv` = 1 / scale per axis.
void Sample(const Kernel& k, bool antialias, const Tensor& img, int64_t b, float inv_y, float inv_x,
            float fy, float fx, float* dest) {
  const int64_t h = img.dim_size(1), w = img.dim_size(2), c = img.dim_size(3);
  std::fill(dest, dest + c, 0.f);
  if (fx < 0 || fy < 0 || fx > w || fy > h) return;
  const float ky = antialias ? std::max(inv_y, 1.f) : 1.f,
              kx = antialias ? std::max(inv_x, 1.f) : 1.f;
  auto span = [&](float f, float ks, int64_t n, int64_t* lo, int64_t* hi) {
    *lo = std::clamp<int64_t>(std::ceil(f - k.radius * ks - 0.5f), 0, n - 1);
    *hi = std::clamp<int64_t>(std::floor(f + k.radius * ks - 0.5f), 0, n - 1) + 1;
  };
  int64_t y0, y1, x0, x1;
  span(fy, ky, h, &y0, &y1);
  span(fx, kx, w, &x0, &x1);
  const float* px = img.base<float>();
  float total = 0;
  for (int64_t y = y0; y < y1; ++y) {
    const float wy = k.value((y + 0.5f - fy) / ky);
    for (int64_t x = x0; x < x1; ++x) {
      const float weight = wy * k.value((x + 0.5f - fx) / kx);
      total += weight;
      for (int64_t ch = 0; ch < c; ++ch) dest[ch] += px[((b * h + y) * w + x) * c + ch] * weight;
    }
  }
  if (std::abs(total) >= 1000.f * std::numeric_limits<float>::min()) {
    for (int64_t ch = 0; ch < c; ++ch) dest[ch] /= total;
  }
}

class ScaleAndTranslateOpTest : public OpsTestBase {
 protected:
  void CreateOp(const std::string& kernel_type, bool antialias) {
    TF_EXPECT_OK(NodeDefBuilder("scale_and_translate_op", "ScaleAndTranslate")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT32))
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_FLOAT))
                     .Attr("kernel_type", kernel_type)
                     .Attr("antialias", antialias)
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
    kernel_ = KernelNamed(kernel_type);
    antialias_ = antialias;
  }
  // Squares of `square` pixels, each of random colors (0 to 255) per channel.
  void SetCheckerboardImageInput(int batch, int rows, int cols, int square, int channels) {
    inputs_.clear();
    std::uniform_real_distribution<float> color(0.f, 255.f);
    std::vector<float> colors(static_cast<size_t>(batch * rows * cols * channels));
    for (float& v : colors) v = color(rng_);
    const int h = rows * square, w = cols * square;
    AddInput<float>(TensorShape({batch, h, w, channels}), [&](int i) {
      const int ch = i % channels, x = i / channels % w, y = i / channels / w % h;
      const int b = i / channels / w / h;
      return colors[static_cast<size_t>(((b * rows + y / square) * cols + x / square) * channels +
                                        ch)];
    });
  }
  // scale and translation as (x, y), as TensorFlow's test gives them; the op takes (y, x).
  void RunTest(int out_h, int out_w, float scale_x, float scale_y, float tr_x, float tr_y) {
    AddInputFromArray<int32_t>(TensorShape({2}), {out_h, out_w});
    AddInputFromArray<float>(TensorShape({2}), {scale_y, scale_x});
    AddInputFromArray<float>(TensorShape({2}), {tr_y, tr_x});
    TF_ASSERT_OK(RunOpKernel());
    const Tensor& img = GetInput(0);
    const int64_t n = img.dim_size(0), c = img.dim_size(3);
    Tensor expected(allocator(), DT_FLOAT, TensorShape({n, out_h, out_w, c}));
    float* e = expected.base<float>();
    for (int64_t b = 0; b < n; ++b) {
      for (int y = 0; y < out_h; ++y) {
        const float fy = (y + 0.5f) / scale_y - tr_y / scale_y;
        for (int x = 0; x < out_w; ++x, e += c) {
          const float fx = (x + 0.5f) / scale_x - tr_x / scale_x;
          Sample(kernel_, antialias_, img, b, 1 / scale_y, 1 / scale_x, fy, fx, e);
        }
      }
    }
    test::ExpectTensorNear<float>(expected, *GetOutput(0), 1e-2);
  }
  Kernel kernel_{};
  bool antialias_ = false;
  std::mt19937 rng_{42};
};

TEST_F(ScaleAndTranslateOpTest, IdentityTest) {
  CreateOp("lanczos3", true);
  SetCheckerboardImageInput(2, 16, 13, 12, 3);
  RunTest(16 * 12, 13 * 12, 1, 1, 0, 0);
}

TEST_F(ScaleAndTranslateOpTest, UpsampleTest) {
  CreateOp("lanczos3", true);
  SetCheckerboardImageInput(2, 16, 13, 12, 3);
  RunTest(16 * 12 * 2, 13 * 12 * 2, 2, 2, 0, 0);
}

TEST_F(ScaleAndTranslateOpTest, DownsampleTest) {
  CreateOp("lanczos3", true);
  SetCheckerboardImageInput(2, 16, 13, 12, 3);
  RunTest(16 * 12 / 2, 13 * 12 / 2, 0.5f, 0.5f, 0, 0);
}

TEST_F(ScaleAndTranslateOpTest, DownsampleToASinglePixelTest) {
  for (bool antialias : {true, false}) {
    CreateOp("lanczos3", antialias);
    SetCheckerboardImageInput(2, 16, 13, 12, 3);
    RunTest(1, 1, 1.0f / (16 * 12), 1.0f / (13 * 12), 0, 0);
  }
}

// Anti-aliasing changes nothing when growing: both match the reference with it on.
TEST_F(ScaleAndTranslateOpTest, UsampleFromASinglePixelTest) {
  for (bool antialias : {true, false}) {
    CreateOp("lanczos3", antialias);
    antialias_ = true;
    SetCheckerboardImageInput(2, 1, 1, 1, 3);
    RunTest(10, 17, 17, 10, 0, 0);
  }
}

TEST_F(ScaleAndTranslateOpTest, ScaleAndTranslationTest) {
  for (bool antialias : {true, false}) {
    CreateOp("lanczos3", antialias);
    SetCheckerboardImageInput(2, 11, 7, 5, 3);
    RunTest(49, 51, 1.25f, 0.6f, 4.1f, -3.1f);
  }
}

TEST_F(ScaleAndTranslateOpTest, TestKernelTypes) {
  for (const char* kernel :
       {"lanczos1", "lanczos3", "lanczos5", "box", "triangle", "keyscubic", "mitchellcubic"}) {
    SCOPED_TRACE(kernel);
    CreateOp(kernel, true);
    SetCheckerboardImageInput(2, 10, 11, 1, 3);
    RunTest(9, 11, 1.9f, 1.9f, 0.3f, 2.1f);
  }
}

}  // namespace scale_and_translate_op_test
}  // namespace
}  // namespace rill
