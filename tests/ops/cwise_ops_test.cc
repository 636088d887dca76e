// Elementwise ops against float64 references: every dtype each op claims, broadcasting,
// empty tensors, and bad inputs as Status.
#include <cmath>
#include <limits>
#include <tuple>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace cwise_ops_test {

MarkTested tested_comparisons({"NotEqual", "LessEqual", "GreaterEqual"});
MarkTested tested_floor({"FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Mod", "Atan2",
                         "DivNoNan", "MulNoNan", "Xlogy", "Xlog1py", "Xdivy"});
MarkTested tested({"RealDiv", "SquaredDifference",
                   "Add",     "AddV2",
                   "Sub",     "Mul",
                   "Div",     "Pow",
                   "Maximum", "Minimum",
                   "Equal",   "Less",
                   "Greater", "Neg",
                   "Abs",     "Square",
                   "Sqrt",    "Exp",
                   "Log",     "Relu",
                   "Sigmoid", "Tanh",
                   "AddN",    "Cast",
                   "Const",   "Placeholder",
                   "Identity"});

// NumPy broadcasting, computed independently of rill's kernels.
std::vector<double> RefBinary(const Tensor& a, const Tensor& b, TensorShape* out,
                              const std::function<double(double, double)>& f) {
  int r = std::max(a.dims(), b.dims());
  std::vector<int64_t> dims(r);
  auto dim = [&](const Tensor& t, int i) {
    int j = t.dims() - r + i;
    return j >= 0 ? t.dim_size(j) : int64_t{1};
  };
  for (int i = 0; i < r; ++i) dims[i] = std::max(dim(a, i), dim(b, i));
  for (int i = 0; i < r; ++i)
    if (dim(a, i) == 0 || dim(b, i) == 0) dims[i] = 0;
  *out = TensorShape(dims);
  std::vector<double> va = ToDoubles(a), vb = ToDoubles(b), res(out->num_elements());
  std::vector<int64_t> idx(r, 0);
  for (int64_t n = 0; n < out->num_elements(); ++n) {
    int64_t ia = 0, ib = 0;
    for (int i = 0; i < r; ++i) {
      ia = ia * dim(a, i) + (dim(a, i) == 1 ? 0 : idx[i]);
      ib = ib * dim(b, i) + (dim(b, i) == 1 ? 0 : idx[i]);
    }
    res[n] = f(va[ia], vb[ib]);
    for (int i = r - 1; i >= 0; --i) {
      if (++idx[i] < dims[i]) break;
      idx[i] = 0;
    }
  }
  return res;
}

const std::vector<std::pair<TensorShape, TensorShape>> kShapePairs = {
    {{2, 3}, {2, 3}}, {{2, 3}, {3}},    {{4, 1, 3}, {2, 1}},
    {{}, {5}},        {{3, 1}, {1, 4}}, {{2, 3, 4}, {}},
    {{0, 3}, {3}},    {{2, 0}, {1}},    {{5, 1, 2, 1}, {1, 3, 1, 4}},
    {{7}, {7}}};

struct BinaryCase {
  const char* op;
  std::vector<DataType> types;
  std::function<Output(const Scope&, Output, Output)> build;
  std::function<double(double, double, DataType)> ref;
  bool boolean_out = false;
};

