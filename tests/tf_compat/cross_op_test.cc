// The cases of TensorFlow's tensorflow/core/kernels/cross_op_test.cc, which drive Cross
// through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill (their inputs
// and expected values are TensorFlow's; the code is ours). Nothing is left out.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace cross_op_test {

class CrossOpTest : public OpsTestBase {
 protected:
  CrossOpTest() {
    TF_EXPECT_OK(NodeDefBuilder("cross_op", "Cross")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_FLOAT))
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
};

TEST_F(CrossOpTest, Zero) {
  AddInputFromArray<float>(TensorShape({3}), {0, 0, 0});
  AddInputFromArray<float>(TensorShape({3}), {0, 0, 0});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, TensorShape({3}));
  test::FillValues<float>(&expected, {0, 0, 0});
  test::ExpectTensorEqual<float>(expected, *GetOutput(0));
}

TEST_F(CrossOpTest, RightHandRule) {
  AddInputFromArray<float>(TensorShape({2, 3}), {1, 0, 0, /**/ 0, 1, 0});
  AddInputFromArray<float>(TensorShape({2, 3}), {0, 1, 0, /**/ 1, 0, 0});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, TensorShape({2, 3}));
  test::FillValues<float>(&expected, {0, 0, 1, /**/ 0, 0, -1});
  test::ExpectTensorEqual<float>(expected, *GetOutput(0));
}

TEST_F(CrossOpTest, ArbitraryNonintegral) {
  const float u1 = -0.669f, u2 = -0.509f, u3 = 0.125f;
  const float v1 = -0.477f, v2 = 0.592f, v3 = -0.110f;
  AddInputFromArray<float>(TensorShape({3}), {u1, u2, u3});
  AddInputFromArray<float>(TensorShape({3}), {v1, v2, v3});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, TensorShape({3}));
  test::FillValues<float>(&expected, {u2 * v3 - u3 * v2, u3 * v1 - u1 * v3, u1 * v2 - u2 * v1});
  test::ExpectTensorNear<float>(expected, *GetOutput(0), 1e-6);
}

class CrossOpIntTest : public OpsTestBase {
 protected:
  CrossOpIntTest() {
    TF_EXPECT_OK(NodeDefBuilder("cross_int_op", "Cross")
                     .Input(FakeInput(DT_INT32))
                     .Input(FakeInput(DT_INT32))
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
};

TEST_F(CrossOpIntTest, RightHandRule) {
  AddInputFromArray<int32_t>(TensorShape({2, 3}), {2, 0, 0, /**/ 0, 2, 0});
  AddInputFromArray<int32_t>(TensorShape({2, 3}), {0, 2, 0, /**/ 2, 0, 0});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_INT32, TensorShape({2, 3}));
  test::FillValues<int32_t>(&expected, {0, 0, 4, /**/ 0, 0, -4});
  test::ExpectTensorEqual<int32_t>(expected, *GetOutput(0));
}

}  // namespace cross_op_test
}  // namespace
}  // namespace rill
