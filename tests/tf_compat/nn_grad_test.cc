// The cases of TensorFlow's tensorflow/cc/gradients/nn_grad_test.cc, rewritten against rill
// (inputs and the error bound are TensorFlow's; the code is ours): each gradient against
// ComputeGradientError's numeric Jacobian, within 1e-4.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
using namespace ops;  // NOLINT(build/namespaces)

namespace {

class NNGradTest : public ::testing::Test {
 protected:
  NNGradTest() : scope_(Scope::NewRootScope()) {}

  void RunTest(const Output& x, const TensorShape& x_shape, const Output& y,
               const TensorShape& y_shape) {
    float max_error;
    TF_ASSERT_OK((ComputeGradientError(scope_, {x}, {x_shape}, {y}, {y_shape}, &max_error)));
    EXPECT_LT(max_error, 1e-4);
  }
  void RunTest(const Output& x, const Tensor& x_init_value, const Output& y,
               const TensorShape& y_shape) {
    float max_error;
    TF_ASSERT_OK((ComputeGradientError(scope_, x, x_init_value, y, y_shape, &max_error)));
    EXPECT_LT(max_error, 1e-4);
  }

  Scope scope_;
};

// Values away from the kinks of the activations below.
Tensor AwayFromZero() {
  return test::AsTensor<float>({-0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 0.1f, 0.3f, 0.5f, 0.7f, 0.9f},
                               {5, 2});
}

TEST_F(NNGradTest, SoftmaxGrad) {
  TensorShape shape({32, 10});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  auto y = Softmax(scope_, x);
  RunTest(x, shape, y, shape);
}

TEST_F(NNGradTest, LogSoftmaxGrad) {
  TensorShape shape({5, 3});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  auto y = LogSoftmax(scope_, x);
  Tensor x_init_value = test::AsTensor<float>({-0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 0.1f, 0.3f, 0.5f,
                                               0.7f, 0.8f, -0.1f, 0.1f, 0.1f, 0.1f, 1.2f},
                                              {5, 3});
  RunTest(x, x_init_value, y, shape);
}

TEST_F(NNGradTest, ReluGrad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  RunTest(x, AwayFromZero(), Relu(scope_, x), shape);
}

TEST_F(NNGradTest, Relu6Grad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  Tensor x_init_value = test::AsTensor<float>(
      {-0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 6.1f, 6.3f, 6.5f, 6.7f, 6.9f}, {5, 2});
  RunTest(x, x_init_value, Relu6(scope_, x), shape);
}

TEST_F(NNGradTest, EluGrad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  RunTest(x, AwayFromZero(), Elu(scope_, x), shape);
}

TEST_F(NNGradTest, SeluGrad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  RunTest(x, AwayFromZero(), Selu(scope_, x), shape);
}

TEST_F(NNGradTest, BiasAddGradHelper) {
  TensorShape shape({4, 5});
  TensorShape bias_shape({5});
  auto x1 = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  Tensor bias1 = test::AsTensor<float>({-0.9f, -0.5f, 0.1f, 0.3f, 0.5f}, {5});
  auto y1 = BiasAdd(scope_, x1, bias1);
  auto x2 = test::AsTensor<float>({-0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 0.1f, 0.3f, 0.5f, 0.7f, 0.9f,
                                   -0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 0.1f, 0.3f, 0.5f, 0.7f, 0.9f},
                                  {4, 5});
  auto bias2 = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(bias_shape));
  auto y2 = BiasAdd(scope_, x2, bias2);
  RunTest(x1, shape, y1, shape);
  RunTest(bias2, bias_shape, y2, shape);
}

}  // namespace
}  // namespace rill
