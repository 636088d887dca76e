// The case of TensorFlow's tensorflow/cc/gradients/functional_grad_test.cc (the gradients of
// PartitionedCall and StatefulPartitionedCall), rewritten against rill (the function, the
// shapes and the error bound are TensorFlow's; the code is ours).
// rill: functions are FunctionRef values built with ops::MakeFunction and held by the node,
// not FunctionDefs in a graph's library named by a NameAttrList, so the call takes the
// function itself; test::function::XTimesTwo is written out as the function it defines.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace functional_grad_test {

using namespace ops;  // NOLINT(build/namespaces)

class FunctionGradTest : public ::testing::Test {
 protected:
  FunctionGradTest() : scope_(Scope::NewRootScope()) {}

  void RunTest(const Output& x, const TensorShape& x_shape, const Output& y,
               const TensorShape& y_shape) {
    TF_ASSERT_OK(scope_.status());
    float max_error;
    TF_ASSERT_OK((ComputeGradientError<float, float, float>(scope_, {x}, {x_shape}, {y}, {y_shape},
                                                            &max_error)));
    EXPECT_LT(max_error, 1e-3);
  }

  Scope scope_;
};

// x * 2, with the 2 cast to x's dtype (TensorFlow's test library function).
FunctionRef XTimesTwo(DataType t) {
  return *MakeFunction("XTimesTwo", {t}, {PartialTensorShape()},
                       [t](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
                         *r = {Mul(s, a[0], Cast(s, Const(s, int64_t{2}), t))};
                         return s.status();
                       });
}

TEST_F(FunctionGradTest, PartitionedCallGrad) {
  const FunctionRef f = XTimesTwo(DT_FLOAT);
  Output x = Placeholder(scope_, DT_FLOAT);
  auto results = PartitionedCall(scope_, {x}, {DT_FLOAT}, f);
  RunTest(x, {}, results[0], {});

  auto stateful_results = StatefulPartitionedCall(scope_, {x}, {DT_FLOAT}, f);
  RunTest(x, {}, stateful_results[0], {});
}

}  // namespace functional_grad_test
}  // namespace
}  // namespace rill
