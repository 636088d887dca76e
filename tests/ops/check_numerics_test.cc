// CheckNumerics: finite values pass through unchanged (same buffer), NaN and Inf are an
// error in TensorFlow's words naming the node, and the gradient is checked too.
#include <cmath>
#include <limits>

#include "gradient_checker.h"
#include "rill/ops/debug_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace check_numerics_test {

MarkTested tested({"CheckNumerics"});

BuildFn Check(const std::string& message) {
  return
      [message](const Scope& s, const auto& in) { return ops::CheckNumerics(s, in[0], message); };
}

TEST(CheckNumerics, PassesFiniteValuesAndNamesNanAndInf) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    const double big = dt == DT_FLOAT ? 3e38 : 1e308;  // the largest finite values pass
    const Tensor ok = FromDoubles(dt, {2, 2}, {-big, 0, 1.5, big});
    for (auto run : {RunOp, RunOpConst}) {
      auto got = run(Check("fine"), {ok});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, {2, 2}, ToDoubles(ok), 0);
    }
    auto got = RunOp(Check("empty"), {Tensor(dt, TensorShape({0, 3}))});
    ASSERT_TRUE(got.ok()) << got.status();
    const std::vector<std::pair<std::vector<double>, std::string>> bad = {
        {{1, nan, 2, 3}, "x : Tensor had NaN values"},
        {{1, -inf, 2, 3}, "x : Tensor had Inf values"},
        {{inf, nan, 2, 3}, "x : Tensor had Inf and NaN values"},
    };
    for (const auto& [values, message] : bad) {
      got = RunOp(Check("x"), {FromDoubles(dt, {2, 2}, values)});
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(got.status().message().find(message), std::string::npos) << got.status();
      EXPECT_NE(got.status().message().find("CheckNumerics"), std::string::npos) << got.status();
    }
  }
}

// The gradient of y = CheckNumerics(x^2) is 2x, itself checked: a NaN reaching it from
// above is reported with TensorFlow's gradient message.
TEST(CheckNumerics, GradientIsCheckedToo) {
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(ops::CheckNumerics(s, ops::Square(s, in[0]), "square"));
      },
      {RandomTensor(DT_DOUBLE, {3, 2}, -1, 1, 1)});
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto y = ops::CheckNumerics(s, x, "forward");
  std::vector<Output> grads;
  ASSERT_TRUE(
      ops::AddSymbolicGradients(s, {y}, {x}, {ops::Sqrt(s, ops::Const(s, -1.f))}, &grads).ok());
  Session session(s);
  std::vector<Tensor> out;
  auto st = session.Run({{x, Tensor(2.f)}}, {grads[0]}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("Not a number (NaN) or infinity (Inf) values detected in gradient. "
                              "forward : Tensor had NaN values"),
            std::string::npos)
      << st;
}

const bool kMarked = [] {
  GradTestedOps().insert("CheckNumerics");
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    c.push_back({"CheckNumerics " + DataTypeString(dt),
                 Check("finite"),
                 {RandomTensor(dt, {7, 9}, -1e3, 1e3, 2)},
                 0,
                 false});
  }
  return c;
}

}  // namespace check_numerics_test
}  // namespace

RILL_OP_CASES(check_numerics, check_numerics_test::Cases);

}  // namespace rill::testing
