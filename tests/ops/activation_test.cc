// Relu6, Elu, Selu, LeakyRelu and their gradient ops against values worked out by hand,
// in float32 and float64 (and Relu6 in the integer types), and the logical ops with
// broadcasting. Gradients are checked numerically in gradient_test.cc and the GPU kernels
// against these CPU ones in the op cases.
#include <cmath>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace activation_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"Relu6", "Elu", "Selu", "LeakyRelu", "Relu6Grad", "EluGrad", "SeluGrad",
                   "LeakyReluGrad", "LogicalAnd", "LogicalOr", "LogicalNot"});

constexpr double kScale = 1.0507009873554804934193349852946;
constexpr double kScaleAlpha = kScale * 1.6732632423543772848170429916717;
// alpha is a float attr, as TensorFlow's: float64 kernels compute with the float nearest
// the value asked for.
constexpr double A(float alpha) { return alpha; }

struct Case {
  const char* what;
  BuildFn build;
  std::vector<std::vector<double>> in;
  std::vector<double> want;
};

BuildFn Unary(std::function<Output(const Scope&, Output)> f) {
  return [f](const Scope& s, const std::vector<Output>& in) { return f(s, in[0]); };
}
BuildFn Binary(std::function<Output(const Scope&, Output, Output)> f) {
  return [f](const Scope& s, const std::vector<Output>& in) { return f(s, in[0], in[1]); };
}

std::vector<Case> FloatCases() {
  return {
      {"Relu6",
       Unary([](auto s, auto x) { return Relu6(s, x); }),
       {{-9, -0.5, 0, 3, 6, 7}},
       {0, 0, 0, 3, 6, 6}},
      {"Elu",
       Unary([](auto s, auto x) { return Elu(s, x); }),
       {{-1, 0, 2, -3}},
       {std::exp(-1.0) - 1, 0, 2, std::exp(-3.0) - 1}},
      {"Selu",
       Unary([](auto s, auto x) { return Selu(s, x); }),
       {{-1, 0, 2}},
       {kScaleAlpha * (std::exp(-1.0) - 1), 0, 2 * kScale}},
      {"LeakyRelu (alpha 0.2 by default)",
       Unary([](auto s, auto x) { return LeakyRelu(s, x); }),
       {{-2, -0.5, 0, 3}},
       {-2 * A(0.2f), -0.5 * A(0.2f), 0, 3}},
      {"LeakyRelu alpha 0.1",
       Unary([](auto s, auto x) { return LeakyRelu(s, x, LeakyRelu::Alpha(0.1f)); }),
       {{-2, -0.5, 0, 3}},
       {-2 * A(0.1f), -0.5 * A(0.1f), 0, 3}},
      // The mask is open at both ends: 0 and 6 pass no gradient.
      {"Relu6Grad",
       Binary([](auto s, auto g, auto x) { return Relu6Grad(s, g, x); }),
       {{1, 2, 3, 4, 5}, {-1, 0, 3, 6, 7}},
       {0, 0, 3, 0, 0}},
      {"EluGrad",
       Binary([](auto s, auto g, auto y) { return EluGrad(s, g, y); }),
       {{2, 2, 2}, {-0.5, 0, 1}},
       {1, 2, 2}},
      {"SeluGrad",
       Binary([](auto s, auto g, auto y) { return SeluGrad(s, g, y); }),
       {{1, 2}, {-1, 2}},
       {-1 + kScaleAlpha, 2 * kScale}},
      {"LeakyReluGrad alpha 0.3",
       Binary([](auto s, auto g, auto x) {
         return LeakyReluGrad(s, g, x, LeakyReluGrad::Alpha(0.3f));
       }),
       {{1, 2, 1}, {-1, 0, 2}},
       {A(0.3f), 2 * A(0.3f), 1}},
  };
}

std::vector<Tensor> Inputs(const Case& c, DataType dt) {
  std::vector<Tensor> in;
  for (const auto& v : c.in) in.push_back(FromDoubles(dt, {static_cast<int64_t>(v.size())}, v));
  return in;
}

