// The cases of TensorFlow's tensorflow/cc/gradients/array_grad_test.cc, rewritten against
// rill (inputs, shapes and the error bound are TensorFlow's; the code is ours).
// Every case of the file is here. The cases after ReverseGrad come from the file's
// later versions (Pad, the space/batch/depth moves, the diagonals, MirrorPad).
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"

namespace rill {
using namespace ops;  // NOLINT(build/namespaces)

namespace {
namespace array_grad_test {

class ArrayGradTest : public ::testing::Test {
 protected:
  ArrayGradTest() : scope_(Scope::NewRootScope()) {}

  // The file's first version bounds the error by 1e-4, its later cases by 1e-3 (float32
  // central differences of sums of several elements come to about 2e-4).
  void RunTest(const Output& x, const TensorShape& x_shape, const Output& y,
               const TensorShape& y_shape, float bound = 1e-4) {
    RunTest(OutputList{x}, {x_shape}, OutputList{y}, {y_shape}, bound);
  }
  void RunTest(const OutputList& xs, const std::vector<TensorShape>& x_shapes, const OutputList& ys,
               const std::vector<TensorShape>& y_shapes, float bound = 1e-4) {
    TF_ASSERT_OK(scope_.status());
    float max_error;
    TF_ASSERT_OK((ComputeGradientError(scope_, xs, x_shapes, ys, y_shapes, &max_error)));
    EXPECT_LT(max_error, bound);
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

TEST_F(ArrayGradTest, DiagGrad) {
  TensorShape x_shape({5, 2});
  auto x = In(x_shape);
  RunTest(x, x_shape, Diag(scope_, x), TensorShape({5, 2, 5, 2}), 1e-3);
}

TEST_F(ArrayGradTest, DiagPartGrad) {
  TensorShape x_shape({5, 2, 5, 2});
  auto x = In(x_shape);
  RunTest(x, x_shape, DiagPart(scope_, x), TensorShape({5, 2}), 1e-3);
}

TEST_F(ArrayGradTest, MatrixDiagGrad) {
  TensorShape x_shape({5, 2});
  auto x = In(x_shape);
  RunTest(x, x_shape, MatrixDiag(scope_, x), TensorShape({5, 2, 2}), 1e-3);
}

TEST_F(ArrayGradTest, MatrixBandPartGrad) {
  TensorShape shape({5, 5});
  auto x = In(shape);
  const int64 num_lower = 1;
  const int64 num_upper = 2;
  RunTest(x, shape, MatrixBandPart(scope_, x, num_lower, num_upper), shape, 1e-3);
}

TEST_F(ArrayGradTest, GatherNdGrad_SimpleIndexing) {
  TensorShape x_shape({2, 2});
  auto x = In(x_shape);
  auto indices = Const(scope_, {{0, 0}, {1, 1}});
  RunTest(x, x_shape, GatherNd(scope_, x, indices), TensorShape({2}), 1e-3);
}

TEST_F(ArrayGradTest, GatherNdGrad_SliceIndexing) {
  TensorShape shape({2, 2});
  auto x = In(shape);
  auto indices = Const(scope_, {{1}, {0}});
  RunTest(x, shape, GatherNd(scope_, x, indices), shape, 1e-3);
}

TEST_F(ArrayGradTest, ScatterNdGrad_SimpleIndexing) {
  TensorShape updates_shape({4});
  auto updates = In(updates_shape);
  auto indices = Const(scope_, {{4}, {3}, {1}, {7}});
  RunTest(updates, updates_shape, ScatterNd(scope_, indices, updates, {8}), TensorShape({8}), 1e-3);
}

TEST_F(ArrayGradTest, ScatterNdGrad_SliceIndexing) {
  TensorShape updates_shape({2, 4, 4});
  auto updates = In(updates_shape);
  auto indices = Const(scope_, {{0}, {2}});
  RunTest(updates, updates_shape, ScatterNd(scope_, indices, updates, {4, 4, 4}),
          TensorShape({4, 4, 4}), 1e-3);
}

TEST_F(ArrayGradTest, CheckNumericsGrad) {
  TensorShape shape({5, 2});
  auto x = In(shape);
  RunTest(x, shape, CheckNumerics(scope_, x, "CheckNumerics failed"), shape, 1e-3);
}

TEST_F(ArrayGradTest, ReverseSequenceGrad) {
  TensorShape shape({5, 2, 5});
  auto x = In(shape);
  auto seq_lengths = Const(scope_, {1, 2, 3, 4, 5});
  // batch_dim 0 by default; the sequences run along dim 2.
  RunTest(x, shape, ReverseSequence(scope_, x, seq_lengths, 2), shape, 1e-3);
}

TEST_F(ArrayGradTest, PadGrad) {
  TensorShape x_shape({2, 3});
  auto x = In(x_shape);
  auto paddings = Const(scope_, {{1, 1}, {2, 2}});
  RunTest(x, x_shape, Pad(scope_, x, paddings), TensorShape({4, 7}), 1e-3);
}

TEST_F(ArrayGradTest, SpaceToBatchGrad) {
  TensorShape x_shape({1, 2, 2, 1});
  auto x = In(x_shape);
  auto paddings = Const(scope_, {{1, 1}, {1, 1}});
  RunTest(x, x_shape, SpaceToBatch(scope_, x, paddings, 2), TensorShape({4, 2, 2, 1}), 1e-3);
}

TEST_F(ArrayGradTest, SpaceToBatchNdGrad) {
  TensorShape x_shape({2, 2, 4, 1});
  auto x = In(x_shape);
  auto block_shape = Const(scope_, {2, 2});
  auto paddings = Const(scope_, {{0, 0}, {2, 0}});
  RunTest(x, x_shape, SpaceToBatchND(scope_, x, block_shape, paddings), TensorShape({8, 1, 3, 1}),
          1e-3);
}

TEST_F(ArrayGradTest, BatchToSpaceGrad) {
  TensorShape x_shape({4, 2, 2, 1});
  auto x = In(x_shape);
  auto paddings = Const(scope_, {{1, 1}, {1, 1}});
  RunTest(x, x_shape, BatchToSpace(scope_, x, paddings, 2), TensorShape({1, 2, 2, 1}), 1e-3);
}

TEST_F(ArrayGradTest, BatchToSpaceNdGrad) {
  TensorShape x_shape({8, 1, 3, 1});
  auto x = In(x_shape);
  auto block_shape = Const(scope_, {2, 2});
  auto paddings = Const(scope_, {{0, 0}, {2, 0}});
  RunTest(x, x_shape, BatchToSpaceND(scope_, x, block_shape, paddings), TensorShape({2, 2, 4, 1}),
          1e-3);
}

TEST_F(ArrayGradTest, SpaceToDepthGrad) {
  TensorShape x_shape({1, 2, 2, 1});
  auto x = In(x_shape);
  RunTest(x, x_shape, SpaceToDepth(scope_, x, 2), TensorShape({1, 1, 1, 4}), 1e-3);
}

TEST_F(ArrayGradTest, DepthToSpaceGrad) {
  TensorShape x_shape({1, 1, 1, 4});
  auto x = In(x_shape);
  RunTest(x, x_shape, DepthToSpace(scope_, x, 2), TensorShape({1, 2, 2, 1}), 1e-3);
}

TEST_F(ArrayGradTest, MirrorPadGrad_Reflect) {
  TensorShape x_shape({2, 3});
  auto x = In(x_shape);
  auto paddings = Const(scope_, {{1, 1}, {2, 2}});
  RunTest(x, x_shape, MirrorPad(scope_, x, paddings, "REFLECT"), TensorShape({4, 7}), 1e-3);
}

TEST_F(ArrayGradTest, MirrorPadGrad_Symmetric) {
  TensorShape x_shape({2, 3});
  auto x = In(x_shape);
  auto paddings = Const(scope_, {{1, 1}, {2, 2}});
  RunTest(x, x_shape, MirrorPad(scope_, x, paddings, "SYMMETRIC"), TensorShape({4, 7}), 1e-3);
}

TEST_F(ArrayGradTest, MirrorPadGradGrad_Reflect) {
  TensorShape x_shape({4, 7});
  auto x = In(x_shape);
  auto paddings = Const(scope_, {{1, 1}, {2, 2}});
  RunTest(x, x_shape, internal::MirrorPadGrad(scope_, x, paddings, "REFLECT"), TensorShape({2, 3}),
          1e-3);
}

TEST_F(ArrayGradTest, MirrorPadGradGrad_Symmetric) {
  TensorShape x_shape({4, 7});
  auto x = In(x_shape);
  auto paddings = Const(scope_, {{1, 1}, {2, 2}});
  RunTest(x, x_shape, internal::MirrorPadGrad(scope_, x, paddings, "SYMMETRIC"),
          TensorShape({2, 3}), 1e-3);
}

}  // namespace array_grad_test
}  // namespace
}  // namespace rill
