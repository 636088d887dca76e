// The cases of TensorFlow's tensorflow/core/kernels/image/resize_bicubic_op_test.cc,
// which drive ResizeBicubic (legacy sampling: no half-pixel centers, no aligned corners)
// through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill (their
// sizes and expected values are TensorFlow's; the code is ours, its reference resize
// included: Keys' cubic with a = -0.75, the fraction in 1/1024 steps). rill: the random
// cases run a sample of TensorFlow's grid of sizes (batch 2, three of its sizes per axis,
// 1 and 4 channels), too long whole for the sanitizer builds in CI.
#include <algorithm>
#include <array>
#include <cmath>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "resize_test_util.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace resize_bicubic_op_test {

// Keys' cubic convolution kernel at distance x, a = -0.75.
double Keys(double x) {
  constexpr double a = -0.75;
  x = std::abs(x);
  if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

// The four taps around output position o: input indices clamped to [0, limit), weights of
// the fraction rounded to 1/1024.
void Taps(float scale, int64_t o, int64_t limit, std::array<int64_t, 4>* at,
          std::array<float, 4>* w) {
  const int64_t in = static_cast<int64_t>(scale * o);
  const float in_float = scale * o;
  const double t = std::lrint((in_float - in) * 1024.0f) / 1024.0;
  for (int k = 0; k < 4; ++k) {
    (*at)[k] = std::clamp<int64_t>(in - 1 + k, 0, limit - 1);
    (*w)[k] = static_cast<float>(Keys(t - (k - 1)));
  }
}

Tensor Reference(const Tensor& in, int64_t out_h, int64_t out_w) {
  const int64_t n = in.dim_size(0), h = in.dim_size(1), w = in.dim_size(2), c = in.dim_size(3);
  Tensor out(DT_FLOAT, TensorShape({n, out_h, out_w, c}));
  const float sy = static_cast<float>(h) / out_h, sx = static_cast<float>(w) / out_w;
  const float* x = in.base<float>();
  float* y = out.base<float>();
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t oy = 0; oy < out_h; ++oy) {
      std::array<int64_t, 4> ry;
      std::array<float, 4> wy;
      Taps(sy, oy, h, &ry, &wy);
      for (int64_t ox = 0; ox < out_w; ++ox) {
        std::array<int64_t, 4> rx;
        std::array<float, 4> wx;
        Taps(sx, ox, w, &rx, &wx);
        for (int64_t k = 0; k < c; ++k) {
          float sum = 0;
          for (int i = 0; i < 4; ++i) {
            float row = 0;
            for (int j = 0; j < 4; ++j) row += wx[j] * x[((b * h + ry[i]) * w + rx[j]) * c + k];
            sum += wy[i] * row;
          }
          *y++ = sum;
        }
      }
    }
  }
  return out;
}

class ResizeBicubicOpTest : public resize_test_util::RandomImageOpsTest {
 protected:
  ResizeBicubicOpTest() {
    TF_EXPECT_OK(NodeDefBuilder("resize_bicubic_op", "ResizeBicubic")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT32))
                     .Attr("align_corners", false)
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
  void RunRandomTest(int batch, int64_t in_h, int64_t in_w, int out_h, int out_w, int channels) {
    const Tensor image = RunOnRandomImage(TensorShape({batch, in_h, in_w, channels}), out_h, out_w);
    test::ExpectTensorNear<float>(Reference(image, out_h, out_w), *GetOutput(0), 0.00001);
  }
};

// When scaling down to one pixel, the top-left one is taken.
TEST_F(ResizeBicubicOpTest, TestBicubic2x2To1x1) {
  AddInputFromArray<float>(TensorShape({1, 2, 2, 1}), {1, 2, 3, 4});
  AddInputFromArray<int32_t>(TensorShape({2}), {1, 1});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({1}, {1, 1, 1, 1}));
}

TEST_F(ResizeBicubicOpTest, TestBicubic2x2To0x0) {
  AddInputFromArray<float>(TensorShape({1, 2, 2, 1}), {1, 2, 3, 4});
  AddInputFromArray<int32_t>(TensorShape({2}), {0, 0});
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(s.message(), "output dimensions must be positive")) << s;
}

TEST_F(ResizeBicubicOpTest, TestBicubicRandomTo299x299) {
  for (int channels : {1, 3}) {
    RunRandomTest(2, 141, 186, 299, 299, channels);
    RunRandomTest(2, 183, 229, 299, 299, channels);
  }
  RunRandomTest(2, 749, 603, 299, 299, 3);  // rill: 3 channels only (time in CI)
}

TEST_F(ResizeBicubicOpTest, TestAreaRandomDataSeveralInputsSizes) {
  for (int channels : {1, 4}) {
    for (int in_w : {2, 7, 165}) {
      for (int in_h : {1, 5, 233}) {
        for (int out_h : {1, 3, 113}) {
          RunRandomTest(2, in_h, in_w, out_h, out_h, channels);
          RunRandomTest(2, in_h, in_w, out_h, out_h / 2 + 1, channels);
        }
      }
    }
  }
}

}  // namespace resize_bicubic_op_test
}  // namespace
}  // namespace rill
