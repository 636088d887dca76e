// The cases of TensorFlow's tensorflow/core/kernels/sparse_fill_empty_rows_op_test.cc,
// which drive SparseFillEmptyRows through OpsTestBase (runtime/testing/ops_testutil.h),
// rewritten against rill (their inputs, expected values and messages are TensorFlow's; the
// code is ours). rill's messages also name the node, so the refusals are matched as
// substrings.
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace sparse_fill_empty_rows_op_test {

class SparseFillEmptyRowsTest : public OpsTestBase {
 protected:
  void MakeOp(DataType index_type, DataType value_type) {
    TF_ASSERT_OK(NodeDefBuilder("sparsefillemptyrows", "SparseFillEmptyRows")
                     .Input(FakeInput(index_type))
                     .Input(FakeInput(value_type))
                     .Input(FakeInput(index_type))
                     .Input(FakeInput(value_type))
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  void ExpectInvalidArgument(const char* message) {
    const absl::Status s = RunOpKernel();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_TRUE(absl::StrContains(s.message(), message)) << s;
  }
};

TEST_F(SparseFillEmptyRowsTest, SparseFillEmptyRows) {
  MakeOp(DT_INT64, DT_FLOAT);
  AddInputFromArray<int64_t>(TensorShape({4, 2}), {0, 1, 0, 3, 2, 0, 3, 1});  // sparse_indices
  AddInputFromArray<float>(TensorShape({4}), {0, 3, 1, 2});                   // sparse_values
  AddInputFromArray<int64_t>(TensorShape({2}), {5, 6});                       // dense_shape
  AddInputFromArray<float>(TensorShape({}), {4});                             // default_value
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int64_t>(
      test::AsTensor<int64_t>({0, 1, 0, 3, 1, 0, 2, 0, 3, 1, 4, 0}, {6, 2}), *GetOutput(0));
  test::ExpectTensorEqual<float>(test::AsTensor<float>({0, 3, 4, 1, 2, 4}), *GetOutput(1));
  test::ExpectTensorEqual<bool>(test::AsTensor<bool>({false, true, false, false, true}),
                                *GetOutput(2));  // the empty row indicator
  test::ExpectTensorEqual<int64_t>(test::AsTensor<int64_t>({0, 1, 3, 4}),
                                   *GetOutput(3));  // the reverse index map
}

TEST_F(SparseFillEmptyRowsTest, IndicesValuesUnmatch) {
  MakeOp(DT_INT64, DT_FLOAT);
  AddInputFromArray<int64_t>(TensorShape({4, 2}), {0, 1, 0, 3, 2, 0, 3, 1});
  AddInputFromArray<float>(TensorShape({3}), {0, 3, 1});
  AddInputFromArray<int64_t>(TensorShape({2}), {5, 6});
  AddInputFromArray<float>(TensorShape({}), {4});
  ExpectInvalidArgument(
      "The length of `values` (3) must match the first dimension of `indices` (4).");
}

TEST_F(SparseFillEmptyRowsTest, IndicesDenseShapeUnmatch) {
  MakeOp(DT_INT64, DT_FLOAT);
  AddInputFromArray<int64_t>(TensorShape({4, 0}), {});
  AddInputFromArray<float>(TensorShape({4}), {0, 3, 1, 2});
  AddInputFromArray<int64_t>(TensorShape({2}), {5, 6});
  AddInputFromArray<float>(TensorShape({}), {4});
  ExpectInvalidArgument(
      "The length of `dense_shape` (2) must match the second dimension of `indices` (0).");
}

}  // namespace sparse_fill_empty_rows_op_test
}  // namespace
}  // namespace rill
