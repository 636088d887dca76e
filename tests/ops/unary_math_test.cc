// The float math ops of core/unary_math.h against values worked out by hand, in float32
// and float64 (their gradients are checked numerically in gradient_test.cc, their GPU
// kernels against these CPU ones in the op cases).
#include <cmath>
#include <limits>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace unary_math_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"Rsqrt", "Reciprocal", "Floor",    "Ceil",   "Round",   "Sin",
                   "Cos",   "Erf",        "Softplus", "Expm1",  "Log1p",   "Sinh",
                   "Cosh",  "Tan",        "Asin",     "Acos",   "Atan",    "Asinh",
                   "Acosh", "Atanh",      "Softsign", "Lgamma", "Digamma", "Polygamma"});

struct UnaryCase {
  const char* op;
  BuildFn build;
  std::vector<double> x, want;
  double tol;
};

std::vector<UnaryCase> Cases() {
  auto op = [](auto make) -> BuildFn {
    return [make](const Scope& s, const std::vector<Output>& in) { return make(s, in[0]); };
  };
  return {
      {"Rsqrt",
       op([](auto s, auto x) { return Output(Rsqrt(s, x)); }),
       {4, 0.25, 1},
       {0.5, 2, 1},
       1e-7},
      {"Reciprocal",
       op([](auto s, auto x) { return Output(Reciprocal(s, x)); }),
       {-4, 0.5, 8},
       {-0.25, 2, 0.125},
       0},
      {"Floor",
       op([](auto s, auto x) { return Output(Floor(s, x)); }),
       {-1.5, -0.5, 0.5, 2},
       {-2, -1, 0, 2},
       0},
      {"Ceil",
       op([](auto s, auto x) { return Output(Ceil(s, x)); }),
       {-1.5, -0.5, 0.5, 2},
       {-1, -0, 1, 2},
       0},
      // Ties go to the even neighbour, as TensorFlow's Round (and numpy's) do.
      {"Round",
       op([](auto s, auto x) { return Output(Round(s, x)); }),
       {-2.5, -1.5, -0.4, 0.5, 1.5, 2.5, 2.6},
       {-2, -2, -0, 0, 2, 2, 3},
       0},
      {"Sin",
       op([](auto s, auto x) { return Output(Sin(s, x)); }),
       {0, M_PI / 2, -M_PI / 6},
       {0, 1, -0.5},
       1e-6},
      {"Cos",
       op([](auto s, auto x) { return Output(Cos(s, x)); }),
       {0, M_PI, M_PI / 3},
       {1, -1, 0.5},
       1e-6},
      {"Erf",
       op([](auto s, auto x) { return Output(Erf(s, x)); }),
       {0, 1, -0.5},
       {0, 0.8427007929497149, -0.5204998778130465},
       1e-6},
      // log(1 + e^x) with no overflow for large x and no underflow to 0 for moderate -x.
      {"Softplus",
       op([](auto s, auto x) { return Output(Softplus(s, x)); }),
       {0, 1, -20, 100, 1000},
       {std::log(2.0), std::log1p(std::exp(1.0)), 2.0611536e-9, 100, 1000},
       1e-6},
      // Closed forms: sinh(ln 2) = 3/4, cosh(ln 2) = 5/4, atanh(0.6) = ln 2, ...; expm1 and
      // log1p keep a tiny x (1 + x would round it away).
      {"Expm1",
       op([](auto s, auto x) { return Output(Expm1(s, x)); }),
       {0, 1e-10, M_LN2},
       {0, 1e-10, 1},
       1e-6},
      {"Log1p",
       op([](auto s, auto x) { return Output(Log1p(s, x)); }),
       {0, 1e-10, M_E - 1},
       {0, 1e-10, 1},
       1e-6},
      {"Sinh",
       op([](auto s, auto x) { return Output(Sinh(s, x)); }),
       {0, M_LN2, -M_LN2},
       {0, 0.75, -0.75},
       1e-6},
      {"Cosh",
       op([](auto s, auto x) { return Output(Cosh(s, x)); }),
       {0, M_LN2, -M_LN2},
       {1, 1.25, 1.25},
       1e-6},
      {"Tan",
       op([](auto s, auto x) { return Output(Tan(s, x)); }),
       {0, M_PI / 4, -M_PI / 4},
       {0, 1, -1},
       1e-6},
      {"Asin",
       op([](auto s, auto x) { return Output(Asin(s, x)); }),
       {0, 0.5, -1},
       {0, M_PI / 6, -M_PI / 2},
       1e-6},
      {"Acos",
       op([](auto s, auto x) { return Output(Acos(s, x)); }),
       {1, 0.5, -1},
       {0, M_PI / 3, M_PI},
       1e-6},
      {"Atan",
       op([](auto s, auto x) { return Output(Atan(s, x)); }),
       {0, 1, -1},
       {0, M_PI / 4, -M_PI / 4},
       1e-6},
      {"Asinh",
       op([](auto s, auto x) { return Output(Asinh(s, x)); }),
       {0, 0.75, -0.75},
       {0, M_LN2, -M_LN2},
       1e-6},
      {"Acosh",
       op([](auto s, auto x) { return Output(Acosh(s, x)); }),
       {1, 1.25},
       {0, M_LN2},
       1e-6},
      {"Atanh",
       op([](auto s, auto x) { return Output(Atanh(s, x)); }),
       {0, 0.6, -0.6},
       {0, M_LN2, -M_LN2},
       1e-6},
      // x / (1 + |x|): odd, and near +-1 far out.
      {"Softsign",
       op([](auto s, auto x) { return Output(Softsign(s, x)); }),
       {0, 1, -3, 1e30},
       {0, 0.5, -0.75, 1},
       1e-6},
      // lgamma(0.5) = log(sqrt(pi)), lgamma(-0.5) = log(2 sqrt(pi)), lgamma(10) = log(9!).
      {"Lgamma",
       op([](auto s, auto x) { return Output(Lgamma(s, x)); }),
       {1, 0.5, -0.5, 10, 2.5},
       {0, 0.5723649429247001, 1.2655121234846454, 12.801827480081469, 0.2846828704729192},
       1e-6},
      // digamma(1) = -Euler's gamma, digamma(0.5) = -gamma - 2 log 2, then values by the
      // recurrence digamma(x + 1) = digamma(x) + 1 / x and the reflection formula.
      {"Digamma",
       op([](auto s, auto x) { return Output(Digamma(s, x)); }),
       {1, 0.5, 10, -0.5, 100, 1e-3},
       {-0.5772156649015329, -1.9635100260214235, 2.251752589066721, 0.03648997397857652,
        4.600161852738087, -1000.5755719318103},
       1e-6},
  };
}

