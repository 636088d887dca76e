// TensorFlow's small everyday ops: All and Any (reduce_all / reduce_any), IsNan, IsInf,
// IsFinite, Erfc, Rint, Rank, BroadcastArgs, LinSpace, Snapshot, PreventGradient and
// IdentityN. Values
// by hand, the gradients that exist against central differences, and op cases for every
// device.
#include <cmath>
#include <limits>

#include "absl/strings/match.h"
#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace tf_basics_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"All", "Any", "IsNan", "IsInf", "IsFinite", "Erfc", "Rint", "Rank",
                   "BroadcastArgs", "LinSpace", "Snapshot", "PreventGradient", "IdentityN",
                   "GuaranteeConst"});

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

Tensor Bools(const TensorShape& shape, const std::vector<double>& v) {
  return FromDoubles(DT_BOOL, shape, v);
}

BuildFn Reduce(bool all, std::vector<int32_t> axes, bool keep = false) {
  return [=](const Scope& s, const std::vector<Output>& in) -> Output {
    Output a = Const(s, test::AsTensor<int32_t>(axes, {static_cast<int64_t>(axes.size())}));
    if (all) return ops::All(s, in[0], a, ops::All::KeepDims(keep));
    return ops::Any(s, in[0], a, ops::Any::KeepDims(keep));
  };
}

TEST(AllAny, ReduceBoolsOverTheAxes) {
  // [[1, 0, 1], [1, 1, 1]]
  const Tensor x = Bools({2, 3}, {1, 0, 1, 1, 1, 1});
  struct Case {
    bool all;
    std::vector<int32_t> axes;
    bool keep;
    TensorShape shape;
    std::vector<double> want;
  };
  const std::vector<Case> cases = {{true, {1}, false, {2}, {0, 1}},
                                   {false, {1}, false, {2}, {1, 1}},
                                   {true, {0}, false, {3}, {1, 0, 1}},
                                   {false, {0}, true, {1, 3}, {1, 1, 1}},
                                   {true, {0, 1}, false, {}, {0}},
                                   {false, {-1, 0}, false, {}, {1}},
                                   {true, {}, false, {2, 3}, {1, 0, 1, 1, 1, 1}}};
  for (const Case& c : cases) {
    auto got = RunOp(Reduce(c.all, c.axes, c.keep), {x});
    ASSERT_TRUE(got.ok()) << got.status();
    test::ExpectTensorEqual<bool>(*got, Bools(c.shape, c.want));
  }
  // Over nothing: All is true and Any false, as TensorFlow's.
  const Tensor empty(DT_BOOL, TensorShape({2, 0}));
  auto all = RunOp(Reduce(true, {1}), {empty});
  auto any = RunOp(Reduce(false, {1}), {empty});
  ASSERT_TRUE(all.ok() && any.ok()) << all.status() << any.status();
  test::ExpectTensorEqual<bool>(*all, Bools({2}, {1, 1}));
  test::ExpectTensorEqual<bool>(*any, Bools({2}, {0, 0}));
}

TEST(FloatClasses, IsNanIsInfIsFinite) {
  const std::vector<double> x = {0, -1.5, kInf, -kInf, kNan, 1e300};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    const Tensor t = FromDoubles(dt, {6}, x);
    auto nan = RunOp([](auto s, const auto& in) { return Output(IsNan(s, in[0])); }, {t});
    auto inf = RunOp([](auto s, const auto& in) { return Output(IsInf(s, in[0])); }, {t});
    auto fin = RunOp([](auto s, const auto& in) { return Output(IsFinite(s, in[0])); }, {t});
    ASSERT_TRUE(nan.ok() && inf.ok() && fin.ok()) << nan.status() << inf.status() << fin.status();
    test::ExpectTensorEqual<bool>(*nan, Bools({6}, {0, 0, 0, 0, 1, 0}));
    // 1e300 is infinite in float32.
    const double big_inf = dt == DT_FLOAT ? 1 : 0;
    test::ExpectTensorEqual<bool>(*inf, Bools({6}, {0, 0, 1, 1, 0, big_inf}));
    test::ExpectTensorEqual<bool>(*fin, Bools({6}, {1, 1, 0, 0, 0, 1 - big_inf}));
  }
}

