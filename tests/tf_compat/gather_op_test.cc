// The cases of TensorFlow's tensorflow/core/kernels/gather_op_test.cc, which drive
// GatherV2 through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill
// (their inputs and expected values are TensorFlow's; the code is ours). Left out: the
// complex64 case (rill has no complex kernels) and the benchmarks.
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace gather_op_test {

class GatherOpTest : public OpsTestBase {
 protected:
  void MakeOp(DataType data_type, DataType index_type, int batch_dims = 0) {
    TF_ASSERT_OK(NodeDefBuilder("myop", "GatherV2")
                     .Input(FakeInput(data_type))
                     .Input(FakeInput(index_type))
                     .Input(FakeInput(index_type))
                     .Attr("batch_dims", batch_dims)
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  // params [5, 3] holding 0..14.
  void AddParams5x3() {
    AddInput<float>(TensorShape({5, 3}), [](int i) { return static_cast<float>(i); });
  }
};

TEST_F(GatherOpTest, ScalarIndices) {
  MakeOp(DT_FLOAT, DT_INT32);
  AddInputFromArray<float>(TensorShape({5}), {0, 1, 2, 3, 4});
  AddInputFromArray<int32_t>(TensorShape({}), {3});
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsScalar<float>(3));
}

TEST_F(GatherOpTest, Simple_TwoD32_Axis0) {
  MakeOp(DT_FLOAT, DT_INT32);
  AddParams5x3();
  AddInputFromArray<int32_t>(TensorShape({4}), {0, 4, 0, 2});
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(
      *GetOutput(0), test::AsTensor<float>({0, 1, 2, 12, 13, 14, 0, 1, 2, 6, 7, 8}, {4, 3}));
}

TEST_F(GatherOpTest, Simple_TwoD32_Axis1) {
  MakeOp(DT_FLOAT, DT_INT32);
  AddParams5x3();
  AddInputFromArray<int32_t>(TensorShape({4}), {0, 1, 0, 2});
  AddInputFromArray<int32_t>(TensorShape({}), {1});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(
      *GetOutput(0),
      test::AsTensor<float>({0, 1, 0, 2, 3, 4, 3, 5, 6, 7, 6, 8, 9, 10, 9, 11, 12, 13, 12, 14},
                            {5, 4}));
}

TEST_F(GatherOpTest, ZeroSize_TwoD32) {
  MakeOp(DT_FLOAT, DT_INT32);
  AddInputFromArray<float>(TensorShape({5, 0}), {});
  AddInputFromArray<int32_t>(TensorShape({4}), {0, 4, 0, 2});
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), Tensor(allocator(), DT_FLOAT, TensorShape({4, 0})));
}

TEST_F(GatherOpTest, Simple_TwoD64) {
  MakeOp(DT_FLOAT, DT_INT64);
  AddParams5x3();
  AddInputFromArray<int64_t>(TensorShape({4}), {0, 4, 0, 2});
  AddInputFromArray<int64_t>(TensorShape({}), {0});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(
      *GetOutput(0), test::AsTensor<float>({0, 1, 2, 12, 13, 14, 0, 1, 2, 6, 7, 8}, {4, 3}));
}

TEST_F(GatherOpTest, HighRank) {
  MakeOp(DT_FLOAT, DT_INT32);
  AddInputFromArray<float>(TensorShape({4}), {0, 1, 2, 3});
  AddInputFromArray<int32_t>(TensorShape({2, 3}), {1, 2, 0, 2, 3, 0});
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({1, 2, 0, 2, 3, 0}, {2, 3}));
}

TEST_F(GatherOpTest, Error_IndexOutOfRange) {
  MakeOp(DT_FLOAT, DT_INT32);
  AddParams5x3();
  AddInputFromArray<int32_t>(TensorShape({4}), {0, 4, 99, 2});
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  absl::Status s = RunOpKernel();
  EXPECT_TRUE(absl::StrContains(s.ToString(), "indices[2] = 99 is not in [0, 5)")) << s;
}

TEST_F(GatherOpTest, Error_BatchDimsOutOfRange) {
  MakeOp(DT_FLOAT, DT_INT32, 10);
  AddParams5x3();
  AddInputFromArray<int32_t>(TensorShape({4}), {0, 4, 99, 2});
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  absl::Status s = RunOpKernel();
  EXPECT_TRUE(
      absl::StrContains(s.ToString(), "Expected batch_dims in the range [-1, 1], but got 10"))
      << s;
}

}  // namespace gather_op_test
}  // namespace
}  // namespace rill
