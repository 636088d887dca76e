// IsotonicRegression: fits and segments by hand (a violator pooled into the blocks before
// it, equal means kept apart, integers fitted in double), its gradient against central
// differences, and its gradient op's own gradient.
#include "gradient_checker.h"
#include "rill/ops/nn_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace isotonic_test {

MarkTested tested({"IsotonicRegression", "_IsotonicRegressionGrad"});

// Output k of IsotonicRegression in double.
BuildFn Fit(int k) {
  return [k](const Scope& s, const std::vector<Output>& in) {
    ops::IsotonicRegression r(s, in[0], ops::IsotonicRegression::OutputDtype(DT_DOUBLE));
    return k == 0 ? r.output : r.segments;
  };
}

// Row 0: 3 after 1 pools them (2); 2 ties with that block and stays apart; 4 pools
// everything before it (2.5). Row 1: already non-increasing, each its own block.
TEST(IsotonicRegression, PoolsAdjacentViolatorsRowByRow) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor x = FromDoubles(dt, {2, 5}, {1, 3, 2, 4, 0, 5, 4, 4, 1, -2});
    auto y = RunOp(Fit(0), {x});
    ASSERT_TRUE(y.ok()) << y.status();
    ExpectTensorNear(*y, DT_DOUBLE, {2, 5}, {2.5, 2.5, 2.5, 2.5, 0, 5, 4, 4, 1, -2}, 0);
    auto seg = RunOp(Fit(1), {x});
    ASSERT_TRUE(seg.ok()) << seg.status();
    ExpectTensorNear(*seg, DT_INT32, {2, 5}, {0, 0, 0, 0, 1, 0, 1, 2, 3, 4}, 0);
  }
}

TEST(IsotonicRegression, FloatByDefaultAndEmptyRows) {
  auto y =
      RunOp([](const Scope& s,
               const std::vector<Output>& in) { return ops::IsotonicRegression(s, in[0]).output; },
            {FromDoubles(DT_INT32, {3}, {1, 2, 3})});
  ASSERT_TRUE(y.ok()) << y.status();
  ExpectTensorNear(*y, DT_FLOAT, {3}, {2, 2, 2}, 0);
  auto empty = RunOp(Fit(0), {Tensor(DT_FLOAT, TensorShape({4, 0}))});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({4, 0}));
}

// Inputs without ties between block means, so the fit is smooth where the check looks.
TEST(IsotonicRegression, GradientMatchesNumericAndItsOpsToo) {
  const Tensor x =
      FromDoubles(DT_DOUBLE, {2, 6}, {0.3, 1.7, 0.9, 2.6, -1.1, -0.4, 5, 4.1, 4.6, 2.2, 2.9, -3});
  ExpectGradientMatchesNumeric(Fit(0), {x});
  const Tensor segments = FromDoubles(DT_INT32, {2, 6}, {0, 0, 0, 0, 1, 1, 0, 1, 1, 2, 2, 3});
  ExpectGradientMatchesNumeric(
      [segments](const Scope& s, const std::vector<Output>& in) {
        return Output(ops::internal::IsotonicRegressionGrad(s, in[0], ops::Const(s, segments)));
      },
      {RandomTensor(DT_DOUBLE, {2, 6}, -1, 1, 3)});
}

const bool kMarked = [] {
  GradTestedOps().insert({"IsotonicRegression", "_IsotonicRegressionGrad"});
  return true;
}();

}  // namespace isotonic_test
}  // namespace
}  // namespace rill::testing