TEST(Erfc, KeepsTheTailThatOneMinusErfLoses) {
  // erfc(5) = 1.5375e-12, which 1 - erf(5) in float64 gets only to two digits, and float32
  // to 0; erfc(-1) = 1 + erf(1).
  const std::vector<double> x = {0, 1, -1, 5, 10};
  const std::vector<double> want = {1, 0.15729920705028513, 1.8427007929497148,
                                    1.5374597944280349e-12, 2.0884875837625446e-45};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    auto got = RunOp([](auto s, const auto& in) { return Output(Erfc(s, in[0])); },
                     {FromDoubles(dt, {5}, x)});
    ASSERT_TRUE(got.ok()) << got.status();
    std::vector<double> w = want;
    if (dt == DT_FLOAT) w[4] = 0;  // below float32's smallest subnormal
    ExpectTensorNear(*got, dt, {5}, w, dt == DT_FLOAT ? 1e-6 : 1e-14);
  }
}

TEST(Rint, RoundsTiesToEven) {
  auto got = RunOp([](auto s, const auto& in) { return Output(Rint(s, in[0])); },
                   {FromDoubles(DT_DOUBLE, {7}, {-2.5, -1.5, -0.4, 0.5, 1.5, 2.5, 2.6})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_DOUBLE, {7}, {-2, -2, -0.0, 0, 2, 2, 3}, 0);
}

TEST(ShapeHelpers, RankAndBroadcastArgs) {
  auto rank = RunOp([](auto s, const auto& in) { return Output(Rank(s, in[0])); },
                    {Tensor(DT_FLOAT, TensorShape({2, 0, 4}))});
  ASSERT_TRUE(rank.ok()) << rank.status();
  test::ExpectTensorEqual<int32_t>(*rank, test::AsTensor<int32_t>({3}, {}));
  auto bargs = [](auto s, const auto& in) { return Output(BroadcastArgs(s, in[0], in[1])); };
  auto b =
      RunOp(bargs, {test::AsTensor<int32_t>({5, 1, 3}, {3}), test::AsTensor<int32_t>({4, 1}, {2})});
  ASSERT_TRUE(b.ok()) << b.status();
  test::ExpectTensorEqual<int32_t>(*b, test::AsTensor<int32_t>({5, 4, 3}, {3}));
  // int64, a zero dim against 1, and an empty shape (a scalar).
  auto b64 = RunOp(bargs, {test::AsTensor<int64_t>({0, 1}, {2}), test::AsTensor<int64_t>({}, {0})});
  ASSERT_TRUE(b64.ok()) << b64.status();
  test::ExpectTensorEqual<int64_t>(*b64, test::AsTensor<int64_t>({0, 1}, {2}));
}

TEST(LinSpace, IncludesBothEnds) {
  auto lin = [](auto s, const auto& in) { return Output(LinSpace(s, in[0], in[1], in[2])); };
  auto f = RunOp(lin, {test::AsTensor<float>({1}, {}), test::AsTensor<float>({-1}, {}),
                       test::AsTensor<int32_t>({5}, {})});
  ASSERT_TRUE(f.ok()) << f.status();
  test::ExpectTensorEqual<float>(*f, test::AsTensor<float>({1, 0.5f, 0, -0.5f, -1}, {5}));
  // 0.1 steps do not add up to 0.7 exactly; the last value is stop itself.
  auto d = RunOp(lin, {test::AsTensor<double>({0}, {}), test::AsTensor<double>({0.7}, {}),
                       test::AsTensor<int64_t>({8}, {})});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->flat<double>()(7), 0.7);
  EXPECT_NEAR(d->flat<double>()(3), 0.3, 1e-15);
  auto one = RunOpConst(lin, {test::AsTensor<double>({2}, {}), test::AsTensor<double>({9}, {}),
                              test::AsTensor<int32_t>({1}, {})});
  ASSERT_TRUE(one.ok()) << one.status();
  test::ExpectTensorEqual<double>(*one, test::AsTensor<double>({2}, {1}));
}

