// The cases of TensorFlow's tensorflow/core/kernels/image/resize_area_op_test.cc, which
// drive ResizeArea through OpsTestBase (runtime/testing/ops_testutil.h) on random images
// against a plain implementation of the definition, rewritten against rill (the sizes are
// TensorFlow's; the code, the reference included, is ours). rill: the grids of sizes run a
// sample (every input height and width, each target size once, in turn), to keep the
// sanitizer jobs in CI's time; the three large cases run whole.
#include <algorithm>
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "resize_test_util.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace resize_area_op_test {

// Output cell (y, x): the input cells its cover [y s, (y + 1) s) x [x t, (x + 1) t) meets,
// each times the part of it covered, summed, over s t; s and t in float, as the kernel's.
Tensor Baseline(const Tensor& in, int oh, int ow) {
  const int64_t h = in.dim_size(1), w = in.dim_size(2), c = in.dim_size(3);
  const float s = static_cast<float>(h) / static_cast<float>(oh);
  const float t = static_cast<float>(w) / static_cast<float>(ow);
  auto part = [](int64_t i, double lo, double hi) {
    return std::min(hi, i + 1.0) - std::max(lo, static_cast<double>(i));
  };
  Tensor out(DT_FLOAT, TensorShape({1, oh, ow, c}));
  const float* x = in.base<float>();
  for (int y = 0; y < oh; ++y) {
    const double y0 = static_cast<double>(y * s), y1 = static_cast<double>((y + 1) * s);
    for (int xo = 0; xo < ow; ++xo) {
      const double x0 = static_cast<double>(xo * t), x1 = static_cast<double>((xo + 1) * t);
      for (int64_t k = 0; k < c; ++k) {
        double sum = 0;
        for (int64_t i = static_cast<int64_t>(std::floor(y0)); i < std::ceil(y1); ++i) {
          for (int64_t j = static_cast<int64_t>(std::floor(x0)); j < std::ceil(x1); ++j) {
            sum += part(i, y0, y1) * part(j, x0, x1) *
                   x[(std::min(i, h - 1) * w + std::min(j, w - 1)) * c + k];
          }
        }
        out.base<float>()[(y * ow + xo) * c + k] = static_cast<float>(sum / (s * t));
      }
    }
  }
  return out;
}

class ResizeAreaOpTest : public resize_test_util::RandomImageOpsTest {
 protected:
  ResizeAreaOpTest() {
    TF_EXPECT_OK(NodeDefBuilder("resize_area_op", "ResizeArea")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT32))
                     .Attr("align_corners", false)
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
  void RunRandomTest(int in_height, int in_width, int target_height, int target_width,
                     int channels) {
    SCOPED_TRACE(::testing::PrintToString(
        std::vector<int>{in_height, in_width, target_height, target_width, channels}));
    const Tensor image = RunOnRandomImage(TensorShape({1, in_height, in_width, channels}),
                                          target_height, target_width);
    test::ExpectTensorNear<float>(Baseline(image, target_height, target_width), *GetOutput(0),
                                  1e-5);
  }
  void RunManyRandomTests(int channels) {
    int turn = 0;
    for (int in_w : {2, 4, 7, 20, 165}) {
      for (int in_h : {1, 3, 5, 8, 100, 233}) {
        const int targets[] = {1, 2, 3, 50, 113};
        const int target_height = targets[turn++ % 5];
        for (int target_width : {target_height, target_height / 2 + 1}) {
          RunRandomTest(in_h, in_w, target_height, target_width, channels);
        }
      }
    }
  }
};

TEST_F(ResizeAreaOpTest, TestAreaRandom141x186) { RunRandomTest(141, 186, 299, 299, 3); }
TEST_F(ResizeAreaOpTest, TestAreaRandom183x229) { RunRandomTest(183, 229, 299, 299, 3); }
TEST_F(ResizeAreaOpTest, TestAreaRandom749x603) { RunRandomTest(749, 603, 299, 299, 3); }
TEST_F(ResizeAreaOpTest, TestAreaRandomDataSeveralInputsSizes1Channel) { RunManyRandomTests(1); }
TEST_F(ResizeAreaOpTest, TestAreaRandomDataSeveralInputsSizes3Channels) { RunManyRandomTests(3); }
TEST_F(ResizeAreaOpTest, TestAreaRandomDataSeveralInputsSizes4Channels) { RunManyRandomTests(4); }

}  // namespace resize_area_op_test
}  // namespace
}  // namespace rill
