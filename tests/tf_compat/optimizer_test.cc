// The cases of TensorFlow's tensorflow/cc/training/optimizer_test.cc, rewritten against rill
// (inputs and expected values are TensorFlow's; the code is ours).
// rill: TensorFlow's OneMatMul compares the GraphDef Minimize builds with a hand-built one
// (OnesLike, two MatMuls, a Cast learning rate, ApplyGradientDescent per variable); rill
// has no GraphDef and may fuse those nodes, so the case runs one step and checks the
// variables hold what that hand-built graph computes. Minimize returns an Operation, run
// as a target (TensorFlow's test passes it as a fetch).
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
using namespace ops;  // NOLINT(build/namespaces)

namespace {
namespace optimizer_test {

TEST(OptimizerTest, OneMatMul) {
  Scope scope = Scope::NewRootScope();
  auto x = Variable(scope.WithOpName("x"), {2, 2}, DT_FLOAT);
  auto assign_x =
      Assign(scope.WithOpName("Assign_x"), x, Const(scope, {{1.0f, 2.0f}, {3.0f, 4.0f}}));
  auto y = Variable(scope.WithOpName("y"), {2, 2}, DT_FLOAT);
  auto assign_y =
      Assign(scope.WithOpName("Assign_y"), y, Const(scope, {{1.0f, 0.0f}, {0.0f, 1.0f}}));
  auto z = MatMul(scope.WithOpName("z"), x, y);
  TF_ASSERT_OK(scope.status());
  auto train = GradientDescentOptimizer(0.01).Minimize(scope, {z});
  TF_ASSERT_OK(scope.status());

  ClientSession session(scope);
  TF_ASSERT_OK(session.Run({assign_x, assign_y}, nullptr));
  TF_ASSERT_OK(session.Run({}, {}, {train}, nullptr));  // rill: a target, not a fetch
  std::vector<Tensor> out;
  TF_ASSERT_OK(session.Run({x, y}, &out));
  // dz = ones; dx = dz y' = ones, dy = x' dz = [4 4; 6 6]; one step of 0.01.
  test::ExpectTensorNear<float>(out[0], test::AsTensor<float>({0.99f, 1.99f, 2.99f, 3.99f}, {2, 2}),
                                1e-6);
  test::ExpectTensorNear<float>(
      out[1], test::AsTensor<float>({0.96f, -0.04f, -0.06f, 0.94f}, {2, 2}), 1e-6);
}

TEST(OptimizerValueTest, NeuralNetworkValues) {
  Scope scope = Scope::NewRootScope();
  auto x = Const(scope, {{1.0f, 2.0f}, {3.0f, 4.0f}, {5.0f, 6.0f}});
  auto w1 = Variable(scope, {2, 1}, DT_FLOAT);
  auto assign_w1 = Assign(scope, w1, Const(scope, {{0.1f}, {0.2f}}));
  auto layer_1 = Tanh(scope, MatMul(scope, x, w1));
  auto train = GradientDescentOptimizer(0.01).Minimize(scope, {layer_1});
  TF_ASSERT_OK(scope.status());

  ClientSession session(scope);
  TF_ASSERT_OK(session.Run({assign_w1}, nullptr));
  for (int i = 0; i < 10; i++) TF_ASSERT_OK(session.Run({}, {}, {train}, nullptr));
  std::vector<Tensor> outputs;
  TF_ASSERT_OK(session.Run({layer_1}, &outputs));
  test::ExpectTensorNear<float>(
      outputs[0], test::AsTensor<float>({-0.66430414f, -0.95039594f, -0.99360687f}, {3, 1}), 1e-5);
}

}  // namespace optimizer_test
}  // namespace
}  // namespace rill
