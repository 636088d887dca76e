// The n-ary cases (NaryGradTest, CumsumGradTest) of TensorFlow's
// tensorflow/cc/gradients/math_grad_test.cc, rewritten against rill (inputs, formulas and error
// bounds are TensorFlow's; the code is ours). None is left out.
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/testutil.h"

namespace rill {
using namespace ops;  // NOLINT(build/namespaces)

namespace {
namespace math_grad_nary_test {

class NaryGradTest : public ::testing::Test {
 protected:
  NaryGradTest() : scope_(Scope::NewRootScope().WithDevice("/cpu:0")) {}

  void RunTest(const OutputList& xs, const std::vector<TensorShape>& x_shapes, const OutputList& ys,
               const std::vector<TensorShape>& y_shapes) {
    TF_ASSERT_OK(scope_.status());
    float max_error;
    TF_ASSERT_OK((ComputeGradientError(scope_, xs, x_shapes, ys, y_shapes, &max_error)));
    EXPECT_LT(max_error, 1e-3);
  }
  void RunTest(const Output& x, const Tensor& x_init_value, const Output& y,
               const TensorShape& y_shape) {
    TF_ASSERT_OK(scope_.status());
    float max_error;
    TF_ASSERT_OK((ComputeGradientError(scope_, x, x_init_value, y, y_shape, &max_error)));
    EXPECT_LT(max_error, 1e-3);
  }
  Output In(const TensorShape& shape) {
    return Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  }

