// The cases of TensorFlow's tensorflow/cc/gradients/data_flow_grad_test.cc (the gradients
// of DynamicPartition and DynamicStitch), rewritten against rill (shapes, partitions,
// indices and the error bound are TensorFlow's; the code is ours).
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace data_flow_grad_test {

using ops::Const;
using ops::DynamicPartition;
using ops::DynamicStitch;
using ops::Placeholder;

class DataFlowGradTest : public ::testing::Test {
 protected:
  DataFlowGradTest() : scope_(Scope::NewRootScope()) {}

  void RunTest(const OutputList& xs, const std::vector<TensorShape>& x_shapes, const OutputList& ys,
               const std::vector<TensorShape>& y_shapes) {
    TF_ASSERT_OK(scope_.status());
    float max_error;
    TF_ASSERT_OK((
        ComputeGradientError<float, float, float>(scope_, xs, x_shapes, ys, y_shapes, &max_error)));
    EXPECT_LT(max_error, 1e-4);
  }

  Scope scope_;
};

TEST_F(DataFlowGradTest, DynamicPartitionGrad) {
  TensorShape data_shape({2, 3, 2});
  auto data = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(data_shape));
  // Each of the three partitions gets two of the six rows.
  auto partitions = Const(scope_, {{2, 1, 0}, {1, 2, 0}});
  auto y = DynamicPartition(scope_, data, partitions, 3);
  TensorShape partition_shape({2, 2});
  RunTest({data}, {data_shape}, y.outputs, {partition_shape, partition_shape, partition_shape});
}

TEST_F(DataFlowGradTest, DynamicStitchGrad) {
  TensorShape d1_shape({2});
  TensorShape d2_shape({2, 2});
  // A scalar index for the first list, a vector for the second: rows 2, then 1 and 0.
  std::vector<Output> indices = {Const(scope_, 2), Const(scope_, {1, 0})};
  std::vector<Output> data = {Placeholder(scope_, DT_FLOAT, Placeholder::Shape(d1_shape)),
                              Placeholder(scope_, DT_FLOAT, Placeholder::Shape(d2_shape))};
  auto y = DynamicStitch(scope_, indices, data);
  RunTest(data, {d1_shape, d2_shape}, {y}, {TensorShape({3, 2})});
}

}  // namespace data_flow_grad_test
}  // namespace
}  // namespace rill
