// The cases of TensorFlow's tensorflow/core/kernels/image/adjust_contrast_op_test.cc, which
// drive AdjustContrastv2 through OpsTestBase (runtime/testing/ops_testutil.h), rewritten
// against rill (their inputs and expected values are TensorFlow's; the code is ours).
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace adjust_contrast_op_test {

class AdjustContrastOpTest : public OpsTestBase {
 protected:
  void SetUp() override {
    TF_EXPECT_OK(NodeDefBuilder("adjust_contrast_op", "AdjustContrastv2")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_FLOAT))
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
};

TEST_F(AdjustContrastOpTest, Simple_1113) {
  AddInputFromArray<float>(TensorShape({1, 1, 1, 3}), {-1, 2, 3});
  AddInputFromArray<float>(TensorShape({}), {1.0});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(test::AsTensor<float>({-1, 2, 3}, {1, 1, 1, 3}), *GetOutput(0));
}

TEST_F(AdjustContrastOpTest, Simple_1223) {
  AddInputFromArray<float>(TensorShape({1, 2, 2, 3}), {1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12});
  AddInputFromArray<float>(TensorShape({}), {0.2f});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(test::AsTensor<float>({2.2f, 6.2f, 10.2f, 2.4f, 6.4f, 10.4f, 2.6f,
                                                        6.6f, 10.6f, 2.8f, 6.8f, 10.8f},
                                                       {1, 2, 2, 3}),
                                 *GetOutput(0));
}

// TensorFlow's case only runs it; rill's checks one channel's mean is kept.
TEST_F(AdjustContrastOpTest, Big_99x99x3) {
  std::vector<float> values;
  values.reserve(99 * 99 * 3);
  for (int i = 0; i < 99 * 99 * 3; ++i) values.push_back(static_cast<float>(i % 255));
  AddInputFromArray<float>(TensorShape({1, 99, 99, 3}), values);
  AddInputFromArray<float>(TensorShape({}), {0.2f});
  TF_ASSERT_OK(RunOpKernel());
  double in_sum = 0, out_sum = 0;
  for (int i = 0; i < 99 * 99 * 3; i += 3) {
    in_sum += values[i];
    out_sum += GetOutput(0)->flat<float>()(i);
  }
  EXPECT_NEAR(out_sum / (99 * 99), in_sum / (99 * 99), 1e-3);
}

}  // namespace adjust_contrast_op_test
}  // namespace
}  // namespace rill
