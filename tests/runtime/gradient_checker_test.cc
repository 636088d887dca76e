// rill::ComputeGradientError, TensorFlow's public numeric gradient check.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace gradient_checker_test {

TEST(ComputeGradientError, CorrectGradientsAreWithinTolerance) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto w = ops::Placeholder(s, DT_FLOAT);
  auto y = ops::Tanh(s, ops::MatMul(s, x, w));
  float max_error = -1;
  const OutputList xs = {x, w}, ys = {y};
  const std::vector<TensorShape> x_shapes = {{2, 3}, {3, 4}}, y_shapes = {{2, 4}};
  TF_ASSERT_OK(
      (ComputeGradientError<float, float, float>(s, xs, x_shapes, ys, y_shapes, &max_error)));
  EXPECT_GE(max_error, 0.f);
  EXPECT_LT(max_error, 1e-3f);
  // One x with a given value, in float64.
  Scope d = Scope::NewRootScope();
  auto xd = ops::Placeholder(d, DT_DOUBLE);
  auto yd = ops::Square(d, xd);
  double err = -1;
  TF_ASSERT_OK((ComputeGradientError<double, double, double>(d, xd, Tensor(3.0).DeepCopy(), yd,
                                                             TensorShape({}), &err)));
  EXPECT_LT(err, 1e-6);
}

TEST(ComputeGradientError, AWrongGradientShows) {
  // StopGradient hides d(x^2)/dx from the symbolic side: 1 against 1 + 2x numerically.
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_DOUBLE);
  auto y = ops::Add(s, x, ops::StopGradient(s, ops::Square(s, x)));
  Tensor v(DT_DOUBLE, TensorShape({2}));
  v.flat<double>().setValues({0.5, -2.0});
  double err = 0;
  TF_ASSERT_OK((ComputeGradientError<double, double, double>(s, x, v, y, TensorShape({2}), &err)));
  EXPECT_NEAR(err, 4.0, 1e-6);  // |2x| at x = -2
}

TEST(ComputeGradientError, BadArgumentsAreStatuses) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto y = ops::Square(s, x);
  const OutputList xs = {x}, ys = {y};
  using Shapes = std::vector<TensorShape>;
  float err = 0;
  EXPECT_TRUE(errors::IsInvalidArgument(
      ComputeGradientError<float, float, float>(s, xs, Shapes{}, ys, Shapes{{1}}, &err)));
  EXPECT_TRUE(errors::IsInvalidArgument(
      ComputeGradientError<double, float, float>(s, xs, Shapes{{2}}, ys, Shapes{{2}}, &err)));
  EXPECT_TRUE(errors::IsInvalidArgument(ComputeGradientError<float, float, float>(
      s, xs, Shapes{{4096}}, ys, Shapes{{4096}}, &err)));  // a 2^24-entry Jacobian
  // ys whose shapes do not match what they compute.
  EXPECT_TRUE(errors::IsInvalidArgument(
      ComputeGradientError<float, float, float>(s, xs, Shapes{{2}}, ys, Shapes{{3}}, &err)));
}

}  // namespace gradient_checker_test
}  // namespace
}  // namespace rill
