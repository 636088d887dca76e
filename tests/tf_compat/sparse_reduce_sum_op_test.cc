// The cases of TensorFlow's tensorflow/core/kernels/sparse_reduce_sum_op_test.cc, which
// drive SparseReduceSum and SparseReduceSumSparse through OpsTestBase
// (runtime/testing/ops_testutil.h), rewritten against rill (their inputs and expected
// values are TensorFlow's; the code is ours).
#include <string>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace sparse_reduce_sum_op_test {

class SparseReduceOpTest : public OpsTestBase {
 protected:
  void MakeOpOf(const std::string& op) {
    TF_ASSERT_OK(NodeDefBuilder("sparse_reduce", op)
                     .Input(FakeInput(DT_INT64))
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT64))
                     .Input(FakeInput(DT_INT32))
                     .Attr("T", DT_FLOAT)
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  // The [3, 2] matrix whose entries are at (0, 1), (1, 0), (2, 0), (2, 1), reduced over
  // axis 0.
  void AddInputs(std::vector<float> values) {
    AddInputFromArray<int64_t>(TensorShape({4, 2}), {0, 1, 1, 0, 2, 0, 2, 1});
    AddInputFromArray<float>(TensorShape({4}), values);
    AddInputFromArray<int64_t>(TensorShape({2}), {3, 2});
    AddInputFromArray<int32_t>(TensorShape({1}), {0});  // reduction axes
  }
};

class SparseReduceSumOpTest : public SparseReduceOpTest {
 protected:
  void MakeOp() { MakeOpOf("SparseReduceSum"); }
};

class SparseReduceSumSparseOpTest : public SparseReduceOpTest {
 protected:
  void MakeOp() { MakeOpOf("SparseReduceSumSparse"); }
};

TEST_F(SparseReduceSumOpTest, SimpleReduce) {
  MakeOp();
  // [    1]
  // [2    ]
  // [3   4]
  AddInputs({1, 2, 3, 4});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(test::AsTensor<float>({5, 5}), *GetOutput(0));
}

TEST_F(SparseReduceSumSparseOpTest, SimpleReduce) {
  MakeOp();
  // [    2]
  // [2    ]
  // [3   4]
  AddInputs({2, 2, 3, 4});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int64_t>(test::AsTensor<int64_t>({0, 1}, {2, 1}), *GetOutput(0));
  test::ExpectTensorEqual<float>(test::AsTensor<float>({5, 6}), *GetOutput(1));
  test::ExpectTensorEqual<int64_t>(test::AsTensor<int64_t>({2}), *GetOutput(2));
}

}  // namespace sparse_reduce_sum_op_test
}  // namespace
}  // namespace rill