std::vector<BinaryCase> BinaryCases() {
  const std::vector<DataType> num = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8};
  const std::vector<DataType> sgn = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64};
  auto is_int = [](DataType t) { return !DataTypeIsFloating(t); };
  return {
      {"Add", num, [](auto s, auto x, auto y) { return ops::Add(s, x, y); },
       [](double a, double b, DataType) { return a + b; }},
      {"AddV2", num, [](auto s, auto x, auto y) { return ops::AddV2(s, x, y); },
       [](double a, double b, DataType) { return a + b; }},
      {"Sub", num, [](auto s, auto x, auto y) { return ops::Sub(s, x, y); },
       [](double a, double b, DataType) { return a - b; }},
      {"Mul", num, [](auto s, auto x, auto y) { return ops::Mul(s, x, y); },
       [](double a, double b, DataType) { return a * b; }},
      {"Div", num, [](auto s, auto x, auto y) { return ops::Div(s, x, y); },
       [=](double a, double b, DataType t) { return is_int(t) ? std::trunc(a / b) : a / b; }},
      {"RealDiv",
       {DT_FLOAT, DT_DOUBLE},
       [](auto s, auto x, auto y) { return ops::RealDiv(s, x, y); },
       [](double a, double b, DataType) { return a / b; }},
      {"SquaredDifference", sgn,
       [](auto s, auto x, auto y) { return ops::SquaredDifference(s, x, y); },
       [](double a, double b, DataType) { return (a - b) * (a - b); }},
      {"Pow", sgn, [](auto s, auto x, auto y) { return ops::Pow(s, x, y); },
       [](double a, double b, DataType) { return std::pow(a, b); }},
      {"FloorDiv", num, [](auto s, auto x, auto y) { return ops::FloorDiv(s, x, y); },
       [](double a, double b, DataType) { return std::floor(a / b); }},
      {"FloorMod", num, [](auto s, auto x, auto y) { return ops::FloorMod(s, x, y); },
       [](double a, double b, DataType) { return a - std::floor(a / b) * b; }},
      {"TruncateDiv", num, [](auto s, auto x, auto y) { return ops::TruncateDiv(s, x, y); },
       [](double a, double b, DataType) { return std::trunc(a / b); }},
      {"TruncateMod", num, [](auto s, auto x, auto y) { return ops::TruncateMod(s, x, y); },
       [](double a, double b, DataType) { return std::fmod(a, b); }},
      {"Mod", num, [](auto s, auto x, auto y) { return ops::Mod(s, x, y); },
       [](double a, double b, DataType) { return std::fmod(a, b); }},
      {"Atan2",
       {DT_FLOAT, DT_DOUBLE},
       [](auto s, auto x, auto y) { return ops::Atan2(s, x, y); },
       [](double a, double b, DataType) { return std::atan2(a, b); }},
      {"DivNoNan",
       {DT_FLOAT, DT_DOUBLE},
       [](auto s, auto x, auto y) { return ops::DivNoNan(s, x, y); },
       [](double a, double b, DataType) { return b == 0 ? 0 : a / b; }},
      {"MulNoNan",
       {DT_FLOAT, DT_DOUBLE},
       [](auto s, auto x, auto y) { return ops::MulNoNan(s, x, y); },
       [](double a, double b, DataType) { return b == 0 ? 0 : a * b; }},
      {"Xlogy",
       {DT_FLOAT, DT_DOUBLE},
       [](auto s, auto x, auto y) { return ops::Xlogy(s, x, y); },
       [](double a, double b, DataType) { return a == 0 ? 0 : a * std::log(b); }},
      {"Xlog1py",
       {DT_FLOAT, DT_DOUBLE},
       [](auto s, auto x, auto y) { return ops::Xlog1py(s, x, y); },
       [](double a, double b, DataType) { return a == 0 ? 0 : a * std::log1p(b); }},
      {"Xdivy",
       {DT_FLOAT, DT_DOUBLE},
       [](auto s, auto x, auto y) { return ops::Xdivy(s, x, y); },
       [](double a, double b, DataType) { return a == 0 ? 0 : a / b; }},
      {"Maximum", num, [](auto s, auto x, auto y) { return ops::Maximum(s, x, y); },
       [](double a, double b, DataType) { return std::max(a, b); }},
      {"Minimum", num, [](auto s, auto x, auto y) { return ops::Minimum(s, x, y); },
       [](double a, double b, DataType) { return std::min(a, b); }},
      {"Equal",
       {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL},
       [](auto s, auto x, auto y) { return ops::Equal(s, x, y); },
       [](double a, double b, DataType) { return a == b ? 1.0 : 0.0; },
       true},
      {"Less", num, [](auto s, auto x, auto y) { return ops::Less(s, x, y); },
       [](double a, double b, DataType) { return a < b ? 1.0 : 0.0; }, true},
      {"Greater", num, [](auto s, auto x, auto y) { return ops::Greater(s, x, y); },
       [](double a, double b, DataType) { return a > b ? 1.0 : 0.0; }, true},
      {"NotEqual",
       {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL},
       [](auto s, auto x, auto y) { return ops::NotEqual(s, x, y); },
       [](double a, double b, DataType) { return a != b ? 1.0 : 0.0; },
       true},
      {"LessEqual", num, [](auto s, auto x, auto y) { return ops::LessEqual(s, x, y); },
       [](double a, double b, DataType) { return a <= b ? 1.0 : 0.0; }, true},
      {"GreaterEqual", num, [](auto s, auto x, auto y) { return ops::GreaterEqual(s, x, y); },
       [](double a, double b, DataType) { return a >= b ? 1.0 : 0.0; }, true},
  };
}

