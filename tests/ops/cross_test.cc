// Cross: products by hand (the right-hand rule, a batch), integers that wrap, the gradient
// against central differences (and differentiated again), and op cases for GPU parity.
#include "gradient_checker.h"
#include "rill/ops/math_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace cross_test {

MarkTested tested({"Cross"});

Output CrossOf(const Scope& s, const std::vector<Output>& in) {
  return ops::Cross(s, in[0], in[1]);
}

TEST(Cross, RightHandRuleAndABatchByHand) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(dt));
    // x cross y = z, y cross x = -z, (1,2,3) cross (4,5,6) = (-3,6,-3), v cross v = 0
    const Tensor a = FromDoubles(dt, {2, 2, 3}, {1, 0, 0, 0, 1, 0, 1, 2, 3, 2, -7, 5});
    const Tensor b = FromDoubles(dt, {2, 2, 3}, {0, 1, 0, 1, 0, 0, 4, 5, 6, 2, -7, 5});
    auto got = RunOp(CrossOf, {a, b});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 2, 3}, {0, 0, 1, 0, 0, -1, -3, 6, -3, 0, 0, 0}, 0);
  }
}

// uint8 wraps modulo 256, as TensorFlow's kernel: (1,2,3) x (4,5,6) = (-3,6,-3).
TEST(Cross, Uint8Wraps) {
  auto got = RunOp(CrossOf,
                   {FromDoubles(DT_UINT8, {3}, {1, 2, 3}), FromDoubles(DT_UINT8, {3}, {4, 5, 6})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_UINT8, {3}, {253, 6, 253}, 0);
}

TEST(Cross, AnEmptyBatchGivesAnEmptyProduct) {
  auto got = RunOp(CrossOf,
                   {Tensor(DT_FLOAT, TensorShape({0, 3})), Tensor(DT_FLOAT, TensorShape({0, 3}))});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->shape(), TensorShape({0, 3}));
}

TEST(Cross, GradientMatchesNumericAndIsDifferentiable) {
  const Tensor a = RandomTensor(DT_DOUBLE, {2, 4, 3}, -1, 1, 1);
  const Tensor b = RandomTensor(DT_DOUBLE, {2, 4, 3}, -1, 1, 2);
  ExpectGradientMatchesNumeric(CrossOf, {a, b});
  // The square of each product's elements: the gradient's own Cross nodes differentiated.
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        auto y = ops::Cross(s, in[0], in[1]);
        std::vector<Output> dy;
        auto st = ops::AddSymbolicGradients(s, {Output(ops::Square(s, y))}, {in[0]}, &dy);
        return st.ok() ? dy[0] : Output();
      },
      {a, b});
}

const bool kMarked = [] {
  GradTestedOps().insert("Cross");
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    c.push_back({"Cross " + DataTypeString(dt),
                 CrossOf,
                 {RandomTensor(dt, {5, 37, 3}, -9, 9, 3), RandomTensor(dt, {5, 37, 3}, -9, 9, 4)}});
  }
  return c;
}

}  // namespace cross_test
}  // namespace

RILL_OP_CASES(cross, cross_test::Cases);

}  // namespace rill::testing
