// The cases of TensorFlow's tensorflow/core/kernels/image/resize_bilinear_op_test.cc,
// which drive ResizeBilinear through OpsTestBase (runtime/testing/ops_testutil.h),
// rewritten against rill (their inputs and expected values are TensorFlow's; the code is
// ours, its reference resize included). rill: the random cases run a sample of
// TensorFlow's grid of sizes (batch 2 and three of its sizes per axis: 162 resizes, where
// TensorFlow's whole grid is 2,700, too long for the sanitizer builds in CI), and on the
// CPU only: the op tester holds the GPU kernel to the CPU's.
#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "resize_test_util.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace resize_bilinear_op_test {

enum class Mode { kLegacy, kHalfPixelCenters, kAlignCorners };

// The textbook resize the kernel must match: output pixel y samples input row
// y * scale (y + 0.5) * scale - 0.5 with half-pixel centers), lerped between the rows
// below and above it, clamped to the image.
Tensor Reference(const Tensor& in, int64_t out_h, int64_t out_w, Mode mode) {
  const int64_t n = in.dim_size(0), h = in.dim_size(1), w = in.dim_size(2), c = in.dim_size(3);
  Tensor out(DT_FLOAT, TensorShape({n, out_h, out_w, c}));
  auto scale = [mode](int64_t from, int64_t to) {
    return mode == Mode::kAlignCorners && to > 1 ? static_cast<float>(from - 1) / (to - 1)
                                                 : static_cast<float>(from) / to;
  };
  auto source = [mode](int64_t o, float s) {
    return mode == Mode::kHalfPixelCenters ? (static_cast<float>(o) + 0.5f) * s - 0.5f
                                           : static_cast<float>(o) * s;
  };
  const float sy = scale(h, out_h), sx = scale(w, out_w);
  const float* x = in.base<float>();
  float* y = out.base<float>();
  auto at = [&](int64_t b, int64_t r, int64_t q, int64_t k) {
    return x[((b * h + r) * w + q) * c + k];
  };
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t oy = 0; oy < out_h; ++oy) {
      const float fy = source(oy, sy);
      const int64_t top = std::max<int64_t>(std::floor(fy), 0),
                    bottom = std::min<int64_t>(std::ceil(fy), h - 1);
      const float ly = fy - std::floor(fy);
      for (int64_t ox = 0; ox < out_w; ++ox) {
        const float fx = source(ox, sx);
        const int64_t left = std::max<int64_t>(std::floor(fx), 0),
                      right = std::min<int64_t>(std::ceil(fx), w - 1);
        const float lx = fx - std::floor(fx);
        for (int64_t k = 0; k < c; ++k) {
          const float t = at(b, top, left, k) + (at(b, top, right, k) - at(b, top, left, k)) * lx;
          const float u =
              at(b, bottom, left, k) + (at(b, bottom, right, k) - at(b, bottom, left, k)) * lx;
          *y++ = t + (u - t) * ly;
        }
      }
    }
  }
  return out;
}

class ResizeBilinearTest : public resize_test_util::RandomImageOpsTest,
                           public ::testing::WithParamInterface<Mode> {
 protected:
  void SetUp() override {
    TF_EXPECT_OK(NodeDefBuilder("resize_bilinear_op", "ResizeBilinear")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT32))
                     .Attr("align_corners", GetParam() == Mode::kAlignCorners)
                     .Attr("half_pixel_centers", GetParam() == Mode::kHalfPixelCenters)
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
  // TensorFlow's TestResize: random pixels, checked against the reference within 5e-5.
  void TestResize(int batch, int in_h, int in_w, int channels, int out_h, int out_w) {
    const Tensor image = RunOnRandomImage(TensorShape({batch, in_h, in_w, channels}), out_h, out_w);
    test::ExpectClose(Reference(image, out_h, out_w, GetParam()), *GetOutput(0), 5e-5);
  }
  void ExpectResize(const TensorShape& shape, const std::vector<float>& pixels, int out_h,
                    int out_w, const std::vector<float>& want) {
    AddInputFromArray<float>(shape, pixels);
    AddInputFromArray<int32_t>(TensorShape({2}), {out_h, out_w});
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectClose(
        test::AsTensor<float>(want, {shape.dim_size(0), out_h, out_w, shape.dim_size(3)}),
        *GetOutput(0));
  }
};

