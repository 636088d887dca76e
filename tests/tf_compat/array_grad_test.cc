// The cases of TensorFlow's tensorflow/cc/gradients/array_grad_test.cc, rewritten against
// rill (inputs, shapes and the error bound are TensorFlow's; the code is ours).
// rill: left out are the ops rill does not have (Diag, DiagPart, MatrixDiag,
// MatrixBandPart, GatherNd, CheckNumerics, ReverseSequence, MirrorPadGrad): docs/guide.md
// "Porting from TensorFlow".
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/rill.h"

namespace rill {
using namespace ops;  // NOLINT(build/namespaces)

namespace {

class ArrayGradTest : public ::testing::Test {
 protected:
  ArrayGradTest() : scope_(Scope::NewRootScope()) {}

  void RunTest(const Output& x, const TensorShape& x_shape, const Output& y,
               const TensorShape& y_shape) {
    RunTest(OutputList{x}, {x_shape}, OutputList{y}, {y_shape});
  }
  void RunTest(const OutputList& xs, const std::vector<TensorShape>& x_shapes, const OutputList& ys,
               const std::vector<TensorShape>& y_shapes) {
    TF_ASSERT_OK(scope_.status());
    float max_error;
    TF_ASSERT_OK((ComputeGradientError(scope_, xs, x_shapes, ys, y_shapes, &max_error)));
    EXPECT_LT(max_error, 1e-4);
  }
  Output In(const TensorShape& shape) {
    return Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  }

  Scope scope_;
};

TEST_F(ArrayGradTest, StackGrad_Axis0) {
  TensorShape x_shape({1, 2, 3});
  std::vector<Output> xs = {In(x_shape), In(x_shape)};
  auto y = Stack(scope_, xs, Stack::Axis(0));
  RunTest(xs, {x_shape, x_shape}, {y}, {TensorShape({2, 1, 2, 3})});
}

TEST_F(ArrayGradTest, StackGrad_Axis1) {
  TensorShape x_shape({1, 2, 3});
  std::vector<Output> xs = {In(x_shape), In(x_shape)};
  auto y = Stack(scope_, xs, Stack::Axis(1));
  RunTest(xs, {x_shape, x_shape}, {y}, {TensorShape({1, 2, 2, 3})});
}

TEST_F(ArrayGradTest, UnstackGrad_Axis0) {
  TensorShape x_shape({4, 2, 3});
  auto x = In(x_shape);
  auto y = Unstack(scope_, x, 4, Unstack::Axis(0));
  RunTest({x}, {x_shape}, y.output, std::vector<TensorShape>(4, TensorShape({2, 3})));
}

TEST_F(ArrayGradTest, UnstackGrad_Axis1) {
  TensorShape x_shape({4, 2, 3});
  auto x = In(x_shape);
  auto y = Unstack(scope_, x, 2, Unstack::Axis(1));
  RunTest({x}, {x_shape}, y.output, std::vector<TensorShape>(2, TensorShape({4, 3})));
}

TEST_F(ArrayGradTest, IdentityGrad) {
  TensorShape shape({5, 2});
  auto x = In(shape);
  RunTest(x, shape, Identity(scope_, x), shape);
}

TEST_F(ArrayGradTest, SplitGrad) {
  TensorShape x_shape({5, 2});
  auto x = In(x_shape);
  auto split_dim = Const(scope_, 1, {});
  auto y = Split(scope_, split_dim, x, /*num_split=*/2);
  TensorShape y_shape({5, 1});
  RunTest({x}, {x_shape}, y.output, {y_shape, y_shape});
}

TEST_F(ArrayGradTest, ReshapeGrad) {
  TensorShape x_shape({5, 2});
  auto x = In(x_shape);
  RunTest(x, x_shape, Reshape(scope_, x, {2, 5}), TensorShape({2, 5}));
}

TEST_F(ArrayGradTest, ExpandDimsGrad) {
  TensorShape x_shape({5, 2});
  auto x = In(x_shape);
  RunTest(x, x_shape, ExpandDims(scope_, x, 0), TensorShape({1, 5, 2}));
}

TEST_F(ArrayGradTest, SqueezeGrad) {
  TensorShape x_shape({1, 5, 1, 2});
  auto x = In(x_shape);
  RunTest(x, x_shape, Squeeze(scope_, x), TensorShape({5, 2}));
}

TEST_F(ArrayGradTest, TransposeGrad) {
  TensorShape x_shape({5, 2});
  auto x = In(x_shape);
  RunTest(x, x_shape, Transpose(scope_, x, {1, 0}), TensorShape({2, 5}));
}

TEST_F(ArrayGradTest, ReverseGrad) {
  TensorShape shape({5, 2, 5});
  auto x = In(shape);
  auto y = Reverse(scope_, x, {0, 2});
  RunTest(x, shape, y, shape);
}

}  // namespace
}  // namespace rill
