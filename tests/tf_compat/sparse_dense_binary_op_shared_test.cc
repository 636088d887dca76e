// The cases of TensorFlow's tensorflow/core/kernels/sparse_dense_binary_op_shared_test.cc,
// which drive SparseDenseCwiseDiv and SparseDenseCwiseMul through OpsTestBase
// (runtime/testing/ops_testutil.h), rewritten against rill (their inputs and expected
// values are TensorFlow's; the code is ours). Left out: the benchmarks.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace sparse_dense_binary_op_shared_test {

void ExpectHasSubstr(StringPiece s, StringPiece expected) {
  EXPECT_TRUE(absl::StrContains(s, expected))
      << "'" << s << "' does not contain '" << expected << "'";
}

// The op `op` on a sparse operand of float values and a dense one.
class SparseDenseOpTest : public OpsTestBase {
 protected:
  void MakeOpOf(const std::string& op) {
    TF_ASSERT_OK(NodeDefBuilder("cwise", op)
                     .Input(FakeInput(DT_INT64))
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT64))
                     .Input(FakeInput(DT_FLOAT))
                     .Attr("T", DT_FLOAT)
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  // [    1]
  // [2    ]  (shape [3, 2]) op `dense` of `dense_shape`
  // [3   4]
  void AddMatrixInputs(const TensorShape& dense_shape, std::vector<float> dense) {
    AddInputFromArray<int64_t>(TensorShape({4, 2}), {0, 1, 1, 0, 2, 0, 2, 1});
    AddInputFromArray<float>(TensorShape({4}), {1, 2, 3, 4});
    AddInputFromArray<int64_t>(TensorShape({2}), {3, 2});
    AddInputFromArray<float>(dense_shape, dense);
  }
};

class SparseDenseCDivTest : public SparseDenseOpTest {
 protected:
  void MakeOp() { MakeOpOf("SparseDenseCwiseDiv"); }
};

class SparseDenseCMulTest : public SparseDenseOpTest {
 protected:
  void MakeOp() { MakeOpOf("SparseDenseCwiseMul"); }
};

TEST_F(SparseDenseCDivTest, DoNotBroadcastSparse_FewerDims) {
  MakeOp();
  // [1] op [2, 1]
  AddInputFromArray<int64_t>(TensorShape({1, 1}), {0});
  AddInputFromArray<float>(TensorShape({1}), {1618});
  AddInputFromArray<int64_t>(TensorShape({1}), {1});
  AddInputFromArray<float>(TensorShape({2, 1}), {17, 19});
  ExpectHasSubstr(RunOpKernel().ToString(), "broadcasts dense to sparse only");
}

TEST_F(SparseDenseCDivTest, DoNotBroadcastSparse_SameDims) {
  MakeOp();
  // [1, 1] op [2, 1]
  AddInputFromArray<int64_t>(TensorShape({1, 2}), {0, 0});
  AddInputFromArray<float>(TensorShape({1}), {1618});
  AddInputFromArray<int64_t>(TensorShape({2}), {1, 1});
  AddInputFromArray<float>(TensorShape({2, 1}), {17, 19});
  ExpectHasSubstr(RunOpKernel().ToString(), "broadcasts dense to sparse only");
}

TEST_F(SparseDenseCDivTest, SameShape) {
  MakeOp();
  AddMatrixInputs(TensorShape({3, 2}), std::vector<float>(6, 1));
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(test::AsTensor<float>({1, 2, 3, 4}), *GetOutput(0));
}

TEST_F(SparseDenseCDivTest, BroadcastDenseSameDims) {
  MakeOp();
  AddMatrixInputs(TensorShape({3, 1}), std::vector<float>(3, 1));
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(test::AsTensor<float>({1, 2, 3, 4}), *GetOutput(0));
}

TEST_F(SparseDenseCDivTest, BroadcastDenseFewerDims) {
  MakeOp();
  AddMatrixInputs(TensorShape({2}), std::vector<float>(2, 1));
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(test::AsTensor<float>({1, 2, 3, 4}), *GetOutput(0));
}

TEST_F(SparseDenseCMulTest, BroadcastDense) {
  MakeOp();
  // Result:
  // [?   0]
  // [1   ?]  where ? remains implicitly zero.
  // [1.5 0]
  AddMatrixInputs(TensorShape({2}), {0.5, 0});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(test::AsTensor<float>({0, 1, 1.5, 0}), *GetOutput(0));
}

}  // namespace sparse_dense_binary_op_shared_test
}  // namespace
}  // namespace rill
