// What the ports of TensorFlow's resize kernel tests share (resize_bilinear_op_test.cc,
// resize_bicubic_op_test.cc): a random image and an output size as the op's inputs.
#pragma once

#include <random>

#include "gtest/gtest.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill::resize_test_util {

class RandomImageOpsTest : public OpsTestBase {
 protected:
  // Runs the op on an image of `shape` ([batch, height, width, channels], values drawn in
  // [-1, 1)) resized to out_h x out_w; returns the image.
  Tensor RunOnRandomImage(const TensorShape& shape, int out_h, int out_w) {
    inputs_.clear();
    std::uniform_real_distribution<float> pixel(-1.f, 1.f);
    AddInput<float>(shape, [&](int) { return pixel(rng_); });
    const Tensor image = GetInput(0);
    AddInputFromArray<int32_t>(TensorShape({2}), {out_h, out_w});
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << s;
    return image;
  }

 private:
  std::mt19937 rng_{301};
};

}  // namespace rill::resize_test_util
