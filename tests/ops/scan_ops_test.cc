// Cumsum and Cumprod: values by hand with every combination of exclusive and reverse, every
// dtype; op cases on every device; gradients against central differences.
#include "rill/ops/scan_ops.h"

#include "gradient_checker.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace scan_ops_test {

MarkTested tested({"Cumsum", "Cumprod", "Prod"});

using Xs = std::vector<Output>;

TEST(ScanOps, CumsumAndCumprodWithExclusiveAndReverse) {
  const Tensor axis = FromDoubles(DT_INT32, {}, {1});
  struct Want {
    bool exclusive, reverse;
    std::vector<double> sum, prod;
  };
  // Rows [1, 2, 3] and [4, 5, 6], scanned along axis 1.
  const std::vector<Want> wants = {
      {false, false, {1, 3, 6, 4, 9, 15}, {1, 2, 6, 4, 20, 120}},
      {true, false, {0, 1, 3, 0, 4, 9}, {1, 1, 2, 1, 4, 20}},
      {false, true, {6, 5, 3, 15, 11, 6}, {6, 6, 3, 120, 30, 6}},
      {true, true, {5, 3, 0, 11, 6, 0}, {6, 3, 1, 30, 6, 1}},
  };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    const Tensor x = FromDoubles(dt, {2, 3}, {1, 2, 3, 4, 5, 6});
    for (const Want& w : wants) {
      SCOPED_TRACE(DataTypeString(dt) + (w.exclusive ? " exclusive" : "") +
                   (w.reverse ? " reverse" : ""));
      const auto attrs = ops::ScanAttrs().Exclusive(w.exclusive).Reverse(w.reverse);
      auto sum =
          RunOp([&](const Scope& s, const auto& in) { return ops::Cumsum(s, in[0], in[1], attrs); },
                {x, axis});
      ASSERT_TRUE(sum.ok()) << sum.status();
      ExpectTensorNear(*sum, dt, {2, 3}, w.sum, 0);
      auto prod = RunOp(
          [&](const Scope& s, const auto& in) { return ops::Cumprod(s, in[0], in[1], attrs); },
          {x, axis});
      ASSERT_TRUE(prod.ok()) << prod.status();
      ExpectTensorNear(*prod, dt, {2, 3}, w.prod, 0);
    }
  }
  // Axis 0 (and -2): down the columns.
  auto down =
      RunOp([](const Scope& s, const auto& in) { return ops::Cumsum(s, in[0], in[1]); },
            {FromDoubles(DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6}), FromDoubles(DT_INT64, {}, {-2})});
  ASSERT_TRUE(down.ok()) << down.status();
  ExpectTensorNear(*down, DT_FLOAT, {2, 3}, {1, 2, 3, 5, 7, 9}, 0);
  EXPECT_FALSE(RunOp([](const Scope& s, const auto& in) { return ops::Cumsum(s, in[0], in[1]); },
                     {FromDoubles(DT_FLOAT, {2}, {1, 2}), FromDoubles(DT_INT32, {}, {1})})
                   .ok());
}

std::vector<OpCase> Scans() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
    for (bool exclusive : {false, true}) {
      const auto attrs = ops::ScanAttrs().Exclusive(exclusive).Reverse(!exclusive);
      const std::string name = DataTypeString(dt) + (exclusive ? " exclusive" : " reverse");
      c.push_back({"Cumsum " + name,
                   [attrs](const Scope& s, const auto& in) {
                     return ops::Cumsum(s, in[0], ops::Const(s, 1), attrs);
                   },
                   {RandomTensor(dt, {9, 300, 4}, -3, 3, 70)}});
      // Values near 1 keep the products finite.
      c.push_back(
          {"Cumprod " + name,
           [attrs](const Scope& s, const auto& in) {
             return ops::Cumprod(s, in[0], ops::Const(s, -1), attrs);
           },
           {RandomTensor(dt, {20, 30}, dt == DT_INT64 ? -1 : 0.9, dt == DT_INT64 ? 1 : 1.1, 71)},
           1e-4,
           dt != DT_INT64});
    }
  }
  return c;
}

TEST(ScanOps, GradientsMatchNumeric) {
  for (bool exclusive : {false, true}) {
    for (bool reverse : {false, true}) {
      SCOPED_TRACE(std::string(exclusive ? "exclusive " : "") + (reverse ? "reverse" : ""));
      const auto attrs = ops::ScanAttrs().Exclusive(exclusive).Reverse(reverse);
      ExpectGradientMatchesNumeric(
          [attrs](const Scope& s, const Xs& in) {
            return Output(ops::Cumsum(s, in[0], ops::Const(s, 1), attrs));
          },
          {RandomTensor(DT_DOUBLE, {3, 4}, -1, 1, 72)});
      // Away from 0, where Cumprod's gradient (TensorFlow's formula) divides by x.
      ExpectGradientMatchesNumeric(
          [attrs](const Scope& s, const Xs& in) {
            return Output(ops::Cumprod(s, in[0], ops::Const(s, 0), attrs));
          },
          {RandomTensor(DT_DOUBLE, {3, 4}, 0.5, 1.5, 73)});
    }
  }
}

// Prod: by hand (the empty product is 1), and its gradient (TensorFlow's, defined with
// zeros in x) over every set of axes, negative and repeated ones included.
TEST(ScanOps, ProdValuesAndGradient) {
  auto prod = [](std::vector<int32_t> axes, bool keep) {
    return [axes, keep](const Scope& s, const auto& in) {
      Tensor a(DT_INT32, TensorShape({static_cast<int64_t>(axes.size())}));
      for (size_t i = 0; i < axes.size(); ++i) a.base<int32_t>()[i] = axes[i];
      return Output(ops::Prod(s, in[0], ops::Const(s, a), ops::Prod::KeepDims(keep)));
    };
  };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor x = FromDoubles(dt, {2, 3}, {1, 2, 3, 4, 0, 2});
    auto got = RunOp(prod({1}, false), {x});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2}, {6, 0}, 0);
    got = RunOp(prod({0}, true), {x});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {1, 3}, {4, 0, 6}, 0);
    got = RunOp(prod({0}, false), {FromDoubles(dt, {0, 2}, {})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2}, {1, 1}, 0);
  }
  std::vector<double> v = ToDoubles(RandomTensor(DT_DOUBLE, {2, 3, 4}, 0.5, 1.5, 74));
  v[5] = 0;  // one zero: the other elements of its group get 0, it gets their product
  const Tensor x = FromDoubles(DT_DOUBLE, {2, 3, 4}, v);
  for (const auto& [axes, keep] :
       std::vector<std::pair<std::vector<int32_t>, bool>>{{{1}, false},
                                                          {{0, 2}, true},
                                                          {{-1}, false},
                                                          {{2, -1, 0}, false},
                                                          {{}, false},
                                                          {{0, 1, 2}, false}}) {
    SCOPED_TRACE(::testing::PrintToString(axes));
    ExpectGradientMatchesNumeric(prod(axes, keep), {x});
  }
}

const bool kMarked = [] {
  GradTestedOps().insert("Prod");
  GradTestedOps().insert("Cumsum");
  GradTestedOps().insert("Cumprod");
  return true;
}();

}  // namespace scan_ops_test
}  // namespace

RILL_OP_CASES(scans, scan_ops_test::Scans);

}  // namespace rill::testing
