// The cases of TensorFlow's tensorflow/core/kernels/scatter_op_test.cc, which drive
// ScatterUpdate and ScatterSub on a variable (a ref input, DT_FLOAT_REF and kin) through
// OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill (their inputs and
// expected values are TensorFlow's; the code is ours). Left out: the string case (rill has
// no strings) and the benchmarks. Where rill departs, the case says `rill:`; the cases
// after TensorFlow's are rill's own, on what TensorFlow's kernel also does (a scalar
// update for every indexed row) and on the other variable scatters.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace scatter_op_test {

const std::vector<float> kUpdates3x3 = {100, 101, 102, 777, 778, 779, 10000, 10001, 10002};
const char kShapeError[] =
    "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got ";

class ScatterOpTest : public OpsTestBase {
 protected:
  void MakeOp(const std::string& op, DataType variable_ref_type, DataType index_type) {
    TF_ASSERT_OK(NodeDefBuilder("myop", op)
                     .Input(FakeInput(variable_ref_type))
                     .Input(FakeInput(index_type))
                     .Input(FakeInput(RemoveRefType(variable_ref_type)))
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  // A float variable of zeros shaped `params`, int32 indices, float updates; runs.
  absl::Status RunOnZeros(const TensorShape& params, const TensorShape& indices_shape,
                          const std::vector<int32_t>& indices, const TensorShape& updates_shape,
                          const std::vector<float>& updates) {
    AddInput<float>(params, [](int) { return 0.f; });
    AddInputFromArray<int32_t>(indices_shape, indices);
    AddInputFromArray<float>(updates_shape, updates);
    return RunOpKernel();
  }
};

using ScatterUpdateOpTest = ScatterOpTest;
using ScatterSubOpTest = ScatterOpTest;

TEST_F(ScatterUpdateOpTest, Simple_BoolType) {
  MakeOp("ScatterUpdate", DT_BOOL_REF, DT_INT32);
  AddInputFromArray<bool>(TensorShape({1}), {false});
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  AddInputFromArray<bool>(TensorShape({1}), {true});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<bool>(*mutable_input(0).tensor, test::AsTensor<bool>({true}));
}

TEST_F(ScatterUpdateOpTest, Simple_TwoD32) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT32);
  TF_ASSERT_OK(RunOnZeros({5, 3}, {3}, {0, 4, 2}, {3, 3}, kUpdates3x3));
  test::ExpectTensorEqual<float>(
      *mutable_input(0).tensor,
      test::AsTensor<float>({100, 101, 102, 0, 0, 0, 10000, 10001, 10002, 0, 0, 0, 777, 778, 779},
                            {5, 3}));
}

TEST_F(ScatterUpdateOpTest, Simple_Two64) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT64);
  AddInput<float>(TensorShape({5, 3}), [](int) { return 0.f; });
  AddInputFromArray<int64_t>(TensorShape({3}), {0, 4, 2});
  AddInputFromArray<float>(TensorShape({3, 3}), kUpdates3x3);
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(
      *mutable_input(0).tensor,
      test::AsTensor<float>({100, 101, 102, 0, 0, 0, 10000, 10001, 10002, 0, 0, 0, 777, 778, 779},
                            {5, 3}));
}

TEST_F(ScatterUpdateOpTest, Simple_ZeroD) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT32);
  TF_ASSERT_OK(RunOnZeros({5}, {}, {3}, {}, {101}));
  test::ExpectTensorEqual<float>(*mutable_input(0).tensor,
                                 test::AsTensor<float>({0, 0, 0, 101, 0}));
}

TEST_F(ScatterUpdateOpTest, Simple_OneD) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT32);
  TF_ASSERT_OK(RunOnZeros({5}, {3}, {0, 4, 2}, {3}, {100, 101, 102}));
  test::ExpectTensorEqual<float>(*mutable_input(0).tensor,
                                 test::AsTensor<float>({100, 0, 102, 0, 101}));
}

TEST_F(ScatterUpdateOpTest, HigherRank) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT32);
  TF_ASSERT_OK(RunOnZeros({8}, {2, 3}, {0, 4, 2, 1, 3, 6}, {2, 3}, {10, 20, 30, 40, 50, 60}));
  test::ExpectTensorEqual<float>(*mutable_input(0).tensor,
                                 test::AsTensor<float>({10, 40, 30, 50, 20, 0, 60, 0}));
}