TEST(Activations, ValuesByHandInBothFloatTypes) {
  for (const Case& c : FloatCases()) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(std::string(c.what) + " " + DataTypeString(dt));
      absl::StatusOr<Tensor> got = RunOp(c.build, Inputs(c, dt));
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, {static_cast<int64_t>(c.want.size())}, c.want,
                       dt == DT_FLOAT ? 1e-6 : 1e-12);
    }
  }
}

TEST(Activations, Relu6TakesIntegersAndTheOthersDoNot) {
  const std::vector<Case> cases = FloatCases();
  for (DataType dt : {DT_INT32, DT_INT64}) {
    absl::StatusOr<Tensor> got = RunOp(cases[0].build, Inputs(cases[0], dt));
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {6}, {0, 0, 0, 3, 6, 6}, 0);
    got = RunOp(cases[5].build, Inputs(cases[5], dt));
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {5}, {0, 0, 3, 0, 0}, 0);
  }
  for (size_t i = 1; i < cases.size(); ++i) {
    if (i == 5) continue;  // Relu6Grad
    Scope s = Scope::NewRootScope();
    std::vector<Output> in(cases[i].in.size(), ops::Const(s, {1, 2}));
    cases[i].build(s, in);
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << cases[i].what;
  }
}

TEST(Activations, InfinitiesAndNan) {
  const double inf = INFINITY;
  const std::vector<Case> cases = FloatCases();
  auto run = [&](int i, std::vector<double> x) {
    return ToDoubles(*RunOp(cases[i].build, {FromDoubles(DT_DOUBLE, {int64_t(x.size())}, x)}));
  };
  EXPECT_EQ(run(0, {inf, -inf}), (std::vector<double>{6, 0}));
  EXPECT_EQ(run(1, {inf, -inf}), (std::vector<double>{inf, -1}));
  EXPECT_EQ(run(2, {inf, -inf}), (std::vector<double>{inf, -kScaleAlpha}));
  EXPECT_EQ(run(3, {inf, -inf}), (std::vector<double>{inf, -inf}));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(std::isnan(run(i, {NAN})[0])) << cases[i].what;
}

Tensor Bools(const TensorShape& shape, const std::vector<double>& v) {
  return FromDoubles(DT_BOOL, shape, v);
}

TEST(LogicalOps, TruthTablesWithBroadcasting) {
  auto and_op = Binary([](auto s, auto x, auto y) { return LogicalAnd(s, x, y); });
  auto or_op = Binary([](auto s, auto x, auto y) { return LogicalOr(s, x, y); });
  // [2, 2] against [2]: every pair of truth values once.
  const Tensor x = Bools({2, 2}, {0, 0, 1, 1}), y = Bools({2}, {0, 1});
  absl::StatusOr<Tensor> got = RunOp(and_op, {x, y});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_BOOL, {2, 2}, {0, 0, 0, 1}, 0);
  got = RunOp(or_op, {x, y});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_BOOL, {2, 2}, {0, 1, 1, 1}, 0);
  // A scalar against a [3, 1] and [1, 2] against [3, 1].
  got = RunOp(or_op, {Bools({}, {0}), Bools({3, 1}, {1, 0, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_BOOL, {3, 1}, {1, 0, 1}, 0);
  got = RunOp(and_op, {Bools({1, 2}, {1, 0}), Bools({3, 1}, {1, 0, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_BOOL, {3, 2}, {1, 0, 0, 0, 1, 0}, 0);
  got = RunOp(Unary([](auto s, auto x) { return LogicalNot(s, x); }), {Bools({3}, {1, 0, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_BOOL, {3}, {0, 1, 0}, 0);
}

TEST(LogicalOps, NumbersAreRefusedAtConstruction) {
  Scope s = Scope::NewRootScope();
  LogicalAnd(s, ops::Const(s, {1.0f}), ops::Const(s, {true}));
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("bool"), std::string::npos) << s.status();
}

}  // namespace activation_test
}  // namespace
}  // namespace rill::testing
