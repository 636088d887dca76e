// The cases of TensorFlow's tensorflow/core/kernels/gather_nd_op_test.cc and
// dynamic_partition_op_test.cc, which drive the ops through OpsTestBase
// (runtime/testing/ops_testutil.h), rewritten against rill (their inputs and expected
// values are TensorFlow's; the code is ours). Left out: the quantized dtypes (rill has
// none), GatherNd's bad_indices_policy attribute (rill's GatherNd has none: a bad index
// is always an error; the case that sets it checks that), and the benchmarks.
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
namespace gather_nd_op_test {

class GatherNdOpTest : public OpsTestBase {
 protected:
  void MakeOp(DataType param_type, DataType index_type) {
    TF_ASSERT_OK(NodeDefBuilder("myop", "GatherNd")
                     .Input(FakeInput(param_type))
                     .Input(FakeInput(index_type))
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
};

TEST_F(GatherNdOpTest, Simple) {
  MakeOp(DT_FLOAT, DT_INT32);
  AddInputFromArray<float>(TensorShape({5}), {0, 1, 2, 8, 4});
  AddInputFromArray<int32_t>(TensorShape({2, 1}), {3, 4});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({8, 4}));
}

TEST_F(GatherNdOpTest, Error_OutOfRange) {
  MakeOp(DT_FLOAT, DT_INT32);
  AddInputFromArray<float>(TensorShape({5}), {0, 1, 2, 8, 4});
  AddInputFromArray<int32_t>(TensorShape({2, 1}), {3, 5});
  absl::Status s = RunOpKernel();
  EXPECT_TRUE(
      absl::StrContains(s.ToString(), "indices[1] = [5] does not index into param shape [5]"))
      << s;
}

// TensorFlow's case sets bad_indices_policy to an unknown value; rill's GatherNd has no
// such attribute, and an attribute an op does not have is refused at once.
TEST_F(GatherNdOpTest, Error_BadIndicesPolicyInvalid) {
  absl::Status s = NodeDefBuilder("myop", "GatherNd")
                       .Input(FakeInput(DT_FLOAT))
                       .Input(FakeInput(DT_INT32))
                       .Attr("bad_indices_policy", "AN_UNRECOGNIZED_POLICY")
                       .Finalize(node_def());
  EXPECT_NE(s, absl::OkStatus());
}

class DynamicPartitionOpTest : public OpsTestBase {
 protected:
  void MakeOp() {
    TF_ASSERT_OK(NodeDefBuilder("myop", "DynamicPartition")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT32))
                     .Attr("num_partitions", 4)
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  void ExpectPartitions(const std::vector<Tensor>& want) {
    ASSERT_EQ(output_types().size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      test::ExpectTensorEqual<float>(*GetOutput(static_cast<int>(i)), want[i]);
    }
  }
};

TEST_F(DynamicPartitionOpTest, Simple_OneD) {
  MakeOp();
  AddInputFromArray<float>(TensorShape({6}), {0, 13, 2, 39, 4, 17});
  AddInputFromArray<int32_t>(TensorShape({6}), {0, 0, 2, 3, 2, 1});
  TF_ASSERT_OK(RunOpKernel());
  ExpectPartitions({test::AsTensor<float>({0, 13}), test::AsTensor<float>({17}),
                    test::AsTensor<float>({2, 4}), test::AsTensor<float>({39})});
}

TEST_F(DynamicPartitionOpTest, Simple_TwoD) {
  MakeOp();
  AddInput<float>(TensorShape({6, 3}), [](int i) { return static_cast<float>(i); });
  AddInputFromArray<int32_t>(TensorShape({6}), {0, 0, 2, 3, 2, 1});
  TF_ASSERT_OK(RunOpKernel());
  ExpectPartitions({test::AsTensor<float>({0, 1, 2, 3, 4, 5}, {2, 3}),
                    test::AsTensor<float>({15, 16, 17}, {1, 3}),
                    test::AsTensor<float>({6, 7, 8, 12, 13, 14}, {2, 3}),
                    test::AsTensor<float>({9, 10, 11}, {1, 3})});
}

TEST_F(DynamicPartitionOpTest, SomeOutputsEmpty) {
  MakeOp();
  AddInputFromArray<float>(TensorShape({6}), {0, 13, 2, 39, 4, 17});
  AddInputFromArray<int32_t>(TensorShape({6}), {0, 0, 2, 2, 0, 2});
  TF_ASSERT_OK(RunOpKernel());
  const Tensor empty(allocator(), DT_FLOAT, TensorShape({0}));
  ExpectPartitions(
      {test::AsTensor<float>({0, 13, 4}), empty, test::AsTensor<float>({2, 39, 17}), empty});
}

TEST_F(DynamicPartitionOpTest, Error_IndexOutOfRange) {
  MakeOp();
  AddInput<float>(TensorShape({5, 3}), [](int i) { return static_cast<float>(i); });
  AddInputFromArray<int32_t>(TensorShape({5}), {0, 2, 99, 2, 2});
  absl::Status s = RunOpKernel();
  EXPECT_TRUE(absl::StrContains(s.ToString(), "partitions[2] = 99 is not in [0, 4)")) << s;
}

}  // namespace gather_nd_op_test
}  // namespace
}  // namespace rill
