// The cases of TensorFlow's tensorflow/core/kernels/identity_n_op_test.cc, which drive
// IdentityN through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill
// (their inputs and expected values are TensorFlow's; the code is ours). Left out: the
// string case (rill has no strings).
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace identity_n_op_test {

class IdentityNOpTest : public OpsTestBase {
 protected:
  absl::Status Init(DataType input0_type, DataType input1_type) {
    RILL_RETURN_IF_ERROR(NodeDefBuilder("op", "IdentityN")
                             .Input(FakeInput({input0_type, input1_type}))
                             .Finalize(node_def()));
    return InitOp();
  }
};

TEST_F(IdentityNOpTest, Int32DoubleSuccess_6) {
  TF_ASSERT_OK(Init(DT_INT32, DT_DOUBLE));
  AddInputFromArray<int32_t>(TensorShape({6}), {1, 2, 3, 4, 5, 6});
  AddInputFromArray<double>(TensorShape({6}), {7.3, 8.3, 9.3, 10.3, 11.3, 12.3});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>({1, 2, 3, 4, 5, 6}));
  test::ExpectTensorEqual<double>(*GetOutput(1),
                                  test::AsTensor<double>({7.3, 8.3, 9.3, 10.3, 11.3, 12.3}));
}

TEST_F(IdentityNOpTest, Int32Success_2_3) {
  TF_ASSERT_OK(Init(DT_INT32, DT_INT32));
  AddInputFromArray<int32_t>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  AddInputFromArray<int32_t>(TensorShape({2, 3}), {7, 8, 9, 10, 11, 12});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int32_t>(*GetOutput(0),
                                   test::AsTensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}));
  test::ExpectTensorEqual<int32_t>(*GetOutput(1),
                                   test::AsTensor<int32_t>({7, 8, 9, 10, 11, 12}, {2, 3}));
}

}  // namespace identity_n_op_test
}  // namespace
}  // namespace rill
