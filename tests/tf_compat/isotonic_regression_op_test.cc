// The cases of TensorFlow's tensorflow/core/kernels/isotonic_regression_op_test.cc, which
// drive IsotonicRegression through OpsTestBase (runtime/testing/ops_testutil.h), rewritten
// against rill (their inputs and expected values are TensorFlow's; the code is ours). As in
// TensorFlow's, the input is a float variable (DT_FLOAT_REF). Left out: the benchmark.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace isotonic_regression_op_test {

class IsotonicRegressionOpTest : public OpsTestBase {
 public:
  void MakeOp(DataType type) {
    TF_ASSERT_OK(
        NodeDefBuilder("myop", "IsotonicRegression").Input(FakeInput(type)).Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
};

TEST_F(IsotonicRegressionOpTest, Constant) {
  MakeOp(DT_FLOAT_REF);
  AddInputFromArray<float>(TensorShape({5, 3}), {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, TensorShape({5, 3}));
  test::FillValues<float>(&expected, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  test::ExpectClose(expected, *GetOutput(0));
}

TEST_F(IsotonicRegressionOpTest, IncreasingInput) {
  MakeOp(DT_FLOAT_REF);
  AddInputFromArray<float>(TensorShape({5, 3}),
                           {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, TensorShape({5, 3}));
  test::FillValues<float>(&expected, {2, 2, 2, 5, 5, 5, 8, 8, 8, 11, 11, 11, 14, 14, 14});
  test::ExpectClose(expected, *GetOutput(0));
  Tensor expected_ord(allocator(), DT_INT32, TensorShape({5, 3}));
  test::FillValues<int32_t>(&expected_ord, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  test::ExpectTensorEqual<int32_t>(expected_ord, *GetOutput(1));
}

TEST_F(IsotonicRegressionOpTest, Decreasing) {
  MakeOp(DT_FLOAT_REF);
  AddInputFromArray<float>(TensorShape({5, 3}),
                           {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, TensorShape({5, 3}));
  test::FillValues<float>(&expected, {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
  test::ExpectClose(expected, *GetOutput(0));
  Tensor expected_ord(allocator(), DT_INT32, TensorShape({5, 3}));
  test::FillValues<int32_t>(&expected_ord, {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2});
  test::ExpectTensorEqual<int32_t>(expected_ord, *GetOutput(1));
}

}  // namespace isotonic_regression_op_test
}  // namespace
}  // namespace rill
