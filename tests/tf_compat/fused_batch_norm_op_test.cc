// The cases of TensorFlow's tensorflow/core/kernels/fused_batch_norm_op_test.cc, which
// drive FusedBatchNorm and FusedBatchNormGrad (V1) through OpsTestBase
// (runtime/testing/ops_testutil.h), rewritten against rill (their inputs, attributes and
// expected values are TensorFlow's; the code is ours). Left out: the benchmarks.
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace fused_batch_norm_op_test {

const std::vector<float> kX = {5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15};
const std::vector<float> kY = {-3.86, -3.86, -1.51, -1.51, 0.83, 0.83,
                               3.17,  3.17,  5.51,  5.51,  7.86, 7.86};

class FusedBatchNormOpTest : public OpsTestBase {
 protected:
  // exponential_avg_factor < 0: left at its default.
  void MakeOp(bool is_training, double exponential_avg_factor) {
    NodeDefBuilder b("batch_norm_op", "FusedBatchNorm");
    for (int i = 0; i < 5; ++i) b.Input(FakeInput(DT_FLOAT));
    if (exponential_avg_factor >= 0) b.Attr("exponential_avg_factor", exponential_avg_factor);
    TF_EXPECT_OK(b.Attr("epsilon", 0.001).Attr("is_training", is_training).Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
  void AddInputs(const TensorShape& x, const std::vector<float>& values,
                 const std::vector<float>& mean, const std::vector<float>& variance) {
    AddInputFromArray<float>(x, values);
    AddInputFromArray<float>(TensorShape({2}), {4.0, 4.0});
    AddInputFromArray<float>(TensorShape({2}), {2.0, 2.0});
    AddInputFromArray<float>(TensorShape({static_cast<int64_t>(mean.size())}), mean);
    AddInputFromArray<float>(TensorShape({static_cast<int64_t>(variance.size())}), variance);
  }
  void ExpectY() {
    test::ExpectTensorNear<float>(test::AsTensor<float>(kY, {1, 1, 6, 2}), *GetOutput(0), 0.01);
  }
};

TEST_F(FusedBatchNormOpTest, Training) {
  MakeOp(true, 1.0);
  AddInputs(TensorShape({1, 1, 6, 2}), kX, {}, {});
  TF_ASSERT_OK(RunOpKernel());
  ExpectY();
  test::ExpectTensorNear<float>(test::AsTensor<float>({10, 10}), *GetOutput(1), 0.01);
  test::ExpectTensorNear<float>(test::AsTensor<float>({14.00, 14.00}), *GetOutput(2), 0.01);
}

TEST_F(FusedBatchNormOpTest, TrainingRunningMean) {
  MakeOp(true, 0.5);
  AddInputs(TensorShape({1, 1, 6, 2}), kX, {6.0, 6.0}, {16.0, 16.0});
  TF_ASSERT_OK(RunOpKernel());
  ExpectY();
  test::ExpectTensorNear<float>(test::AsTensor<float>({8, 8}), *GetOutput(1), 0.01);
  test::ExpectTensorNear<float>(test::AsTensor<float>({15.00, 15.00}), *GetOutput(2), 0.01);
}

TEST_F(FusedBatchNormOpTest, Inference) {
  MakeOp(false, -1);
  AddInputs(TensorShape({1, 1, 6, 2}), kX, {10, 10}, {11.67f, 11.67f});
  TF_ASSERT_OK(RunOpKernel());
  ExpectY();
}

TEST_F(FusedBatchNormOpTest, InferenceIgnoreAvgFactor) {
  MakeOp(false, 0.5);
  AddInputs(TensorShape({1, 1, 6, 2}), kX, {10, 10}, {11.67f, 11.67f});
  TF_ASSERT_OK(RunOpKernel());
  ExpectY();
}

TEST_F(FusedBatchNormOpTest, EmptyInput) {
  MakeOp(true, -1);
  AddInputFromArray<float>(TensorShape({1, 1, 0, 0}), {});
  for (int i = 0; i < 4; ++i) AddInputFromArray<float>(TensorShape({0}), {});
  TF_ASSERT_OK(RunOpKernel());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({1, 1, 0, 0}));
}

class FusedBatchNormGradOpTest : public OpsTestBase {};

TEST_F(FusedBatchNormGradOpTest, Simple) {
  NodeDefBuilder b("batch_norm_grad_op", "FusedBatchNormGrad");
  for (int i = 0; i < 5; ++i) b.Input(FakeInput(DT_FLOAT));
  TF_EXPECT_OK(b.Attr("epsilon", 0.001).Finalize(node_def()));
  TF_EXPECT_OK(InitOp());
  AddInputFromArray<float>(TensorShape({1, 1, 6, 2}), {2, 2, 9, 9, -4, -4, 5, 5, 8, 8, 7, 7});
  AddInputFromArray<float>(TensorShape({1, 1, 6, 2}), {1, 1, 7, 7, 4, 4, -3, -3, -11, -11, 13, 13});
  AddInputFromArray<float>(TensorShape({2}), {4, 4});
  AddInputFromArray<float>(TensorShape({2}), {1.833f, 1.833f});
  AddInputFromArray<float>(TensorShape({2}), {57.472f, 57.472f});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorNear<float>(test::AsTensor<float>({-1.34, -1.34, 2.47, 2.47, -4.44, -4.44, 0.17,
                                                       0.17, 1.60, 1.60, 1.53, 1.53},
                                                      {1, 1, 6, 2}),
                                *GetOutput(0), 0.01);
  test::ExpectTensorNear<float>(test::AsTensor<float>({-1.6488, -1.6488}), *GetOutput(1), 0.01);
  test::ExpectTensorNear<float>(test::AsTensor<float>({27, 27}), *GetOutput(2), 0.01);
}

}  // namespace fused_batch_norm_op_test
}  // namespace
}  // namespace rill
