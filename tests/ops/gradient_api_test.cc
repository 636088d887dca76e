// AddSymbolicGradients itself: stopped and summed paths, unreachable inputs (TensorFlow's
// error word for word), integer gradients, variables, and errors that name the problem.
// The per-op numeric checks are gradient_test.cc's.
#include "gradient_checker.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"
#include "rill/ops/state_ops.h"

namespace rill::testing {
namespace {
namespace gradient_api_test {

using namespace ::rill::ops;  // NOLINT

TEST(Gradients, StopGradientBlocksTheFlow) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_DOUBLE);
  auto y = Add(s, x, StopGradient(s, Square(s, x)));  // dy/dx = 1, not 1 + 2x
  std::vector<Output> g;
  ASSERT_TRUE(AddSymbolicGradients(s, {y}, {x}, &g).ok());
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({{x, {3.0, -2.0}}}, {g[0], y}, &out).ok());
  ExpectTensorNear(out[0], DT_DOUBLE, TensorShape({2}), {1, 1}, 0);
  ExpectTensorNear(out[1], DT_DOUBLE, TensorShape({2}), {12, 2}, 0);
}

TEST(Gradients, PathsAreSummedAndAnUnreachableInputIsAnError) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_FLOAT);
  auto unused = Placeholder(s.WithOpName("unused"), DT_FLOAT);
  auto y = Add(s, Mul(s, x, 2.f), Mul(s, x, x));  // 2 + 2x
  std::vector<Output> g;
  ASSERT_TRUE(AddSymbolicGradients(s, {y}, {x}, &g).ok());
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({{x, {1.f, 4.f}}}, {g[0]}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, TensorShape({2}), {4, 10}, 0);
  // TensorFlow's error, word for word.
  absl::Status st = AddSymbolicGradients(s, {y}, {x, unused}, &g);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "Cannot compute the partial derivative for node 'unused' as it's unreachable from "
            "the output node(s).");
}

TEST(Gradients, StoppedPathsGiveNoGradient) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_FLOAT);
  auto y = StopGradient(s, Square(s, x));
  std::vector<Output> g;
  ASSERT_TRUE(AddSymbolicGradients(s, {y}, {x}, &g).ok());
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0], NoGradient());
  EXPECT_EQ(g[0].node(), nullptr);
}

TEST(Gradients, IntegerGradientsAsInTensorFlow) {
  // z = x * y; dz/dy = x^T * dz, in int32 as TensorFlow computes it.
  Scope s = Scope::NewRootScope();
  auto x = Const(s, {{1, 2}, {3, 4}});
  auto y = Const(s, {{1, 0}, {0, 1}});
  auto z = MatMul(s, x, y);
  auto dz = Const(s, {{1, 1}, {1, 1}});
  std::vector<Output> g;
  ASSERT_TRUE(AddSymbolicGradients(s, {z}, {x, y}, {dz}, &g).ok());
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({g[0], g[1]}, &out).ok());
  EXPECT_EQ(out[0].dtype(), DT_INT32);
  ExpectTensorNear(out[0], DT_INT32, TensorShape({2, 2}), {1, 1, 1, 1}, 0);
  ExpectTensorNear(out[1], DT_INT32, TensorShape({2, 2}), {4, 4, 6, 6}, 0);
}

TEST(Gradients, VariablesGetGradientsThroughTheirReads) {
  Scope s = Scope::NewRootScope();
  auto w = Variable(s, Input::Initializer({1.f, 2.f, 3.f}));
  auto loss = Sum(s, Square(s, w), 0);
  std::vector<Output> g;
  ASSERT_TRUE(AddSymbolicGradients(s, {loss}, {w}, &g).ok());
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  ASSERT_TRUE(session.Run({g[0]}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, TensorShape({3}), {2, 4, 6}, 0);
}

TEST(Gradients, ErrorsNameTheProblem) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_FLOAT);
  auto idx = ArgMax(s, x, 0);
  auto y = Cast(s, idx, DT_FLOAT);
  std::vector<Output> g;
  // ArgMax is not differentiable: no gradient, not an error.
  ASSERT_TRUE(AddSymbolicGradients(s, {y}, {x}, &g).ok());
  EXPECT_EQ(g.back(), NoGradient());
  // grad_inputs of the wrong dtype, or the wrong count.
  auto wrong = Placeholder(s, DT_DOUBLE);
  EXPECT_EQ(AddSymbolicGradients(s, {y}, {x}, {wrong}, &g).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(AddSymbolicGradients(s, {y}, {x}, {}, &g).code(), absl::StatusCode::kInvalidArgument);
  // An integer output differentiates as TensorFlow's do: here nothing flows back.
  g.clear();
  ASSERT_TRUE(AddSymbolicGradients(s, {idx}, {x}, &g).ok());
  EXPECT_EQ(g[0], NoGradient());
}

}  // namespace gradient_api_test
}  // namespace
}  // namespace rill::testing
