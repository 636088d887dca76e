// The cases of TensorFlow's tensorflow/core/kernels/lrn_op_test.cc, which drive LRN
// through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill (their
// inputs, attributes and expected values are TensorFlow's; the code is ours, the
// reference LRN and the Gaussian inputs included).
#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace lrn_op_test {

constexpr float kTol = 1e-4;

class LRNFloatTest : public OpsTestBase {
 protected:
  void MakeOp(int depth_radius, float bias, float alpha, float beta) {
    TF_ASSERT_OK(NodeDefBuilder("lrn_op", "LRN")
                     .Input(FakeInput())
                     .Attr("depth_radius", depth_radius)
                     .Attr("bias", bias)
                     .Attr("alpha", alpha)
                     .Attr("beta", beta)
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  template <typename T>
  T Attr(const std::string& name) {
    T value{};
    TF_EXPECT_OK(GetNodeAttr(*node_def(), name, &value));
    return value;
  }
  // Every output within kTol of x / (bias + alpha * sum of squares within the radius)^beta.
  void Compare() {
    const Tensor& input = GetInput(0);
    const int64_t depth = input.dim_size(3), rest = input.NumElements() / depth;
    const int64_t radius = Attr<int64_t>("depth_radius");
    const float bias = Attr<float>("bias"), alpha = Attr<float>("alpha"),
                beta = Attr<float>("beta");
    const float* in = input.base<float>();
    const float* out = GetOutput(0)->base<float>();
    for (int64_t i = 0; i < rest; ++i) {
      for (int64_t d = 0; d < depth; ++d) {
        float sum = 0;
        for (int64_t r = std::max<int64_t>(0, d - radius); r < std::min(depth, d + radius + 1);
             ++r) {
          sum += in[i * depth + r] * in[i * depth + r];
        }
        const float want = in[i * depth + d] / std::pow(sum * alpha + bias, beta);
        ASSERT_NEAR(out[i * depth + d], want, kTol) << "at " << i << ", " << d;
      }
    }
  }
  void RandomCase(int depth, int batch, int radius, float bias, float alpha, float beta) {
    MakeOp(radius, bias, alpha / 10, beta);
    std::normal_distribution<float> gaussian;
    AddInput<float>(TensorShape({batch, 1, 1, depth}), [&](int) { return gaussian(rng_); });
    TF_ASSERT_OK(RunOpKernel());
    Compare();
  }
  std::mt19937 rng_{123};
};

TEST_F(LRNFloatTest, Depth96) {
  MakeOp(5, 1.0f, 0.1f, 2.0f);
  AddInput<float>(TensorShape({1, 1, 1, 96}), [](int i) { return static_cast<float>(i + 1); });
  TF_ASSERT_OK(RunOpKernel());
  const float* actual = GetOutput(0)->base<float>();
  EXPECT_NEAR(1. / (10.1 * 10.1), actual[0], kTol);        // 1 / (1 + 0.1 (1^2 + ... 6^2))^2
  EXPECT_NEAR(6. / (51.6 * 51.6), actual[5], kTol);        // ... 1^2 + ... 11^2
  EXPECT_NEAR(64. / (2272.1 * 2272.1), actual[63], kTol);  // ... 59^2 + ... 64^2 (+ 69^2)
  EXPECT_NEAR(65. / (2736.5 * 2736.5), actual[64], kTol);
  EXPECT_NEAR(96. / (5248.1 * 5248.1), actual[95], kTol);
  Compare();
}

TEST_F(LRNFloatTest, Depth16) {
  MakeOp(5, 1.0f, 0.1f, 2.0f);
  AddInput<float>(TensorShape({1, 1, 1, 16}), [](int i) { return static_cast<float>(i + 1); });
  TF_ASSERT_OK(RunOpKernel());
  const float* actual = GetOutput(0)->base<float>();
  EXPECT_NEAR(1. / (10.1 * 10.1), actual[0], kTol);
  EXPECT_NEAR(6. / (51.6 * 51.6), actual[5], kTol);
  EXPECT_NEAR(16. / (112.1 * 112.1), actual[15], kTol);
  Compare();
}

// TensorFlow's TCASEs: depth, batch, radius, bias, alpha (x10), beta.
TEST_F(LRNFloatTest, T0) { RandomCase(4, 2, 2, 1.0f, 1.0f, 2.0f); }
TEST_F(LRNFloatTest, T1) { RandomCase(16, 1, 5, 1.0f, 1.0f, 2.0f); }
TEST_F(LRNFloatTest, T2) { RandomCase(16, 32, 2, 1.0f, 2.0f, 1.0f); }
TEST_F(LRNFloatTest, T3) { RandomCase(128, 4, 3, 2.0f, 1.0f, 1.0f); }

}  // namespace lrn_op_test
}  // namespace
}  // namespace rill