  Scope scope_;
};

TEST_F(NaryGradTest, Sum) {
  TensorShape x_shape({2, 3, 5, 7});
  auto x = In(x_shape);
  RunTest({x}, {x_shape}, {Sum(scope_, x, {1, -1})}, {TensorShape({2, 5})});
}

TEST_F(NaryGradTest, Mean) {
  TensorShape x_shape({2, 3, 5, 7});
  auto x = In(x_shape);
  RunTest({x}, {x_shape}, {Mean(scope_, x, {1, -1})}, {TensorShape({2, 5})});
}

TEST_F(NaryGradTest, Min) {
  TensorShape x_shape({2, 3});
  auto x = In(x_shape);
  RunTest(x, test::AsTensor<float>({0.5f, 0.7f, 0.2f, 1.0f, 1.5f, -2.8f}, x_shape),
          Min(scope_, x, {-1}), TensorShape({2}));
}

TEST_F(NaryGradTest, Max) {
  TensorShape x_shape({2, 3});
  auto x = In(x_shape);
  RunTest(x, test::AsTensor<float>({0.5f, 0.7f, 0.2f, 1.0f, 1.5f, -2.8f}, x_shape),
          Max(scope_, x, {-1}), TensorShape({2}));
}

TEST_F(NaryGradTest, MinMulti) {
  // Several equal minima: one input broadcast over three equal values.
  TensorShape x_shape({1});
  auto x = In(x_shape);
  auto all_same = Mul(scope_, Const(scope_, {1.f, 1.f, 1.f}), x);
  RunTest({x}, {x_shape}, {Min(scope_, all_same, {0})}, {TensorShape({1})});
}

TEST_F(NaryGradTest, MaxMulti) {
  TensorShape x_shape({1});
  auto x = In(x_shape);
  auto all_same = Mul(scope_, Const(scope_, {1.f, 1.f, 1.f}), x);
  RunTest({x}, {x_shape}, {Max(scope_, all_same, {0})}, {TensorShape({1})});
}

TEST_F(NaryGradTest, AddN) {
  TensorShape shape({3, 2, 5});
  std::vector<Output> xs = {In(shape), In(shape), In(shape)};
  RunTest(xs, {shape, shape, shape}, {AddN(scope_, xs)}, {shape});
}

TEST_F(NaryGradTest, BroadcastingBinaryOps) {
  TensorShape x1_shape({3, 2, 5}), x2_shape({2, 5});
  for (int op = 0; op < 3; ++op) {
    SCOPED_TRACE(op);
    auto x1 = In(x1_shape);
    auto x2 = In(x2_shape);
    Output y = op == 0   ? Output(Add(scope_, x1, x2))
               : op == 1 ? Output(Sub(scope_, x1, x2))
                         : Output(Mul(scope_, x1, x2));
    RunTest({x1, x2}, {x1_shape, x2_shape}, {y}, {x1_shape});
  }
}

TEST_F(NaryGradTest, Div) {
  // x / (1 + |x|): no large quotients for the numeric estimate.
  TensorShape x_shape({3, 2, 5});
  auto x = In(x_shape);
  auto y = Div(scope_, x, Add(scope_, Const<float>(scope_, 1), Abs(scope_, x)));
  RunTest({x}, {x_shape}, {y}, {x_shape});
}

TEST_F(NaryGradTest, RealDiv) {
  TensorShape x_shape({3, 2, 5});
  auto x = In(x_shape);
  auto y = RealDiv(scope_, x, Add(scope_, Const<float>(scope_, 1), Abs(scope_, x)));
  RunTest({x}, {x_shape}, {y}, {x_shape});
}

TEST_F(NaryGradTest, DivNoNan) {
  {
    TensorShape x_shape({3, 2, 5});
    auto x = In(x_shape);
    auto y = DivNoNan(scope_, x, Add(scope_, Const<float>(scope_, 1), Abs(scope_, x)));
    RunTest({x}, {x_shape}, {y}, {x_shape});
  }
  {
    // Division by zero: a zero gradient, not NaN.
    auto x = Placeholder(scope_, DT_FLOAT);
    auto y = DivNoNan(scope_, x, Const<float>(scope_, 0.0));
    std::vector<Output> grad_outputs;
    TF_EXPECT_OK(AddSymbolicGradients(scope_, {y}, {x}, &grad_outputs));
    ClientSession session(scope_);
    std::vector<Tensor> grad_result;
    TF_EXPECT_OK(session.Run({{x, {-3.0f, 0.0f, 3.0f}}}, grad_outputs, &grad_result));
    ASSERT_EQ(grad_result.size(), 1u);
    ASSERT_EQ(grad_result[0].NumElements(), 3);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(grad_result[0].flat<float>()(i), 0.0f);
  }
}

TEST_F(NaryGradTest, SquaredDifference) {
  TensorShape x1_shape({3, 2, 5}), x2_shape({2, 5});
  auto x1 = In(x1_shape);
  auto x2 = In(x2_shape);
  auto y = SquaredDifference(scope_, x1, x2);
  RunTest({x1, x2}, {x1_shape, x2_shape}, {y}, {x1_shape});
}

TEST_F(NaryGradTest, Pow) {
  TensorShape shape({3});
  auto x = In(shape);
  // A fixed exponent keeps the powers in range.
  RunTest({x}, {shape}, {Pow(scope_, x, Const(scope_, {1.f, 2.f, 3.f}))}, {shape});
}

TEST_F(NaryGradTest, Maximum) {
  TensorShape shape({3, 2});
  auto x = In(shape);
  RunTest(x, test::AsTensor<float>({0.5f, 1.5f, -1.2f, 3.0f, 0.1f, 2.8f}, {3, 2}),
          Maximum(scope_, x, Const(scope_, 1.0f)), shape);
}

TEST_F(NaryGradTest, Minimum) {
  TensorShape shape({3, 2});
  auto x = In(shape);
  RunTest(x, test::AsTensor<float>({0.5f, 1.5f, -1.2f, 3.0f, 0.1f, 2.8f}, {3, 2}),
          Minimum(scope_, x, Const(scope_, 1.0f)), shape);
}

TEST_F(NaryGradTest, Prod) {
  TensorShape x_shape({2, 3, 2});
  auto x = In(x_shape);
  RunTest({x}, {x_shape}, {Prod(scope_, x, {1})}, {TensorShape({2, 1, 2})});
}

TEST_F(NaryGradTest, SegmentSum) {
  TensorShape x_shape({3, 4});
  auto x = In(x_shape);
  RunTest({x}, {x_shape}, {SegmentSum(scope_, x, {0, 0, 1})}, {TensorShape({2, 4})});
}

class CumsumGradTest : public NaryGradTest,
                       public ::testing::WithParamInterface<std::tuple<bool, bool, int>> {};

TEST_P(CumsumGradTest, CumsumGrad) {
  TensorShape shape({2, 3, 2});
  auto x = In(shape);
  auto attrs = Cumsum::Exclusive(std::get<0>(GetParam())).Reverse(std::get<1>(GetParam()));
  RunTest({x}, {shape}, {Cumsum(scope_, x, std::get<2>(GetParam()), attrs)}, {shape});
}

INSTANTIATE_TEST_SUITE_P(CumsumGrad, CumsumGradTest,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool(),
                                            ::testing::Range(0, 2)));

TEST_F(NaryGradTest, CastGrad) {
  TensorShape shape({2, 3, 2});
  auto x = Placeholder(scope_, DT_DOUBLE, Placeholder::Shape(shape));
  auto y = Cast(scope_, x, DT_FLOAT);
  TF_ASSERT_OK(scope_.status());
  double max_error;
  TF_ASSERT_OK((
      ComputeGradientError<double, float, double>(scope_, {x}, {shape}, {y}, {shape}, &max_error)));
  EXPECT_LT(max_error, 1e-3);
}

TEST_F(NaryGradTest, Select) {
  TensorShape shape({1, 3});
  auto cond = Const<bool>(scope_, {{false, true, true}});
  auto x = In(shape), y = In(shape);
  RunTest({x, y}, {shape, shape}, {Where3(scope_, cond, x, y)}, {shape});
}

TEST_F(NaryGradTest, SelectV2_Basic) {
  TensorShape shape({1, 3});
  auto cond = Const<bool>(scope_, {{false, true, true}});
  auto x = In(shape), y = In(shape);
  RunTest({x, y}, {shape, shape}, {SelectV2(scope_, cond, x, y)}, {shape});
}

TEST_F(NaryGradTest, SelectV2_Broadcast) {
  TensorShape x_shape({2, 3}), y_shape({});
  auto cond = Const<bool>(scope_, {{false, true, true}, {true, true, false}});
  auto x = In(x_shape), y = In(y_shape);
  RunTest({x, y}, {x_shape, y_shape}, {SelectV2(scope_, cond, x, y)}, {x_shape});
}

TEST_F(NaryGradTest, SelectV2_Broadcast2) {
  TensorShape x_shape({2, 3});
  auto cond = Const<bool>(scope_, {{false}, {true}});
  auto x = In(x_shape), y = In(x_shape);
  RunTest({x, y}, {x_shape, x_shape}, {SelectV2(scope_, cond, x, y)}, {x_shape});
}

TEST_F(NaryGradTest, Atan2Grad) {
  TensorShape shape({3, 2, 5});
  auto x1 = In(shape);
  // x2 = x1 / (1 + |x1|) keeps away from where the numeric estimate is unstable.
  auto x2 = Div(scope_, x1, Add(scope_, Const<float>(scope_, 1), Abs(scope_, x1)));
  RunTest({x1}, {shape}, {Atan2(scope_, x1, x2)}, {shape});
}

// The unsorted segment reductions over x [3, 2, 5].
class UnsortedSegmentGradTest : public NaryGradTest {
 protected:
  template <typename Op>
  void Check(const Input& ids, int num_segments) {
    TensorShape shape({3, 2, 5});
    auto x = In(shape);
    auto y = Op(scope_, x, ids, num_segments);
    RunTest({x}, {shape}, {y}, {TensorShape({num_segments, 2, 5})});
  }
};

TEST_F(UnsortedSegmentGradTest, UnsortedSegmentMaxGrad) {
  Check<UnsortedSegmentMax>(Const(scope_, {0, 0, 1}), 2);
}
TEST_F(UnsortedSegmentGradTest, UnsortedSegmentMaxGrad_Int64Ids) {
  Check<UnsortedSegmentMax>(Const(scope_, {int64_t{0}, int64_t{0}, int64_t{1}}), 2);
}
TEST_F(UnsortedSegmentGradTest, UnsortedSegmentMaxGrad_NegativeIds) {
  Check<UnsortedSegmentMax>(Const(scope_, {0, 0, -1}), 1);
}
TEST_F(UnsortedSegmentGradTest, UnsortedSegmentMinGrad) {
  Check<UnsortedSegmentMin>(Const(scope_, {0, 0, 1}), 2);
}
TEST_F(UnsortedSegmentGradTest, UnsortedSegmentSumGrad) {
  Check<UnsortedSegmentSum>(Const(scope_, {0, 0, 1}), 2);
}

}  // namespace math_grad_nary_test
}  // namespace
}  // namespace rill
