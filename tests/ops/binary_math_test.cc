// The binary math ops whose results depend on sign conventions or on special values:
// FloorDiv and FloorMod, TruncateDiv, TruncateMod and Mod on every sign (and the lowest
// integer by -1), and the "no NaN" ops' zeros. Their values against float64 are in
// cwise_ops_test.cc's table.
#include <cmath>
#include <limits>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace binary_math_test {

// TensorFlow's FloorDiv and FloorMod on every sign: the quotient toward minus infinity, the
// remainder with the divisor's sign; the lowest int32 by -1 wraps instead of trapping.
TEST(CwiseOps, FloorDivAndFloorModOnEverySign) {
  using D = std::vector<double>;
  const D x = {7, -7, 7, -7, 0, -2147483648.0}, y = {2, 2, -2, -2, 3, -1};
  for (DataType dt : {DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor a = FromDoubles(dt, {6}, x), b = FromDoubles(dt, {6}, y);
    auto div = RunOp([](const Scope& s, const auto& in) { return ops::FloorDiv(s, in[0], in[1]); },
                     {a, b});
    auto mod = RunOp([](const Scope& s, const auto& in) { return ops::FloorMod(s, in[0], in[1]); },
                     {a, b});
    ASSERT_TRUE(div.ok() && mod.ok()) << div.status() << mod.status();
    const double wrap = dt == DT_INT32 ? -2147483648.0 : 2147483648.0;
    EXPECT_EQ(ToDoubles(*div), D({3, -4, -4, 3, 0, wrap}));
    EXPECT_EQ(ToDoubles(*mod), D({1, 1, -1, -1, 0, 0}));
  }
  const Tensor f = FromDoubles(DT_DOUBLE, {2}, {-7.5, 7.5}),
               g = FromDoubles(DT_DOUBLE, {2}, {2, -2});
  auto mod =
      RunOp([](const Scope& s, const auto& in) { return ops::FloorMod(s, in[0], in[1]); }, {f, g});
  ASSERT_TRUE(mod.ok());
  EXPECT_EQ(ToDoubles(*mod), D({0.5, -0.5}));
  for (auto build :
       {+[](const Scope&s, Output a, Output b) -> Output { return ops::FloorDiv(s, a, b); },
        +[](const Scope&s, Output a, Output b) -> Output { return ops::FloorMod(s, a, b); }}) {
    auto r = RunOp([build](const Scope& s, const auto& in) { return build(s, in[0], in[1]); },
                   {FromDoubles(DT_INT64, {2}, {4, 5}), FromDoubles(DT_INT64, {2}, {2, 0})});
    EXPECT_NE(std::string(r.status().message()).find("division by zero"), std::string::npos)
        << r.status();
  }
}

// TruncateDiv and TruncateMod (and Mod, its older name) on every sign: C's quotient toward
// zero and remainder with the dividend's sign (fmod for floats); the lowest int32 by -1 wraps.
TEST(CwiseOps, TruncateDivAndTruncateModOnEverySign) {
  using D = std::vector<double>;
  const D x = {7, -7, 7, -7, 0, -2147483648.0}, y = {2, 2, -2, -2, 3, -1};
  auto div = [](const Scope& s, const auto& in) { return ops::TruncateDiv(s, in[0], in[1]); };
  auto mod = [](const Scope& s, const auto& in) { return ops::TruncateMod(s, in[0], in[1]); };
  auto old_mod = [](const Scope& s, const auto& in) { return ops::Mod(s, in[0], in[1]); };
  for (DataType dt : {DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor a = FromDoubles(dt, {6}, x), b = FromDoubles(dt, {6}, y);
    auto q = RunOp(div, {a, b}), r = RunOp(mod, {a, b}), r2 = RunOp(old_mod, {a, b});
    ASSERT_TRUE(q.ok() && r.ok() && r2.ok()) << q.status() << r.status() << r2.status();
    const double wrap = dt == DT_INT32 ? -2147483648.0 : 2147483648.0;
    EXPECT_EQ(ToDoubles(*q), D({3, -3, -3, 3, 0, wrap}));
    EXPECT_EQ(ToDoubles(*r), D({1, -1, 1, -1, 0, 0}));
    EXPECT_EQ(ToDoubles(*r2), D({1, -1, 1, -1, 0, 0}));
  }
  auto r =
      RunOp(mod, {FromDoubles(DT_DOUBLE, {2}, {-7.5, 7.5}), FromDoubles(DT_DOUBLE, {2}, {2, -2})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToDoubles(*r), D({-1.5, 1.5}));
  for (const BuildFn& build : {BuildFn(div), BuildFn(mod), BuildFn(old_mod)}) {
    auto z = RunOp(build, {FromDoubles(DT_INT32, {2}, {4, 5}), FromDoubles(DT_INT32, {2}, {2, 0})});
    EXPECT_NE(std::string(z.status().message()).find("division by zero"), std::string::npos)
        << z.status();
  }
}

// The zeros that make them "no NaN": where y (DivNoNan, MulNoNan) or x (Xlogy, Xlog1py,
// Xdivy) is 0, the result is 0 even against 0, inf or NaN.
TEST(CwiseOps, NoNanOpsGiveZeroWhereTensorFlowsDo) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const Tensor specials = FromDoubles(DT_FLOAT, {4}, {0, inf, nan, 2});
  const Tensor zeros = FromDoubles(DT_FLOAT, {4}, {0, 0, 0, 0});
  using B = Output (*)(const Scope&, Output, Output);
  for (const auto& [name, build, zero_first] : std::vector<std::tuple<std::string, B, bool>>{
           {"DivNoNan",
            +[](const Scope&s, Output a, Output b) -> Output { return ops::DivNoNan(s, a, b); },
            false},
           {"MulNoNan",
            +[](const Scope&s, Output a, Output b) -> Output { return ops::MulNoNan(s, a, b); },
            false},
           {"Xlogy",
            +[](const Scope&s, Output a, Output b) -> Output { return ops::Xlogy(s, a, b); }, true},
           {"Xlog1py",
            +[](const Scope&s, Output a, Output b) -> Output { return ops::Xlog1py(s, a, b); },
            true},
           {"Xdivy",
            +[](const Scope&s, Output a, Output b) -> Output { return ops::Xdivy(s, a, b); },
            true}}) {
    SCOPED_TRACE(name);
    B f = build;
    auto r = RunOp(
        [f](const Scope& s, const auto& in) { return f(s, in[0], in[1]); },
        zero_first ? std::vector<Tensor>{zeros, specials} : std::vector<Tensor>{specials, zeros});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(ToDoubles(*r), std::vector<double>({0, 0, 0, 0}));
  }
}

}  // namespace binary_math_test
}  // namespace
}  // namespace rill::testing
