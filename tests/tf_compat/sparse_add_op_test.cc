// The cases of TensorFlow's tensorflow/core/kernels/sparse_add_op_test.cc, which drive
// SparseAdd through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill
// (their inputs and expected values are TensorFlow's; the code is ours). Left out: the
// complex64 and complex128 instances (rill's ops take no complex values).
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace sparse_add_op_test {

// [    1]
// [2    ]
// [3   4]
const std::vector<int64_t> kIndices = {0, 1, 1, 0, 2, 0, 2, 1};
const std::vector<int64_t> kShape = {3, 2};

class SparseAddOpTest : public OpsTestBase {
 protected:
  template <typename T>
  void MakeOp() {
    const DataType value_type = DataTypeToEnum<T>::value;
    TF_ASSERT_OK(NodeDefBuilder("sparseadd", "SparseAdd")
                     .Input(FakeInput(DT_INT64))
                     .Input(FakeInput(value_type))
                     .Input(FakeInput(DT_INT64))
                     .Input(FakeInput(DT_INT64))
                     .Input(FakeInput(value_type))
                     .Input(FakeInput(DT_INT64))
                     .Input(FakeInput(value_type))
                     .Attr("Treal", value_type)
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  // The matrix above, with its values as given.
  template <typename T>
  void AddMatrix(std::vector<T> values) {
    AddInputFromArray<int64_t>(TensorShape({4, 2}), kIndices);
    AddInputFromArray<T>(TensorShape({4}), values);
    AddInputFromArray<int64_t>(TensorShape({2}), kShape);
  }

  // [    1]     [5    ]      [5   1]
  // [2    ]  +  [    6]  ==  [2   6]
  // [3   4]     [     ]      [3   4]
  template <typename T>
  void AddSparseTensorsWithDiffIndices() {
    MakeOp<T>();
    AddMatrix<T>({1, 2, 3, 4});
    AddInputFromArray<int64_t>(TensorShape({2, 2}), {0, 0, 1, 1});
    AddInputFromArray<T>(TensorShape({2}), {5, 6});
    AddInputFromArray<int64_t>(TensorShape({2}), kShape);
    AddInputFromArray<T>(TensorShape({}), {0});
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorEqual<int64_t>(
        test::AsTensor<int64_t>({0, 0, 0, 1, 1, 0, 1, 1, 2, 0, 2, 1}, {6, 2}), *GetOutput(0));
    test::ExpectTensorEqual<T>(test::AsTensor<T>({5, 1, 2, 6, 3, 4}), *GetOutput(1));
    test::ExpectTensorEqual<int64_t>(test::AsTensor<int64_t>(kShape), *GetOutput(2));
  }

  // Adding the matrix above to its cwise negation: every sum vanishes below the threshold.
  template <typename T>
  void SmallValuesShouldVanish(T thresh) {
    MakeOp<T>();
    AddMatrix<T>({1, 2, 3, 4});
    AddMatrix<T>({-1, -2, -3, -4});
    AddInputFromArray<T>(TensorShape({}), {thresh});
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorEqual<int64_t>(Tensor(DT_INT64, TensorShape({0, 2})), *GetOutput(0));
    test::ExpectTensorEqual<T>(Tensor(DataTypeToEnum<T>::value, TensorShape({0})), *GetOutput(1));
    test::ExpectTensorEqual<int64_t>(test::AsTensor<int64_t>(kShape), *GetOutput(2));
  }
};

TEST_F(SparseAddOpTest, TwoD_AddSparseTensorWithSelf) {
  MakeOp<float>();
  AddMatrix<float>({1, 2, 3, 4});
  AddMatrix<float>({1, 2, 3, 4});
  AddInputFromArray<float>(TensorShape({}), {0.0});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int64_t>(test::AsTensor<int64_t>(kIndices, {4, 2}), *GetOutput(0));
  test::ExpectTensorEqual<float>(test::AsTensor<float>({2, 4, 6, 8}), *GetOutput(1));
  test::ExpectTensorEqual<int64_t>(test::AsTensor<int64_t>(kShape), *GetOutput(2));
}

TEST_F(SparseAddOpTest, TwoD_AddSparseTensorsWithDiffIndices_int64_t) {
  AddSparseTensorsWithDiffIndices<int64_t>();
}
TEST_F(SparseAddOpTest, TwoD_AddSparseTensorsWithDiffIndices_float) {
  AddSparseTensorsWithDiffIndices<float>();
}
TEST_F(SparseAddOpTest, TwoD_AddSparseTensorsWithDiffIndices_double) {
  AddSparseTensorsWithDiffIndices<double>();
}

TEST_F(SparseAddOpTest, TwoD_SmallValuesShouldVanish_int64_t) {
  SmallValuesShouldVanish<int64_t>(1);
}
TEST_F(SparseAddOpTest, TwoD_SmallValuesShouldVanish_float) {
  SmallValuesShouldVanish<float>(1e-3f);
}
TEST_F(SparseAddOpTest, TwoD_SmallValuesShouldVanish_double) {
  SmallValuesShouldVanish<double>(1e-3f);
}

}  // namespace sparse_add_op_test
}  // namespace
}  // namespace rill