// Input ranges that keep every dtype's exact result representable.
void Ranges(const std::string& op, DataType dt, double* alo, double* ahi, double* blo,
            double* bhi) {
  *alo = -5, *ahi = 5, *blo = -5, *bhi = 5;
  if (dt == DT_UINT8) *alo = 10, *ahi = 15, *blo = 1, *bhi = 9;
  if (op == "Div" || op == "RealDiv" || op == "Xlogy" || op == "Xdivy" || op == "Xlog1py" ||
      op == "DivNoNan") {
    *blo = 1, *bhi = 9;
  }
  if ((op == "FloorDiv" || op == "FloorMod" || op == "TruncateDiv" || op == "TruncateMod" ||
       op == "Mod") &&
      dt != DT_UINT8) {  // negative dividends
    *alo = -9, *ahi = 9, *blo = 1, *bhi = 4;
  }
  if (op == "Pow") {
    if (DataTypeIsFloating(dt))
      *alo = 0.5, *ahi = 2, *blo = -2, *bhi = 2;
    else
      *alo = -3, *ahi = 3, *blo = 0, *bhi = 3;
  }
  if (op == "Equal" || op == "Less" || op == "Greater" || op == "NotEqual" || op == "LessEqual" ||
      op == "GreaterEqual") {  // ties must occur
    if (!DataTypeIsFloating(dt)) *alo = *blo = (dt == DT_UINT8 ? 1 : -1), *ahi = *bhi = 2;
  }
}

TEST(CwiseOps, BinaryAgainstFloat64Reference) {
  uint32_t seed = 1;
  for (const BinaryCase& c : BinaryCases()) {
    for (DataType dt : c.types) {
      for (const auto& [sa, sb] : kShapePairs) {
        SCOPED_TRACE(std::string(c.op) + " " + DataTypeString(dt) + " " + sa.DebugString() + " x " +
                     sb.DebugString());
        double alo, ahi, blo, bhi;
        Ranges(c.op, dt, &alo, &ahi, &blo, &bhi);
        Tensor a = RandomTensor(dt, sa, alo, ahi, seed++);
        Tensor b = RandomTensor(dt, sb, blo, bhi, seed++);
        const std::string op = c.op;
        if ((op == "Equal" || op == "NotEqual" || op == "LessEqual" || op == "GreaterEqual") &&
            DataTypeIsFloating(dt) && a.NumElements() > 0 && b.NumElements() > 0) {
          VisitDataType(dt, [&](auto tag) {  // force some exact ties
            using T = typename decltype(tag)::type;
            a.base<T>()[0] = b.base<T>()[0];
          });
        }
        TensorShape out_shape;
        auto want =
            RefBinary(a, b, &out_shape, [&](double x, double y) { return c.ref(x, y, dt); });
        auto got =
            RunOp([&](const Scope& s, const auto& in) { return c.build(s, in[0], in[1]); }, {a, b});
        ASSERT_TRUE(got.ok()) << got.status();
        ExpectTensorNear(*got, c.boolean_out ? DT_BOOL : dt, out_shape, want,
                         Tolerance(dt) * (std::string(c.op) == "Pow" ? 10 : 1));
      }
    }
  }
}

TEST(CwiseOps, BinaryBadInputs) {
  Tensor a = RandomTensor(DT_FLOAT, {2, 3}, 0, 1, 1), b = RandomTensor(DT_FLOAT, {4}, 0, 1, 2);
  for (const BinaryCase& c : BinaryCases()) {
    SCOPED_TRACE(c.op);
    // Incompatible shapes: at construction (Const) and at run time (fed).
    auto bad = [&](const Scope& s, const auto& in) { return c.build(s, in[0], in[1]); };
    auto r1 = RunOpConst(bad, {a, b});
    ASSERT_FALSE(r1.ok());
    EXPECT_EQ(r1.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(r1.status().message()).find("[2,3]"), std::string::npos) << r1.status();
    auto r2 = RunOp(bad, {a, b});
    ASSERT_FALSE(r2.ok());
    EXPECT_NE(std::string(r2.status().message()).find(c.op), std::string::npos) << r2.status();
    // Mismatched dtypes.
    auto r3 = RunOpConst(bad, {a, RandomTensor(DT_INT32, {2, 3}, 0, 1, 3)});
    EXPECT_EQ(r3.status().code(), absl::StatusCode::kInvalidArgument) << r3.status();
    // A dtype the op does not support (Equal and NotEqual take every dtype).
    if (std::string(c.op) != "Equal" && std::string(c.op) != "NotEqual") {
      Tensor t(true);
      auto r4 = RunOpConst(bad, {t, t});
      EXPECT_EQ(r4.status().code(), absl::StatusCode::kInvalidArgument) << r4.status();
    }
    // Rank beyond the supported maximum.
    Tensor big(DT_FLOAT, TensorShape({1, 1, 1, 1, 1, 1, 1, 1, 1}));
    EXPECT_FALSE(RunOp(bad, {big, a}).ok());
  }
}

