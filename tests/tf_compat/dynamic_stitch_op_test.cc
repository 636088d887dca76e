// The cases of TensorFlow's tensorflow/core/kernels/dynamic_stitch_op_test.cc, which
// drive DynamicStitch through OpsTestBase (runtime/testing/ops_testutil.h), rewritten
// against rill (their inputs and expected values are TensorFlow's; the code is ours).
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace dynamic_stitch_op_test {

class DynamicStitchOpTest : public OpsTestBase {
 protected:
  void MakeOp(int n, DataType dt) {
    TF_ASSERT_OK(NodeDefBuilder("myop", "DynamicStitch")
                     .Input(FakeInput(n, DT_INT32))
                     .Input(FakeInput(n, dt))
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  // Two lists: indices of `shape0` and `shape1` (values `i0`, `i1`), data of `d0` and `d1`.
  absl::Status RunTwo(const TensorShape& shape0, std::vector<int32_t> i0, const TensorShape& shape1,
                      std::vector<int32_t> i1, const TensorShape& d0, std::vector<float> v0,
                      const TensorShape& d1, std::vector<float> v1) {
    MakeOp(2, DT_FLOAT);
    AddInputFromArray<int32_t>(shape0, i0);
    AddInputFromArray<int32_t>(shape1, i1);
    AddInputFromArray<float>(d0, v0);
    AddInputFromArray<float>(d1, v1);
    return RunOpKernel();
  }
};

TEST_F(DynamicStitchOpTest, Simple_OneD) {
  TF_ASSERT_OK(RunTwo(TensorShape({3}), {0, 4, 7}, TensorShape({5}), {1, 6, 2, 3, 5},
                      TensorShape({3}), {0, 40, 70}, TensorShape({5}), {10, 60, 20, 30, 50}));
  test::ExpectTensorEqual<float>(*GetOutput(0),
                                 test::AsTensor<float>({0, 10, 20, 30, 40, 50, 60, 70}));
}

TEST_F(DynamicStitchOpTest, Simple_TwoD) {
  MakeOp(3, DT_FLOAT);
  AddInputFromArray<int32_t>(TensorShape({3}), {0, 4, 7});
  AddInputFromArray<int32_t>(TensorShape({2}), {1, 6});
  AddInputFromArray<int32_t>(TensorShape({3}), {2, 3, 5});
  AddInputFromArray<float>(TensorShape({3, 2}), {0, 1, 40, 41, 70, 71});
  AddInputFromArray<float>(TensorShape({2, 2}), {10, 11, 60, 61});
  AddInputFromArray<float>(TensorShape({3, 2}), {20, 21, 30, 31, 50, 51});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(
      *GetOutput(0), test::AsTensor<float>(
                         {0, 1, 10, 11, 20, 21, 30, 31, 40, 41, 50, 51, 60, 61, 70, 71}, {8, 2}));
}

TEST_F(DynamicStitchOpTest, IndicesNotCoverAllPortions) {
  MakeOp(1, DT_FLOAT);
  AddInputFromArray<int32_t>(TensorShape({1}), {2});
  AddInputFromArray<float>(TensorShape({1}), {1});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({0, 0, 1}));
}

TEST_F(DynamicStitchOpTest, Error_IndicesMultiDimensional) {
  absl::Status s = RunTwo(TensorShape({3}), {0, 4, 7}, TensorShape({1, 5}), {1, 6, 2, 3, 5},
                          TensorShape({3}), {0, 40, 70}, TensorShape({5}), {10, 60, 20, 30, 50});
  EXPECT_TRUE(absl::StrContains(s.ToString(),
                                "data[1].shape = [5] does not start with indices[1].shape = [1,5]"))
      << s;
}

TEST_F(DynamicStitchOpTest, Error_DataNumDimsMismatch) {
  absl::Status s = RunTwo(TensorShape({3}), {0, 4, 7}, TensorShape({5}), {1, 6, 2, 3, 5},
                          TensorShape({3}), {0, 40, 70}, TensorShape({1, 5}), {10, 60, 20, 30, 50});
  EXPECT_TRUE(absl::StrContains(s.ToString(),
                                "data[1].shape = [1,5] does not start with indices[1].shape = [5]"))
      << s;
}

TEST_F(DynamicStitchOpTest, Error_DataDimSizeMismatch) {
  absl::Status s =
      RunTwo(TensorShape({3}), {0, 4, 5}, TensorShape({4}), {1, 6, 2, 3}, TensorShape({3, 1}),
             {0, 40, 70}, TensorShape({4, 2}), {10, 11, 60, 61, 20, 21, 30, 31});
  EXPECT_TRUE(absl::StrContains(s.ToString(),
                                "Need data[0].shape[1:] = data[1].shape[1:], got "
                                "data[0].shape = [3,1], data[1].shape = [4,2]"))
      << s;
}

TEST_F(DynamicStitchOpTest, Error_DataAndIndicesSizeMismatch) {
  absl::Status s = RunTwo(TensorShape({3}), {0, 4, 7}, TensorShape({5}), {1, 6, 2, 3, 5},
                          TensorShape({3}), {0, 40, 70}, TensorShape({4}), {10, 60, 20, 30});
  EXPECT_TRUE(absl::StrContains(s.ToString(),
                                "data[1].shape = [4] does not start with indices[1].shape = [5]"))
      << s;
}

}  // namespace dynamic_stitch_op_test
}  // namespace
}  // namespace rill