TEST_F(ScatterUpdateOpTest, Error_IndexOutOfRange) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT32);
  absl::Status s = RunOnZeros({5, 3}, {3}, {0, 4, 99}, {3, 3}, kUpdates3x3);
  EXPECT_TRUE(absl::StrContains(s.ToString(), "indices[2] = 99 is not in [0, 5)")) << s;
  // rill: a bad index changes nothing (TensorFlow's CPU kernel may have written rows).
  test::ExpectTensorEqual<float>(*mutable_input(0).tensor,
                                 test::AsTensor<float>(std::vector<float>(15, 0.f), {5, 3}));
}

TEST_F(ScatterSubOpTest, Error_IndexOutOfRange) {
  MakeOp("ScatterSub", DT_FLOAT_REF, DT_INT32);
  absl::Status s = RunOnZeros({14}, {3}, {0, 1, 99}, {3}, {100, 101, 102});
  EXPECT_TRUE(absl::StrContains(s.ToString(), "indices[2] = 99 is not in [0, 14)")) << s;
}

TEST_F(ScatterSubOpTest, StressIndexTest) {
  MakeOp("ScatterSub", DT_INT32_REF, DT_INT32);
  const int kNumUpdates = 1000000;
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  AddInputFromArray<int32_t>(TensorShape({kNumUpdates}), std::vector<int32_t>(kNumUpdates, 0));
  AddInputFromArray<int32_t>(TensorShape({kNumUpdates}), std::vector<int32_t>(kNumUpdates, 1));
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int32_t>(*mutable_input(0).tensor, test::AsTensor<int32_t>({-1000000}));
}

TEST_F(ScatterUpdateOpTest, Error_WrongDimsIndices) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT32);
  absl::Status s = RunOnZeros({2, 3}, {1, 3}, {0, 4, 99}, {3, 3}, kUpdates3x3);
  EXPECT_TRUE(absl::StrContains(s.ToString(), kShapeError)) << s;
}

TEST_F(ScatterUpdateOpTest, Error_MismatchedParamsAndUpdateDimensions) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT32);
  absl::Status s = RunOnZeros({5, 3}, {3}, {0, 4, 2}, {3, 4},
                              {100, 101, 102, 103, 777, 778, 779, 780, 10000, 10001, 10002, 10004});
  EXPECT_TRUE(absl::StrContains(s.ToString(), kShapeError)) << s;
}

TEST_F(ScatterUpdateOpTest, Error_MismatchedIndicesAndUpdateDimensions) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT32);
  absl::Status s = RunOnZeros({5, 3}, {3}, {0, 4, 2}, {2, 3}, {100, 101, 102, 10000, 10001, 10002});
  EXPECT_TRUE(absl::StrContains(s.ToString(), kShapeError)) << s;
}

// rill's own: TensorFlow's kernels take a scalar update for every element of every indexed
// row (updates.shape = []), which its test names in the message but does not run.
TEST_F(ScatterUpdateOpTest, ScalarUpdateFillsEveryIndexedRow) {
  MakeOp("ScatterUpdate", DT_FLOAT_REF, DT_INT32);
  TF_ASSERT_OK(RunOnZeros({4, 2}, {2}, {3, 1}, {}, {7}));
  test::ExpectTensorEqual<float>(*mutable_input(0).tensor,
                                 test::AsTensor<float>({0, 0, 7, 7, 0, 0, 7, 7}, {4, 2}));
}

TEST_F(ScatterSubOpTest, ScalarUpdateAppliesOncePerIndex) {
  MakeOp("ScatterSub", DT_FLOAT_REF, DT_INT64);
  AddInput<float>(TensorShape({3, 2}), [](int i) { return static_cast<float>(i); });
  AddInputFromArray<int64_t>(TensorShape({2, 2}), {2, 0, 2, 2});
  AddInputFromArray<float>(TensorShape({}), {0.5f});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*mutable_input(0).tensor,
                                 test::AsTensor<float>({-0.5f, 0.5f, 2, 3, 2.5f, 3.5f}, {3, 2}));
}

}  // namespace scatter_op_test
}  // namespace
}  // namespace rill