TEST(CwiseOps, IntegerDivisionByZeroAndNegativePowerAreErrors) {
  Tensor a = FromDoubles(DT_INT32, {3}, {1, 2, 3}), z = FromDoubles(DT_INT32, {3}, {1, 0, 1});
  auto r = RunOp([](const Scope& s, const auto& in) { return ops::Div(s, in[0], in[1]); }, {a, z});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(r.status().message()).find("division by zero"), std::string::npos);
  Tensor neg = FromDoubles(DT_INT32, {3}, {1, -1, 1});
  r = RunOp([](const Scope& s, const auto& in) { return ops::Pow(s, in[0], in[1]); }, {a, neg});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
}

// Integer arithmetic wraps around in two's complement, as in TensorFlow; the one division
// that would trap in hardware (lowest / -1) wraps too.
TEST(CwiseOps, IntegerOverflowWrapsAround) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  Tensor big = FromDoubles(DT_INT32, {3}, {kMax, kMin, kMax});
  Tensor one = FromDoubles(DT_INT32, {3}, {1, -1, 2});
  auto run = [&](const BuildFn& f) {
    auto r = RunOp(f, {big, one});
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? ToDoubles(*r) : std::vector<double>();
  };
  EXPECT_EQ(run([](const Scope& s, const auto& in) { return ops::Add(s, in[0], in[1]); }),
            (std::vector<double>{kMin, kMax, kMin + 1}));
  EXPECT_EQ(run([](const Scope& s, const auto& in) { return ops::Div(s, in[0], in[1]); }),
            (std::vector<double>{kMax, kMin, kMax / 2}));
  EXPECT_EQ(run([](const Scope& s, const auto& in) { return ops::Mul(s, in[0], in[1]); }),
            (std::vector<double>{kMax, kMin, -2}));
  EXPECT_EQ(run([](const Scope& s, const auto& in) { return ops::Neg(s, in[0]); }),
            (std::vector<double>{-kMax, kMin, -kMax}));
  auto sum = RunOp([](const Scope& s, const auto& in) { return ops::Sum(s, in[0], {0}); },
                   {FromDoubles(DT_INT32, {2}, {kMax, kMax})});
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(sum->scalar<int32_t>()(), -2);
}

struct UnaryCase {
  const char* op;
  std::vector<DataType> types;
  std::function<Output(const Scope&, Output)> build;
  std::function<double(double)> ref;
  double lo, hi;
};

std::vector<UnaryCase> UnaryCases() {
  const std::vector<DataType> sgn = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64};
  const std::vector<DataType> flt = {DT_FLOAT, DT_DOUBLE};
  return {
      {"Neg", sgn, [](auto s, auto x) { return ops::Neg(s, x); }, [](double v) { return -v; }, -9,
       9},
      {"Abs", sgn, [](auto s, auto x) { return ops::Abs(s, x); },
       [](double v) { return std::abs(v); }, -9, 9},
      {"Square", sgn, [](auto s, auto x) { return ops::Square(s, x); },
       [](double v) { return v * v; }, -9, 9},
      {"Sqrt", flt, [](auto s, auto x) { return ops::Sqrt(s, x); },
       [](double v) { return std::sqrt(v); }, 0.01, 9},
      {"Exp", flt, [](auto s, auto x) { return ops::Exp(s, x); },
       [](double v) { return std::exp(v); }, -5, 5},
      {"Log", flt, [](auto s, auto x) { return ops::Log(s, x); },
       [](double v) { return std::log(v); }, 0.01, 9},
      {"Relu", sgn, [](auto s, auto x) { return ops::Relu(s, x); },
       [](double v) { return std::max(v, 0.0); }, -9, 9},
      {"Sigmoid", flt, [](auto s, auto x) { return ops::Sigmoid(s, x); },
       [](double v) { return 1 / (1 + std::exp(-v)); }, -9, 9},
      {"Tanh", flt, [](auto s, auto x) { return ops::Tanh(s, x); },
       [](double v) { return std::tanh(v); }, -5, 5},
  };
}