TEST(UnaryMath, ValuesByHandInBothFloatTypes) {
  for (const UnaryCase& c : Cases()) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(std::string(c.op) + " " + DataTypeString(dt));
      const TensorShape shape({static_cast<int64_t>(c.x.size())});
      absl::StatusOr<Tensor> got = RunOp(c.build, {FromDoubles(dt, shape, c.x)});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, shape, c.want, c.tol);
    }
  }
}

TEST(UnaryMath, EdgeValuesFollowIeee) {
  const double inf = std::numeric_limits<double>::infinity();
  auto run = [](BuildFn f, std::vector<double> x) {
    return ToDoubles(*RunOp(f, {FromDoubles(DT_DOUBLE, {static_cast<int64_t>(x.size())}, x)}));
  };
  const auto cases = Cases();
  EXPECT_EQ(run(cases[0].build, {0})[0], inf);              // Rsqrt(0)
  EXPECT_TRUE(std::isnan(run(cases[0].build, {-1})[0]));    // Rsqrt(-1)
  EXPECT_EQ(run(cases[1].build, {0})[0], inf);              // Reciprocal(0)
  EXPECT_EQ(run(cases[8].build, {-inf})[0], 0);             // Softplus(-inf)
  EXPECT_EQ(run(cases[8].build, {inf})[0], inf);            // Softplus(inf)
  EXPECT_EQ(run(cases[7].build, {inf})[0], 1);              // Erf(inf)
  EXPECT_EQ(run(cases[9].build, {-inf})[0], -1);            // Expm1(-inf)
  EXPECT_EQ(run(cases[10].build, {-1})[0], -inf);           // Log1p(-1)
  EXPECT_TRUE(std::isnan(run(cases[10].build, {-2})[0]));   // Log1p(-2)
  EXPECT_TRUE(std::isnan(run(cases[14].build, {2})[0]));    // Asin(2)
  EXPECT_TRUE(std::isnan(run(cases[18].build, {0.5})[0]));  // Acosh(0.5)
  EXPECT_EQ(run(cases[19].build, {1})[0], inf);             // Atanh(1)
}

