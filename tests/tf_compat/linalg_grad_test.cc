// The cases of TensorFlow's tensorflow/cc/gradients/linalg_grad_test.cc (Einsum's gradient),
// rewritten against rill (equations, shapes and the error bound are TensorFlow's; the code is
// ours). Left out: Einsum_MatMulComplex (complex64; rill computes no complex numbers).
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace linalg_grad_test {

using ops::Einsum;
using ops::Placeholder;

class LinalgGradTest : public ::testing::Test {
 protected:
  LinalgGradTest() : scope_(Scope::NewRootScope()) {}

  void RunTest(const OutputList& xs, const std::vector<TensorShape>& x_shapes, const OutputList& ys,
               const std::vector<TensorShape>& y_shapes) {
    TF_ASSERT_OK(scope_.status());
    float max_error;
    TF_ASSERT_OK((
        ComputeGradientError<float, float, float>(scope_, xs, x_shapes, ys, y_shapes, &max_error)));
    EXPECT_LT(max_error, 1e-3);
  }

  Output Input(const TensorShape& shape) {
    return Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  }

  Scope scope_;
};

TEST_F(LinalgGradTest, Einsum_Transpose) {
  TensorShape x_shape({2, 3});
  Output x = Input(x_shape);
  auto y = Einsum(scope_, {x}, "ij->ji");
  RunTest({x}, {x_shape}, {y}, {TensorShape({3, 2})});
}

TEST_F(LinalgGradTest, Einsum_TransposeBroadcast) {
  TensorShape x_shape({3, 2, 3});
  Output x = Input(x_shape);
  auto y = Einsum(scope_, {x}, "...ij->...ji");
  RunTest({x}, {x_shape}, {y}, {TensorShape({3, 3, 2})});
}

TEST_F(LinalgGradTest, Einsum_MatMul) {
  TensorShape x_shape({2, 3}), y_shape({3, 3});
  Output x = Input(x_shape), y = Input(y_shape);
  auto z = Einsum(scope_, {x, y}, "ij,jk->ik");
  RunTest({x, y}, {x_shape, y_shape}, {z}, {TensorShape({2, 3})});
}

TEST_F(LinalgGradTest, Einsum_MatMulBroadcast) {
  TensorShape x_shape({3, 2, 3}), y_shape({3, 3});
  Output x = Input(x_shape), y = Input(y_shape);
  auto z = Einsum(scope_, {x, y}, "...ij,...jk->...ik");
  RunTest({x, y}, {x_shape, y_shape}, {z}, {TensorShape({3, 2, 3})});
}

TEST_F(LinalgGradTest, Einsum_Trace) {
  TensorShape x_shape({3, 3});
  Output x = Input(x_shape);
  auto z = Einsum(scope_, {x}, "ii->");
  RunTest({x}, {x_shape}, {z}, {TensorShape({})});
}

TEST_F(LinalgGradTest, Einsum_TraceBroadcast) {
  TensorShape x_shape({4, 3, 3});
  Output x = Input(x_shape);
  auto z = Einsum(scope_, {x}, "...ii->...");
  RunTest({x}, {x_shape}, {z}, {TensorShape({4})});
}

TEST_F(LinalgGradTest, Einsum_DotProduct) {
  TensorShape x_shape({3}), y_shape({3});
  Output x = Input(x_shape), y = Input(y_shape);
  auto z = Einsum(scope_, {x, y}, "i,i->");
  RunTest({x, y}, {x_shape, y_shape}, {z}, {TensorShape({})});
}

TEST_F(LinalgGradTest, Einsum_OuterProduct) {
  TensorShape x_shape({3}), y_shape({5});
  Output x = Input(x_shape), y = Input(y_shape);
  auto z = Einsum(scope_, {x, y}, "i,j->ij");
  RunTest({x, y}, {x_shape, y_shape}, {z}, {TensorShape({3, 5})});
}

TEST_F(LinalgGradTest, Einsum_TwoInputReduction) {
  TensorShape x_shape({3, 2, 4}), y_shape({4, 5});
  Output x = Input(x_shape), y = Input(y_shape);
  auto z = Einsum(scope_, {x, y}, "abc,cd->ad");
  RunTest({x, y}, {x_shape, y_shape}, {z}, {TensorShape({3, 5})});
}

}  // namespace linalg_grad_test
}  // namespace
}  // namespace rill
