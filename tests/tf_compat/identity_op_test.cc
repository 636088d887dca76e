// The cases of TensorFlow's tensorflow/core/kernels/identity_op_test.cc, which drive
// Identity through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill
// (their inputs and expected values are TensorFlow's; the code is ours). Left out: the
// string case (rill has no strings).
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace identity_op_test {

class IdentityOpTest : public OpsTestBase {
 protected:
  absl::Status Init(DataType input_type) {
    TF_CHECK_OK(NodeDefBuilder("op", "Identity").Input(FakeInput(input_type)).Finalize(node_def()));
    return InitOp();
  }
};

TEST_F(IdentityOpTest, Int32Success_6) {
  TF_ASSERT_OK(Init(DT_INT32));
  AddInputFromArray<int32>(TensorShape({6}), {1, 2, 3, 4, 5, 6});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_INT32, TensorShape({6}));
  test::FillValues<int32>(&expected, {1, 2, 3, 4, 5, 6});
  test::ExpectTensorEqual<int32>(expected, *GetOutput(0));
}

TEST_F(IdentityOpTest, Int32Success_2_3) {
  TF_ASSERT_OK(Init(DT_INT32));
  AddInputFromArray<int32>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_INT32, TensorShape({2, 3}));
  test::FillValues<int32>(&expected, {1, 2, 3, 4, 5, 6});
  test::ExpectTensorEqual<int32>(expected, *GetOutput(0));
}

TEST_F(IdentityOpTest, RefInputError) { TF_ASSERT_OK(Init(DT_INT32_REF)); }

}  // namespace identity_op_test
}  // namespace
}  // namespace rill
