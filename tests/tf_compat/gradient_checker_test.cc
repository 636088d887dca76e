// The cases of TensorFlow's tensorflow/cc/framework/gradient_checker_test.cc, rewritten
// against rill (shapes, values and error bounds are TensorFlow's; the code is ours): the
// checker itself over ops of one input and one output, many inputs, many outputs.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/rill.h"

namespace rill {
using namespace ops;  // NOLINT(build/namespaces)

namespace {
namespace gradient_checker_test {

TEST(GradientCheckerTest, BasicFloat) {
  Scope scope = Scope::NewRootScope();
  TensorShape shape({2, 4, 3});
  auto x = Placeholder(scope, DT_FLOAT, Placeholder::Shape(shape));
  auto y = Square(scope, x);
  float max_error;
  TF_ASSERT_OK(ComputeGradientError<float>(scope, {x}, {shape}, {y}, {shape}, &max_error));
  EXPECT_LT(max_error, 1e-4);
}

TEST(GradientCheckerTest, BasicDouble) {
  Scope scope = Scope::NewRootScope();
  TensorShape shape({2, 4, 3});
  auto x = Placeholder(scope, DT_DOUBLE, Placeholder::Shape(shape));
  auto y = Square(scope, x);
  double max_error;
  TF_ASSERT_OK(ComputeGradientError<double>(scope, {x}, {shape}, {y}, {shape}, &max_error));
  EXPECT_LT(max_error, 1e-10);
}

TEST(GradientCheckerTest, MatMulGrad) {
  Scope scope = Scope::NewRootScope();
  TensorShape x_shape({4, 3});
  TensorShape y_shape({3, 2});
  TensorShape z_shape({4, 2});
  auto x = Placeholder(scope, DT_DOUBLE, Placeholder::Shape(x_shape));
  auto y = Const(scope, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, y_shape);
  auto z = MatMul(scope, x, y);
  double max_error;
  TF_ASSERT_OK(ComputeGradientError<double>(scope, {x}, {x_shape}, {z}, {z_shape}, &max_error));
  EXPECT_LT(max_error, 1e-10);
}

// One input, several outputs.
TEST(GradientCheckerTest, SplitGrad) {
  Scope scope = Scope::NewRootScope();
  TensorShape x_shape({5, 2});
  auto x = Placeholder(scope, DT_DOUBLE, Placeholder::Shape(x_shape));
  auto split_dim = Const(scope, 1, {});
  auto y = Split(scope, split_dim, x, /* num_split */ 2);
  TensorShape y_shape = TensorShape({5, 1});
  double max_error;
  TF_ASSERT_OK(ComputeGradientError<double>(scope, {x}, {x_shape}, y.output, {y_shape, y_shape},
                                            &max_error));
  EXPECT_LT(max_error, 1e-10);
}

// Several inputs, one output.
TEST(GradientCheckerTest, StackGrad) {
  Scope scope = Scope::NewRootScope();
  TensorShape x_shape({1, 2, 3});
  std::vector<Output> xs;
  xs.push_back(Placeholder(scope, DT_DOUBLE, Placeholder::Shape(x_shape)));
  xs.push_back(Placeholder(scope, DT_DOUBLE, Placeholder::Shape(x_shape)));
  auto y = Stack(scope, xs, Stack::Axis(0));
  TensorShape y_shape({2, 1, 2, 3});
  double max_error;
  TF_ASSERT_OK(
      ComputeGradientError<double>(scope, xs, {x_shape, x_shape}, {y}, {y_shape}, &max_error));
  EXPECT_LT(max_error, 1e-10);
}

// Several inputs and outputs: Stack into Unstack.
TEST(GradientCheckerTest, StackUnstackGrad) {
  Scope scope = Scope::NewRootScope();
  TensorShape shape({1, 2, 3});
  std::vector<Output> xs;
  xs.push_back(Placeholder(scope, DT_DOUBLE, Placeholder::Shape(shape)));
  xs.push_back(Placeholder(scope, DT_DOUBLE, Placeholder::Shape(shape)));
  auto tmp = Stack(scope, xs, Stack::Axis(0));
  auto y = Unstack(scope, tmp, 2, Unstack::Axis(0));
  double max_error;
  TF_ASSERT_OK(ComputeGradientError<double>(scope, xs, {shape, shape}, y.output, {shape, shape},
                                            &max_error));
  EXPECT_LT(max_error, 1e-10);
}

}  // namespace gradient_checker_test
}  // namespace
}  // namespace rill