// Polygamma(n, x) against mpmath's values (30 digits, rounded), and TensorFlow's NaNs: at
// x <= 0 for n >= 1, at the poles of digamma, for an n that is negative or not whole.
TEST(UnaryMath, PolygammaValuesAndNaNs) {
  auto poly = [](const Scope& s, const auto& in) { return ops::Polygamma(s, in[0], in[1]); };
  const std::vector<double> n = {1, 1, 2, 3, 1, 2, 4, 0};
  const std::vector<double> x = {1, 0.5, 1, 1, 30, 0.25, 7.5, 3};
  const std::vector<double> want = {1.6449340668482264,    4.934802200544679,   -2.4041138063191886,
                                    6.493939402266829,     0.03389506035773994, -129.32773993753692,
                                    -0.002457482989368555, 0.9227843350984671};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    auto got = RunOp(poly, {FromDoubles(dt, {8}, n), FromDoubles(dt, {8}, x)});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {8}, want, dt == DT_FLOAT ? 1e-5 : 1e-12);
    got = RunOp(poly, {FromDoubles(dt, {5}, {1, 2, 1.5, -1, 0}),
                       FromDoubles(dt, {5}, {0, -1.5, 2, 2, -2})});
    ASSERT_TRUE(got.ok()) << got.status();
    for (double v : ToDoubles(*got)) EXPECT_TRUE(std::isnan(v)) << v;
    // A huge order ends (n! is infinite past 170; the fuzzer found the float loop that
    // never did, k + 1 == k from 2^24 on): inf or NaN, as TensorFlow's exp(lgamma(n + 1)).
    got = RunOp(poly, {FromDoubles(dt, {3}, {1e30, 3e9, 200}), FromDoubles(dt, {3}, {2, 0.5, 1})});
    ASSERT_TRUE(got.ok()) << got.status();
    for (double v : ToDoubles(*got)) EXPECT_FALSE(std::isfinite(v)) << v;
  }
}

TEST(UnaryMath, IntegersAreRefusedAtConstruction) {
  for (const UnaryCase& c : Cases()) {
    if (std::string(c.op) == "Reciprocal" || std::string(c.op) == "Round") continue;
    Scope s = Scope::NewRootScope();
    c.build(s, {ops::Const(s, {1, 2})});
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << c.op;
  }
}

// As TensorFlow's: integer Reciprocal truncates 1 / x, Round keeps x; 1 / 0 is refused
// (TensorFlow's kernel divides by it).
TEST(UnaryMath, IntegerReciprocalAndRound) {
  for (DataType dt : {DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor x = FromDoubles(dt, {5}, {1, -1, 2, -7, 100});
    auto recip =
        RunOp([](const Scope& s, const auto& in) { return Output(Reciprocal(s, in[0])); }, {x});
    ASSERT_TRUE(recip.ok()) << recip.status();
    ExpectTensorNear(*recip, dt, {5}, {1, -1, 0, 0, 0}, 0);
    auto round = RunOp([](const Scope& s, const auto& in) { return Output(Round(s, in[0])); }, {x});
    ASSERT_TRUE(round.ok()) << round.status();
    ExpectTensorNear(*round, dt, {5}, {1, -1, 2, -7, 100}, 0);
    auto zero = RunOp([](const Scope& s, const auto& in) { return Output(Reciprocal(s, in[0])); },
                      {FromDoubles(dt, {2}, {3, 0})});
    EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(zero.status().message().find("division by zero"), std::string::npos) << zero.status();
  }
}

}  // namespace unary_math_test
}  // namespace
}  // namespace rill::testing
