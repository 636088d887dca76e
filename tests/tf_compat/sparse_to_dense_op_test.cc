// The cases of TensorFlow's tensorflow/core/kernels/sparse_to_dense_op_test.cc, which drive
// SparseToDense through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill
// (their inputs and expected values are TensorFlow's; the code is ours). Left out: the
// benchmark.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace sparse_to_dense_op_test {

class SparseToDenseTest : public OpsTestBase {
 protected:
  void MakeOp(int /*dim*/, DataType index_type, DataType value_type) {
    TF_ASSERT_OK(NodeDefBuilder("sparsetodense", "SparseToDense")
                     .Input(FakeInput(index_type))
                     .Input(FakeInput(index_type))
                     .Input(FakeInput(value_type))
                     .Input(FakeInput(value_type))
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }

  // A [3, 4] (or [3, 4, 2]) tensor of -2 but at three places.
  static Tensor Expected(const TensorShape& shape, const std::vector<int64_t>& at,
                         std::vector<float> values) {
    Tensor t = test::AsTensor<float>(std::vector<float>(shape.num_elements(), -2.0f), shape);
    for (size_t i = 0; i < at.size(); ++i) t.flat<float>()(at[i]) = values[i];
    return t;
  }
};

TEST_F(SparseToDenseTest, OneD_OneValue) {
  MakeOp(1, DT_INT32, DT_FLOAT);
  AddInputFromArray<int32_t>(TensorShape({3}), {1, 3, 4});  // sparse_indices
  AddInputFromArray<int32_t>(TensorShape({1}), {5});        // output_shape
  AddInputFromArray<float>(TensorShape({}), {2});           // sparse_values
  AddInputFromArray<float>(TensorShape({}), {-2});          // default_value
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, {5});
  test::FillValues<float>(&expected, {-2, 2, -2, 2, 2});
  test::ExpectTensorEqual<float>(expected, *GetOutput(0));
}

TEST_F(SparseToDenseTest, OneD_OneValue_int64_double) {
  MakeOp(1, DT_INT64, DT_DOUBLE);
  AddInputFromArray<int64_t>(TensorShape({3}), {1, 3, 4});
  AddInputFromArray<int64_t>(TensorShape({1}), {5});
  AddInputFromArray<double>(TensorShape({}), {2});
  AddInputFromArray<double>(TensorShape({}), {-2});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_DOUBLE, {5});
  test::FillValues<double>(&expected, {-2, 2, -2, 2, 2});
  test::ExpectTensorEqual<double>(expected, *GetOutput(0));
}

TEST_F(SparseToDenseTest, OneD_MultValues) {
  MakeOp(1, DT_INT32, DT_FLOAT);
  AddInputFromArray<int32_t>({3}, {1, 3, 4});
  AddInputFromArray<int32_t>({1}, {5});
  AddInputFromArray<float>({3}, {3, 4, 5});
  AddInputFromArray<float>({}, {-2});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, {5});
  test::FillValues<float>(&expected, {-2, 3, -2, 4, 5});
  test::ExpectTensorEqual<float>(expected, *GetOutput(0));
}

TEST_F(SparseToDenseTest, TwoD_OneValue) {
  MakeOp(2, DT_INT32, DT_FLOAT);
  AddInputFromArray<int32_t>(TensorShape({3, 2}), {0, 1, 0, 2, 2, 3});
  AddInputFromArray<int32_t>(TensorShape({2}), {3, 4});
  AddInputFromArray<float>(TensorShape({}), {2});
  AddInputFromArray<float>(TensorShape({}), {-2});
  TF_ASSERT_OK(RunOpKernel());
  // (0, 1), (0, 2) and (2, 3) of [3, 4].
  test::ExpectTensorEqual<float>(Expected({3, 4}, {1, 2, 11}, {2, 2, 2}), *GetOutput(0));
}

TEST_F(SparseToDenseTest, TwoD_MultValues) {
  MakeOp(2, DT_INT32, DT_FLOAT);
  AddInputFromArray<int32_t>(TensorShape({3, 2}), {0, 1, 0, 2, 2, 3});
  AddInputFromArray<int32_t>(TensorShape({2}), {3, 4});
  AddInputFromArray<float>(TensorShape({3}), {3, 4, 5});
  AddInputFromArray<float>(TensorShape({}), {-2});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(Expected({3, 4}, {1, 2, 11}, {3, 4, 5}), *GetOutput(0));
}

TEST_F(SparseToDenseTest, ThreeD_OneValue) {
  MakeOp(3, DT_INT32, DT_FLOAT);
  AddInputFromArray<int32_t>(TensorShape({3, 3}), {0, 1, 1, 0, 2, 0, 2, 3, 1});
  AddInputFromArray<int32_t>(TensorShape({3}), {3, 4, 2});
  AddInputFromArray<float>(TensorShape({}), {2});
  AddInputFromArray<float>(TensorShape({}), {-2});
  TF_ASSERT_OK(RunOpKernel());
  // (0, 1, 1), (0, 2, 0) and (2, 3, 1) of [3, 4, 2].
  test::ExpectTensorEqual<float>(Expected({3, 4, 2}, {3, 4, 23}, {2, 2, 2}), *GetOutput(0));
}

TEST_F(SparseToDenseTest, ThreeD_MultValues) {
  MakeOp(3, DT_INT32, DT_FLOAT);
  AddInputFromArray<int32_t>(TensorShape({3, 3}), {0, 1, 1, 0, 2, 0, 2, 3, 1});
  AddInputFromArray<int32_t>(TensorShape({3}), {3, 4, 2});
  AddInputFromArray<float>(TensorShape({3}), {3, 4, 5});
  AddInputFromArray<float>(TensorShape({}), {-2});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(Expected({3, 4, 2}, {3, 4, 23}, {3, 4, 5}), *GetOutput(0));
}

}  // namespace sparse_to_dense_op_test
}  // namespace
}  // namespace rill
