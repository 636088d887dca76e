// The case of TensorFlow's tensorflow/core/kernels/batch_norm_op_test.cc, which drives
// BatchNormWithGlobalNormalization through OpsTestBase (runtime/testing/ops_testutil.h)
// at GraphDef version 8 (TensorFlow retired the op at 9), rewritten against rill (its
// inputs and expected values are TensorFlow's; the code is ours). Left out: half, which
// rill does not have; rill runs it in double instead.
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace batch_norm_op_test {

template <typename T>
class BatchNormOpTest : public OpsTestBase {};
using DataTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(BatchNormOpTest, DataTypes);

TYPED_TEST(BatchNormOpTest, Simple) {
  const DataType dt = DataTypeToEnum<TypeParam>::value;
  TF_EXPECT_OK(NodeDefBuilder("batch_norm_op", "BatchNormWithGlobalNormalization")
                   .Input(FakeInput(dt))
                   .Input(FakeInput(dt))
                   .Input(FakeInput(dt))
                   .Input(FakeInput(dt))
                   .Input(FakeInput(dt))
                   .Attr("scale_after_normalization", false)
                   .Attr("variance_epsilon", 0.001)
                   .Finalize(this->node_def()));
  TF_EXPECT_OK(this->InitOpWithGraphVersion(8));
  this->template AddInputFromList<TypeParam>(TensorShape({1, 1, 6, 2}),
                                             {1, 4, 2, 5, 3, 6, -1, -4, -2, -5, -3, -6});
  this->template AddInputFromList<TypeParam>(TensorShape({2}), {10, 20});
  this->template AddInputFromList<TypeParam>(TensorShape({2}), {0.25, 0.5});
  this->template AddInputFromList<TypeParam>(TensorShape({2}), {0.1, 0.6});
  this->template AddInputFromList<TypeParam>(TensorShape({2}), {0.0, 0.0});
  TF_ASSERT_OK(this->RunOpKernel());
  test::ExpectTensorNear<TypeParam>(
      test::AsTensor<TypeParam>({-17.86, -22.00, -15.87, -20.59, -13.87, -19.18, -21.86, -33.31,
                                 -23.85, -34.72, -25.85, -36.13},
                                {1, 1, 6, 2}),
      *this->GetOutput(0), 0.01);
}

}  // namespace batch_norm_op_test
}  // namespace
}  // namespace rill