TEST(Snapshot, KeepsTheValueAVariableHadWhenItWasTaken) {
  Scope s = Scope::NewRootScope();
  auto v = Variable(s, test::AsTensor<float>({1, 2}, {2}));
  auto snap = Snapshot(s, v);
  auto bump = AssignAdd(s.WithControlDependencies(snap), v, Const(s, {10.0f, 10.0f}));
  ASSERT_TRUE(s.ok()) << s.status();
  Session session(s);
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {snap, bump}, &out).ok());
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({1, 2}, {2}));
  test::ExpectTensorEqual<float>(out[1], test::AsTensor<float>({11, 12}, {2}));
}

// GuaranteeConst passes its input, stays in the optimized plan of a constant (stateful), and
// stops gradients.
TEST(GuaranteeConst, PassesItsInputStaysInThePlanAndHasNoGradient) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_FLOAT);
  auto c = GuaranteeConst(s, Const(s, {3.f, 4.f}));
  auto y = Add(s, Mul(s, x, c), GuaranteeConst(s, x));
  ASSERT_TRUE(s.ok()) << s.status();
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({{x, {1.f, 2.f}}}, {c, y}, &out).ok());
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({3, 4}));
  test::ExpectTensorEqual<float>(out[1], test::AsTensor<float>({4, 10}));
  CallableOptions sig;
  sig.fetch = {c};
  EXPECT_EQ(PlanOps(session, sig).count("GuaranteeConst"), 1u);
  std::vector<Output> grads;
  ASSERT_TRUE(AddSymbolicGradients(s, {y}, {x}, &grads).ok());
  ASSERT_TRUE(session.Run({{x, {1.f, 2.f}}}, {grads[0]}, &out).ok());
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({3, 4}));  // through Mul alone
}

// Each input, of any dtype, comes out in its place; one control edge on the node orders
// them all.
TEST(IdentityN, PassesEveryInputThroughInItsPlace) {
  Scope s = Scope::NewRootScope();
  auto v = Variable(s, test::AsTensor<float>({1, 2}, {2}));
  IdentityN n(s, {Const(s, test::AsTensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3})), v,
                  Const(s, test::AsTensor<double>({7.3, 8.3}, {2}))});
  ASSERT_EQ(n.size(), 3u);
  EXPECT_EQ(n[0].type(), DT_INT32);
  EXPECT_EQ(n[2].type(), DT_DOUBLE);
  EXPECT_EQ(n[0].shape().DebugString(), "[2,3]");
  auto bump = AssignAdd(s.WithControlDependencies({n.operation}), v, Const(s, {10.0f, 10.0f}));
  ASSERT_TRUE(s.ok()) << s.status();
  Session session(s);
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, std::vector<Output>{n[0], n[2], bump}, &out).ok());
  test::ExpectTensorEqual<int32_t>(out[0], test::AsTensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}));
  test::ExpectTensorEqual<double>(out[1], test::AsTensor<double>({7.3, 8.3}, {2}));
  test::ExpectTensorEqual<float>(out[2], test::AsTensor<float>({11, 12}, {2}));
}

TEST(Gradients, IdentityNPassesEachGradientToItsInput) {
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        IdentityN n(s, {in[0], in[1]});
        return Output(Sub(s, Mul(s, n[0], n[1]), n[1]));
      },
      {RandomTensor(DT_DOUBLE, {2, 3}, -2, 2, 67), RandomTensor(DT_DOUBLE, {2, 3}, -2, 2, 68)});
  // An output nothing reads passes no gradient back.
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        IdentityN n(s, {in[0], in[1]});
        return Output(Square(s, n[1]));
      },
      {RandomTensor(DT_DOUBLE, {3}, -2, 2, 69), RandomTensor(DT_DOUBLE, {3}, -2, 2, 70)});
}

TEST(Gradients, ErfcMatchesNumericSnapshotPassesThroughPreventGradientRefuses) {
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) { return Output(Erfc(s, in[0])); },
      {RandomTensor(DT_DOUBLE, {2, 3}, -2, 2, 61)});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(Mul(s, Snapshot(s, in[0]), in[0]));
      },
      {RandomTensor(DT_DOUBLE, {4}, -2, 2, 62)});
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_FLOAT);
  auto y = Square(s, PreventGradient(s.WithOpName("guard"), x,
                                     PreventGradient::Message("the loss is not smooth here")));
  std::vector<Output> dx;
  const absl::Status st = AddSymbolicGradients(s, {y}, {x}, &dx);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(st.message(), "guard")) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "the loss is not smooth here")) << st;
  // Forward, it is the identity.
  auto id = RunOp([](auto s, const auto& in) { return Output(PreventGradient(s, in[0])); },
                  {test::AsTensor<int64_t>({7, -7}, {2})});
  ASSERT_TRUE(id.ok()) << id.status();
  test::ExpectTensorEqual<int64_t>(*id, test::AsTensor<int64_t>({7, -7}, {2}));
}