using ResizeBilinearOpTest = ResizeBilinearTest;
using ResizeBilinearHalfPixelCentersOpTest = ResizeBilinearTest;
using ResizeBilinearOpAlignCornersTest = ResizeBilinearTest;

const TensorShape k2x2({1, 2, 2, 1}), k3x3({1, 3, 3, 1}), k4x4({1, 4, 4, 1});
const std::vector<float> k1to4 = {1, 2, 3, 4}, k1to9 = {1, 2, 3, 4, 5, 6, 7, 8, 9};
const std::vector<float> k1to16 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

TEST_P(ResizeBilinearOpTest, TestResizeRandomDataSeveralInputsSizes) {
  for (int channels : {1, 3, 4}) {
    for (int in_h : {2, 7, 165}) {
      for (int in_w : {1, 5, 233}) {
        for (int out_h : {1, 3, 113}) {
          TestResize(2, in_h, in_w, channels, out_h, out_h);
          TestResize(2, in_h, in_w, channels, out_h / 2 + 1, out_h);
        }
      }
    }
  }
}

// When scaling down to one pixel, the top-left one is taken.
TEST_P(ResizeBilinearOpTest, TestBilinear2x2To1x1) { ExpectResize(k2x2, k1to4, 1, 1, {1}); }

TEST_P(ResizeBilinearOpTest, TestBilinearRandom2x2To1x1) {
  TestResize(1, 2, 2, 1, 1, 1);
  EXPECT_EQ(GetOutput(0)->flat<float>()(0), GetInput(0).flat<float>()(0));
}

TEST_P(ResizeBilinearOpTest, TestBilinear2x2To3x3) {
  ExpectResize(k2x2, k1to4, 3, 3, {1, 5.0f / 3, 2, 7.0f / 3, 3, 10.0f / 3, 3, 11.0f / 3, 4});
}

TEST_P(ResizeBilinearOpTest, TestBilinear3x3To2x2) {
  ExpectResize(k3x3, k1to9, 2, 2, {1, 2.5, 5.5, 7});
}

TEST_P(ResizeBilinearOpTest, TestBilinear3x3To4x4) {
  ExpectResize(k3x3, k1to9, 4, 4,
               {1, 1.75, 2.5, 3, 3.25, 4, 4.75, 5.25, 5.5, 6.25, 7, 7.5, 7, 7.75, 8.5, 9});
}

TEST_P(ResizeBilinearOpTest, TestBilinear4x4To3x3) {
  ExpectResize(
      k4x4, k1to16, 3, 3,
      {1, 7.0f / 3, 11.0f / 3, 19.0f / 3, 23.0f / 3, 27.0f / 3, 35.0f / 3, 39.0f / 3, 43.0f / 3});
}

TEST_P(ResizeBilinearOpTest, TestBilinear2x2To3x3Batch2) {
  const std::vector<float> one = {1, 5.0f / 3, 2, 7.0f / 3, 3, 10.0f / 3, 3, 11.0f / 3, 4};
  std::vector<float> two = one;
  two.insert(two.end(), one.begin(), one.end());
  ExpectResize(TensorShape({2, 2, 2, 1}), {1, 2, 3, 4, 1, 2, 3, 4}, 3, 3, two);
}

TEST_P(ResizeBilinearOpTest, TestBilinear2x2x2To3x3x2) {
  ExpectResize(TensorShape({1, 2, 2, 2}), {1, -1, 2, -2, 3, -3, 4, -4}, 3, 3,
               {1, -1, 5.0f / 3, -5.0f / 3, 2, -2, 7.0f / 3, -7.0f / 3, 3, -3, 10.0f / 3,
                -10.0f / 3, 3, -3, 11.0f / 3, -11.0f / 3, 4, -4});
}