TEST(CwiseOps, UnaryAgainstFloat64Reference) {
  uint32_t seed = 100;
  for (const UnaryCase& c : UnaryCases()) {
    for (DataType dt : c.types) {
      for (TensorShape shape : {TensorShape({}), TensorShape({0}), TensorShape({3, 17}),
                                TensorShape({2, 0, 4}), TensorShape({1000})}) {
        SCOPED_TRACE(std::string(c.op) + " " + DataTypeString(dt) + " " + shape.DebugString());
        Tensor x = RandomTensor(dt, shape, c.lo, c.hi, seed++);
        std::vector<double> want = ToDoubles(x);
        for (double& v : want) v = c.ref(v);
        auto got = RunOp([&](const Scope& s, const auto& in) { return c.build(s, in[0]); }, {x});
        ASSERT_TRUE(got.ok()) << got.status();
        ExpectTensorNear(*got, dt, shape, want, Tolerance(dt) * 10);
      }
    }
  }
}

TEST(CwiseOps, UnaryBadInputs) {
  for (const UnaryCase& c : UnaryCases()) {
    SCOPED_TRACE(c.op);
    auto build = [&](const Scope& s, const auto& in) { return c.build(s, in[0]); };
    auto r = RunOpConst(build, {Tensor(true)});  // bool is never supported
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    EXPECT_NE(std::string(r.status().message()).find(c.op), std::string::npos) << r.status();
    if (c.types.size() == 2) {
      r = RunOpConst(build, {Tensor(int32_t{1})});
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    }
    Scope root = Scope::NewRootScope();
    c.build(root, Output());  // an empty input is recorded, not a crash
    EXPECT_FALSE(root.ok());
    Tensor uninit(DT_FLOAT, TensorShape({-1}));
    EXPECT_FALSE(RunOpConst(build, {uninit}).ok());
  }
}

TEST(CwiseOps, ReluAndSigmoidKeepExtremesFinite) {
  Tensor x = FromDoubles(DT_FLOAT, {4}, {-1000, -80, 80, 1000});
  auto got = RunOp([](const Scope& s, const auto& in) { return ops::Sigmoid(s, in[0]); }, {x});
  ASSERT_TRUE(got.ok());
  ExpectTensorNear(*got, DT_FLOAT, {4}, {0, 1.8048513878454153e-35, 1, 1}, 1e-6);
}

