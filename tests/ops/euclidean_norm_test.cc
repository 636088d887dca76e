// EuclideanNorm (tf.math.reduce_euclidean_norm): sqrt(sum(x * x)) over the axes against the
// definition, with kept dims, negative and no axes, an empty reduction, and its gradient
// x * dy / norm (the numeric check is in gradient_test.cc).
#include <cmath>

#include "rill/core/testing/status_test_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace euclidean_norm_test {

MarkTested tested({"EuclideanNorm"});

TEST(EuclideanNorm, MatchesTheDefinition) {
  Scope root = Scope::NewRootScope();
  // [[3, 4, 0], [-5, 12, 0]]
  auto x = ops::Const(root, {{3.0, 4.0, 0.0}, {-5.0, 12.0, 0.0}});
  auto rows = ops::EuclideanNorm(root, x, 1);
  auto cols = ops::EuclideanNorm(root, x, {-2}, ops::EuclideanNorm::KeepDims(true));
  auto all = ops::EuclideanNorm(root, x, {0, 1});
  auto none = ops::EuclideanNorm(root, x, Tensor(DT_INT32, TensorShape({0})));
  auto empty = ops::EuclideanNorm(root, ops::Const(root, Tensor(DT_FLOAT, TensorShape({2, 0}))), 1);
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({rows, cols, all, none, empty}, &got));
  ExpectTensorNear(got[0], DT_DOUBLE, TensorShape({2}), {5, 13}, 1e-15);
  ExpectTensorNear(got[1], DT_DOUBLE, TensorShape({1, 3}), {std::sqrt(34.0), std::sqrt(160.0), 0},
                   1e-15);
  ExpectTensorNear(got[2], DT_DOUBLE, TensorShape({}), {std::sqrt(194.0)}, 1e-15);
  ExpectTensorNear(got[3], DT_DOUBLE, TensorShape({2, 3}), {3, 4, 0, 5, 12, 0}, 0);
  ExpectTensorNear(got[4], DT_FLOAT, TensorShape({2}), {0, 0}, 0);
}

TEST(EuclideanNorm, GradientIsXTimesDyOverTheNorm) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto y = ops::EuclideanNorm(root, x, 1);
  auto dy = ops::Placeholder(root, DT_FLOAT);
  std::vector<Output> dx;
  RILL_ASSERT_OK(ops::AddSymbolicGradients(root, {y}, {x}, {dy}, &dx));
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({{x, {{3.f, 4.f}, {6.f, -8.f}}}, {dy, {10.f, 1.f}}}, {dx[0]}, &got));
  ExpectTensorNear(got[0], DT_FLOAT, TensorShape({2, 2}), {6, 8, 0.6, -0.8}, 1e-6);
}

TEST(EuclideanNorm, IntegersAndBadAxesAreRefused) {
  Scope root = Scope::NewRootScope();
  ops::EuclideanNorm(root, ops::Const(root, {3, 4}), 0);
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument) << root.status();
  Scope r2 = Scope::NewRootScope();
  ops::EuclideanNorm(r2, ops::Const(r2, {3.f, 4.f}), 1);
  EXPECT_EQ(r2.status().code(), absl::StatusCode::kInvalidArgument) << r2.status();
}

}  // namespace euclidean_norm_test
}  // namespace
}  // namespace rill::testing