TEST_P(ResizeBilinearOpTest, TestBilinear2x2To4x4) {
  ExpectResize(k2x2, k1to4, 4, 4, {1, 1.5, 2, 2, 2, 2.5, 3, 3, 3, 3.5, 4, 4, 3, 3.5, 4, 4});
}

// TensorFlow's Test1 ... Test6: similar, smaller, larger and equal sizes to 299x299.
TEST_P(ResizeBilinearOpTest, TestSizesAround299) {
  for (int channels : {1, 3}) {
    TestResize(1, 183, 299, channels, 299, 299);
    TestResize(1, 141, 186, channels, 299, 299);
    TestResize(1, 749, 603, channels, 299, 299);
    TestResize(1, 299, 299, channels, 299, 299);
    TestResize(1, 298, 297, channels, 299, 299);
    TestResize(1, 304, 303, channels, 299, 299);
  }
}

TEST_P(ResizeBilinearOpTest, TestInvalidOutputSize) {
  AddInputFromArray<float>(k2x2, k1to4);
  AddInputFromArray<int32_t>(TensorShape({2}), {0, 0});
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(s.message(), "output dimensions must be positive")) << s;
}

TEST_P(ResizeBilinearOpTest, TestInvalidInputShape) {
  AddInputFromArray<float>(TensorShape({2, 2, 1}), k1to4);
  AddInputFromArray<int32_t>(TensorShape({2}), {4, 4});
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(s.message(), "input must be 4-dimensional")) << s;
}

TEST_P(ResizeBilinearOpTest, TestInvalidSizeDim) {
  AddInputFromArray<float>(k2x2, k1to4);
  AddInputFromArray<int32_t>(TensorShape({2, 1}), {4, 4});
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(s.message(), "shape_t must be 1-dimensional")) << s;
}

TEST_P(ResizeBilinearOpTest, TestInvalidSizeElements) {
  AddInputFromArray<float>(k2x2, k1to4);
  AddInputFromArray<int32_t>(TensorShape({3}), {4, 4, 1});
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(s.message(), "shape_t must have two elements")) << s;
}

TEST_P(ResizeBilinearHalfPixelCentersOpTest, TestDownsamples) {
  TestResize(4, 298, 297, 3, 61, 71);
}

TEST_P(ResizeBilinearHalfPixelCentersOpTest, TestUpsamples) { TestResize(4, 61, 71, 3, 298, 297); }

TEST_P(ResizeBilinearOpAlignCornersTest, TestBilinearAlignCorners2x2To1x1) {
  ExpectResize(k2x2, k1to4, 1, 1, {1});
}

TEST_P(ResizeBilinearOpAlignCornersTest, TestBilinearAlignCorners2x2To3x3) {
  ExpectResize(k2x2, k1to4, 3, 3, {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
}

TEST_P(ResizeBilinearOpAlignCornersTest, TestBilinearAlignCorners3x3To2x2) {
  ExpectResize(k3x3, k1to9, 2, 2, {1, 3, 7, 9});
}

TEST_P(ResizeBilinearOpAlignCornersTest, TestBilinearAlignCorners4x4To3x3) {
  ExpectResize(k4x4, k1to16, 3, 3, {1, 2.5, 4, 7, 8.5, 10, 13, 14.5, 16});
}

INSTANTIATE_TEST_SUITE_P(ResizeBilinearOpTestCpu, ResizeBilinearOpTest,
                         ::testing::Values(Mode::kLegacy));
INSTANTIATE_TEST_SUITE_P(ResizeBilinearHalfPixelCentersOpTestCpu,
                         ResizeBilinearHalfPixelCentersOpTest,
                         ::testing::Values(Mode::kHalfPixelCenters));
INSTANTIATE_TEST_SUITE_P(ResizeBilinearOpAlignCornersTestCpu, ResizeBilinearOpAlignCornersTest,
                         ::testing::Values(Mode::kAlignCorners));

}  // namespace resize_bilinear_op_test
}  // namespace
}  // namespace rill