TEST(CwiseOps, AddNSumsEveryInput) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    SCOPED_TRACE(DataTypeString(dt));
    std::vector<Tensor> ins;
    for (int i = 0; i < 4; ++i) ins.push_back(RandomTensor(dt, {3, 5}, 0, 9, 300 + i));
    std::vector<double> want(15, 0);
    for (const Tensor& t : ins) {
      auto v = ToDoubles(t);
      for (int i = 0; i < 15; ++i) want[i] += v[i];
    }
    auto got = RunOp([](const Scope& s,
                        const auto& in) { return ops::AddN(s, OutputList(in.begin(), in.end())); },
                     ins);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {3, 5}, want, Tolerance(dt));
  }
  auto bad = RunOpConst(
      [](const Scope& s, const auto& in) { return ops::AddN(s, OutputList(in.begin(), in.end())); },
      {RandomTensor(DT_FLOAT, {3}, 0, 1, 1), RandomTensor(DT_FLOAT, {4}, 0, 1, 1)});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto bad_fed = RunOp(
      [](const Scope& s, const auto& in) { return ops::AddN(s, OutputList(in.begin(), in.end())); },
      {RandomTensor(DT_FLOAT, {3}, 0, 1, 1), RandomTensor(DT_FLOAT, {4}, 0, 1, 1)});
  EXPECT_EQ(bad_fed.status().code(), absl::StatusCode::kInvalidArgument);
  auto mixed = RunOpConst(
      [](const Scope& s, const auto& in) { return ops::AddN(s, OutputList(in.begin(), in.end())); },
      {RandomTensor(DT_FLOAT, {3}, 0, 1, 1), RandomTensor(DT_INT32, {3}, 0, 1, 1)});
  EXPECT_EQ(mixed.status().code(), absl::StatusCode::kInvalidArgument);
  auto wrong_type = RunOpConst(
      [](const Scope& s, const auto& in) { return ops::AddN(s, OutputList(in.begin(), in.end())); },
      {Tensor(true)});
  EXPECT_EQ(wrong_type.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(CwiseOps, CastBetweenEveryPairOfTypes) {
  const std::vector<DataType> all = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL};
  for (DataType from : all) {
    for (DataType to : all) {
      SCOPED_TRACE(DataTypeString(from) + " -> " + DataTypeString(to));
      Tensor x = FromDoubles(from, {4}, {0, 1, 2, 7});
      auto got =
          RunOp([&](const Scope& s, const auto& in) { return ops::Cast(s, in[0], to); }, {x});
      ASSERT_TRUE(got.ok()) << got.status();
      std::vector<double> want = ToDoubles(x);
      if (to == DT_BOOL)
        for (double& v : want) v = v != 0;
      ExpectTensorNear(*got, to, {4}, want, 0);
    }
  }
  // Out-of-range floats saturate instead of invoking undefined behaviour.
  Tensor x = FromDoubles(DT_FLOAT, {3}, {1e20, -1e20, 3.7});
  x.base<float>()[2] = std::nanf("");
  auto got =
      RunOp([](const Scope& s, const auto& in) { return ops::Cast(s, in[0], DT_INT32); }, {x});
  ASSERT_TRUE(got.ok());
  ExpectTensorNear(*got, DT_INT32, {3}, {2147483647.0, -2147483648.0, 0}, 0);
}

// 1 + 0.75 ulp(float) and its negative: to the nearest float they round away from zero, with
// Truncate they go toward it; infinities and NaN pass either way; floats are not changed.
TEST(CwiseOps, CastTruncateNarrowsDoubleTowardZero) {
  const double up = 1 + 0.75 * std::ldexp(1.0, -23);
  const Tensor x = FromDoubles(DT_DOUBLE, {4}, {up, -up, INFINITY, NAN});
  for (bool truncate : {false, true}) {
    SCOPED_TRACE(truncate);
    auto got = RunOp(
        [&](const Scope& s, const auto& in) {
          return ops::Cast(s, in[0], DT_FLOAT, ops::Cast::Truncate(truncate));
        },
        {x});
    ASSERT_TRUE(got.ok()) << got.status();
    const float next = std::nextafter(1.f, 2.f);
    EXPECT_EQ(got->flat<float>()(0), truncate ? 1.f : next);
    EXPECT_EQ(got->flat<float>()(1), truncate ? -1.f : -next);
    EXPECT_EQ(got->flat<float>()(2), INFINITY);
    EXPECT_TRUE(std::isnan(got->flat<float>()(3)));
  }
}

TEST(CwiseOps, IdentityAndConstPassValuesThrough) {
  Tensor x = RandomTensor(DT_DOUBLE, {2, 2}, -1, 1, 9);
  auto got = RunOp([](const Scope& s, const auto& in) { return ops::Identity(s, in[0]); }, {x});
  ASSERT_TRUE(got.ok());
  ExpectTensorNear(*got, DT_DOUBLE, {2, 2}, ToDoubles(x), 0);
  Scope root = Scope::NewRootScope();
  auto c = ops::Const(root, {{1, 2}, {3, 4}});
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({c}, &out).ok());
  ExpectTensorNear(out[0], DT_INT32, {2, 2}, {1, 2, 3, 4}, 0);
  // Ragged initializer lists and mixed element types are errors, not aborts.
  Scope bad = Scope::NewRootScope();
  ops::Const(bad, {{1, 2}, {3}});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  Scope mixed = Scope::NewRootScope();
  ops::Const(mixed, {1, 2.0f});
  EXPECT_EQ(mixed.status().code(), absl::StatusCode::kInvalidArgument);
  Scope overflow = Scope::NewRootScope();
  ops::Const(overflow,
             Input::Initializer(Tensor(DT_FLOAT, TensorShape({int64_t{1} << 40, 1 << 30}))));
  EXPECT_EQ(overflow.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace cwise_ops_test
}  // namespace
}  // namespace rill::testing