const bool kMarked = [] {
  GradTestedOps().insert("Erfc");
  GradTestedOps().insert("Snapshot");
  GradTestedOps().insert("PreventGradient");
  GradTestedOps().insert("IdentityN");
  return true;
}();

OpCase Exact(std::string name, BuildFn f, std::vector<Tensor> in) {
  OpCase c{std::move(name), std::move(f), std::move(in)};
  c.float64_reference = false;
  return c;
}

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  // Long rows take the GPU's chunked reduction; short ones one thread per output.
  const Tensor p = RandomTensor(DT_BOOL, {3, 40000}, 0, 1, 63);
  const Tensor q = RandomTensor(DT_BOOL, {17, 6, 5}, 0, 1, 64);
  c.push_back(Exact("All long rows", Reduce(true, {1}), {p}));
  c.push_back(Exact("Any long rows", Reduce(false, {1}), {p}));
  c.push_back(Exact("All of a mostly true input", Reduce(true, {0, 2}, true),
                    {Bools({17, 6, 5}, std::vector<double>(510, 1))}));
  c.push_back(Exact("All middle axis", Reduce(true, {1}), {q}));
  c.push_back(Exact("Any outer axes", Reduce(false, {0, 2}, true), {q}));
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    const Tensor special = FromDoubles(dt, {7}, {0, -1, kInf, -kInf, kNan, 3.5, -0.0});
    const std::string t = " " + DataTypeString(dt);
    c.push_back(
        Exact("IsNan" + t, [](auto s, const auto& in) { return IsNan(s, in[0]); }, {special}));
    c.push_back(
        Exact("IsInf" + t, [](auto s, const auto& in) { return IsInf(s, in[0]); }, {special}));
    c.push_back(Exact("IsFinite" + t, [](auto s, const auto& in) { return IsFinite(s, in[0]); },
                      {special}));
    const Tensor x = RandomTensor(dt, {40, 9}, -3, 3, 65);
    c.push_back({"Erfc" + t, [](auto s, const auto& in) { return Erfc(s, in[0]); }, {x}});
    c.push_back({"Rint" + t, [](auto s, const auto& in) { return Rint(s, in[0]); }, {x}});
    c.push_back({"Snapshot" + t, [](auto s, const auto& in) { return Snapshot(s, in[0]); }, {x}});
    c.push_back({"IdentityN" + t,
                 [](auto s, const auto& in) {
                   IdentityN n(s, {in[0], in[1]});
                   return Output(Concat(s, {n[1], n[0]}, 0));
                 },
                 {x, RandomTensor(dt, {3, 9}, -3, 3, 71)}});
    c.push_back({"PreventGradient" + t,
                 [](auto s, const auto& in) { return PreventGradient(s, in[0]); },
                 {x}});
    c.push_back({"LinSpace" + t,
                 [](auto s, const auto& in) { return LinSpace(s, in[0], in[1], in[2]); },
                 {FromDoubles(dt, {}, {-2}), FromDoubles(dt, {}, {3}),
                  test::AsTensor<int64_t>({1001}, {})}});
  }
  c.push_back(Exact("Rank", [](auto s, const auto& in) { return Rank(s, in[0]); },
                    {RandomTensor(DT_FLOAT, {2, 3, 4}, 0, 1, 66)}));
  c.push_back(
      Exact("BroadcastArgs", [](auto s, const auto& in) { return BroadcastArgs(s, in[0], in[1]); },
            {test::AsTensor<int32_t>({7, 1, 5}, {3}), test::AsTensor<int32_t>({3, 1}, {2})}));
  return c;
}

}  // namespace tf_basics_test
}  // namespace

RILL_OP_CASES(tf_basics, tf_basics_test::Cases);

}  // namespace rill::testing
