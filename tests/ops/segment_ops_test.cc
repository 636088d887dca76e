// The segment reductions: TensorFlow's documented examples by hand, every op against its
// definition on random ids (on every device present: RunOp places on the GPU when there is
// one), empty segments, NaN, and ids that break the rules refused with the rule named.
#include "rill/ops/segment_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace segment_ops_test {

MarkTested tested({"SegmentSum", "SegmentMean", "SegmentProd", "SegmentMax", "SegmentMin",
                   "UnsortedSegmentProd", "UnsortedSegmentMax", "UnsortedSegmentMin",
                   "SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN",
                   "SparseSegmentSumWithNumSegments", "SparseSegmentMeanWithNumSegments",
                   "SparseSegmentSqrtNWithNumSegments", "SparseSegmentSumGrad",
                   "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad"});

using Ins = std::vector<Output>;
Tensor Ids(std::vector<double> v, DataType dt = DT_INT32) {
  return FromDoubles(dt, {static_cast<int64_t>(v.size())}, v);
}
Tensor Scalar(int64_t v, DataType dt = DT_INT32) { return FromDoubles(dt, {}, {double(v)}); }

// TensorFlow's example c = [[1,2,3,4], [4,3,2,1], [5,6,7,8]] with ids [0, 0, 2]: segment 1
// has no rows.
TEST(SegmentOps, SortedOpsByHandInEveryDtype) {
  struct Want {
    BuildFn op;
    std::vector<double> v;
  };
  const std::vector<std::pair<std::string, Want>> cases = {
      {"Sum",
       {[](const Scope& s, const Ins& in) { return ops::SegmentSum(s, in[0], in[1]); },
        {5, 5, 5, 5, 0, 0, 0, 0, 5, 6, 7, 8}}},
      {"Prod",
       {[](const Scope& s, const Ins& in) { return ops::SegmentProd(s, in[0], in[1]); },
        {4, 6, 6, 4, 1, 1, 1, 1, 5, 6, 7, 8}}},
      {"Max",
       {[](const Scope& s, const Ins& in) { return ops::SegmentMax(s, in[0], in[1]); },
        {4, 3, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8}}},
      {"Min",
       {[](const Scope& s, const Ins& in) { return ops::SegmentMin(s, in[0], in[1]); },
        {1, 2, 2, 1, 0, 0, 0, 0, 5, 6, 7, 8}}},
  };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    const Tensor c = FromDoubles(dt, {3, 4}, {1, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8});
    for (DataType it : {DT_INT32, DT_INT64}) {
      for (const auto& [name, want] : cases) {
        SCOPED_TRACE(name + " " + DataTypeString(dt) + " " + DataTypeString(it));
        auto got = RunOp(want.op, {c, Ids({0, 0, 2}, it)});
        ASSERT_TRUE(got.ok()) << got.status();
        ExpectTensorNear(*got, dt, {3, 4}, want.v, 0);
      }
    }
    // The mean of 1 and 4 truncates in integers, as TensorFlow's.
    const double half = DataTypeIsFloating(dt) ? 2.5 : 2;
    auto mean =
        RunOp([](const Scope& s, const Ins& in) { return ops::SegmentMean(s, in[0], in[1]); },
              {c, Ids({0, 0, 2})});
    ASSERT_TRUE(mean.ok()) << mean.status();
    ExpectTensorNear(*mean, dt, {3, 4}, {half, half, half, half, 0, 0, 0, 0, 5, 6, 7, 8}, 0);
  }
}

TEST(SegmentOps, UnsortedOpsDropNegativeIdsAndFillEmptySegments) {
  const double lowest = std::numeric_limits<float>::lowest();
  const double highest = std::numeric_limits<float>::max();
  const Tensor data = FromDoubles(DT_FLOAT, {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  const Tensor ids = Ids({2, 0, 2, -1}), num = Scalar(4);
  auto prod = RunOp([](const Scope& s,
                       const Ins& in) { return ops::UnsortedSegmentProd(s, in[0], in[1], in[2]); },
                    {data, ids, num});
  ASSERT_TRUE(prod.ok()) << prod.status();
  ExpectTensorNear(*prod, DT_FLOAT, {4, 2}, {3, 4, 1, 1, 5, 12, 1, 1}, 0);
  auto max = RunOp(
      [](const Scope& s, const Ins& in) { return ops::UnsortedSegmentMax(s, in[0], in[1], in[2]); },
      {data, ids, num});
  ASSERT_TRUE(max.ok()) << max.status();
  ExpectTensorNear(*max, DT_FLOAT, {4, 2}, {3, 4, lowest, lowest, 5, 6, lowest, lowest}, 0);
  auto min = RunOp(
      [](const Scope& s, const Ins& in) { return ops::UnsortedSegmentMin(s, in[0], in[1], in[2]); },
      {data, Ids({2, 0, 2, -1}, DT_INT64), Scalar(4, DT_INT64)});
  ASSERT_TRUE(min.ok()) << min.status();
  ExpectTensorNear(*min, DT_FLOAT, {4, 2}, {3, 4, highest, highest, 1, 2, highest, highest}, 0);
  // Integers: the empty max is the dtype's lowest.
  auto int_max = RunOp(
      [](const Scope& s, const Ins& in) { return ops::UnsortedSegmentMax(s, in[0], in[1], in[2]); },
      {FromDoubles(DT_INT32, {2}, {-5, 9}), Ids({1, 1}), Scalar(2)});
  ASSERT_TRUE(int_max.ok()) << int_max.status();
  EXPECT_EQ(int_max->base<int32_t>()[0], std::numeric_limits<int32_t>::lowest());
  EXPECT_EQ(int_max->base<int32_t>()[1], 9);
  // ids of two dims: a prefix of data's shape [2, 2, 1].
  auto two_dims = RunOp(
      [](const Scope& s, const Ins& in) { return ops::UnsortedSegmentMin(s, in[0], in[1], in[2]); },
      {FromDoubles(DT_DOUBLE, {2, 2, 1}, {4, 3, 2, 1}), FromDoubles(DT_INT32, {2, 2}, {0, 1, 1, 0}),
       Scalar(2)});
  ASSERT_TRUE(two_dims.ok()) << two_dims.status();
  ExpectTensorNear(*two_dims, DT_DOUBLE, {2, 1}, {1, 2}, 0);
}

TEST(SegmentOps, SparseOpsByHand) {
  const Tensor c = FromDoubles(DT_FLOAT, {3, 4}, {1, 2, 3, 4, -1, -2, -3, -4, 5, 6, 7, 8});
  auto sum = [](const Scope& s, const Ins& in) {
    return ops::SparseSegmentSum(s, in[0], in[1], in[2]);
  };
  auto got = RunOp(sum, {c, Ids({0, 1}), Ids({0, 0})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {1, 4}, {0, 0, 0, 0}, 0);
  got = RunOp(sum, {c, Ids({0, 1, 2}, DT_INT64), Ids({0, 0, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 4}, {0, 0, 0, 0, 5, 6, 7, 8}, 0);
  // A row taken twice counts twice.
  got = RunOp(sum, {c, Ids({2, 2, 0}), Ids({0, 0, 1}, DT_INT64)});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 4}, {10, 12, 14, 16, 1, 2, 3, 4}, 0);
  got = RunOp(
      [](const Scope& s, const Ins& in) {
        return ops::SparseSegmentSumWithNumSegments(s, in[0], in[1], in[2], in[3]);
      },
      {c, Ids({0, 1}), Ids({0, 2}), Scalar(4)});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {4, 4}, {1, 2, 3, 4, 0, 0, 0, 0, -1, -2, -3, -4, 0, 0, 0, 0}, 0);
  got = RunOp(
      [](const Scope& s, const Ins& in) { return ops::SparseSegmentMean(s, in[0], in[1], in[2]); },
      {c, Ids({0, 2, 1}), Ids({0, 0, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 4}, {3, 4, 5, 6, -1, -2, -3, -4}, 1e-6);
  const double r3 = 1 / std::sqrt(3.0);
  got = RunOp(
      [](const Scope& s, const Ins& in) {
        return ops::SparseSegmentSqrtNWithNumSegments(s, in[0], in[1], in[2], in[3]);
      },
      {c, Ids({0, 1, 2}), Ids({1, 1, 1}), Scalar(3, DT_INT64)});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {3, 4}, {0, 0, 0, 0, 5 * r3, 6 * r3, 7 * r3, 8 * r3, 0, 0, 0, 0},
                   1e-6);
}

// grad [[1, 2], [3, 4]] of a sparse op that took rows [0, 2, 0] into segments [0, 0, 1]:
// segment 0 had two rows, segment 1 one.
TEST(SegmentOps, SparseGradOpsByHand) {
  const Tensor g = FromDoubles(DT_DOUBLE, {2, 2}, {1, 2, 3, 4});
  const Tensor indices = Ids({0, 2, 0}), ids = Ids({0, 0, 1}), rows = Scalar(3);
  const double h = 1 / std::sqrt(2.0);
  struct Case {
    const char* name;
    BuildFn op;
    std::vector<double> want;
  };
  for (const Case& c :
       std::vector<Case>{{"Sum",
                          [](const Scope&s, const Ins&in) {
                            return ops::SparseSegmentSumGrad(s, in[0], in[1], in[2], in[3]);
                          },
                          {4, 6, 0, 0, 1, 2}},
                         {"Mean",
                          [](const Scope&s, const Ins&in) {
                            return ops::SparseSegmentMeanGrad(s, in[0], in[1], in[2], in[3]);
                          },
                          {3.5, 5, 0, 0, 0.5, 1}},
                         {"SqrtN",
                          [](const Scope&s, const Ins&in) {
                            return ops::SparseSegmentSqrtNGrad(s, in[0], in[1], in[2], in[3]);
                          },
                          {h + 3, 2 * h + 4, 0, 0, h, 2 * h}}}) {
    SCOPED_TRACE(c.name);
    auto got = RunOp(c.op, {g, indices, ids, rows});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, DT_DOUBLE, {3, 2}, c.want, 1e-12);
  }
}

// Each output row by definition: the rows whose key is its segment, in order, reduced in
// double (r: "sum", "mean", "sqrtn", "prod", "max", "min"); `weights` scale each row.
std::vector<double> Definition(const std::string& r, const std::vector<double>& data, int64_t inner,
                               const std::vector<int64_t>& keys, const std::vector<int64_t>& rows,
                               int64_t segments, double empty,
                               const std::vector<double>& weights = {}) {
  std::vector<double> out;
  for (int64_t s = 0; s < segments; ++s) {
    for (int64_t i = 0; i < inner; ++i) {
      std::vector<double> v;
      for (size_t j = 0; j < keys.size(); ++j) {
        if (keys[j] == s)
          v.push_back(data[rows[j] * inner + i] * (weights.empty() ? 1 : weights[j]));
      }
      double acc = v.empty() ? empty : v[0];
      for (size_t k = 1; k < v.size(); ++k) {
        if (r == "prod")
          acc *= v[k];
        else if (r == "max")
          acc = std::max(acc, v[k]);
        else if (r == "min")
          acc = std::min(acc, v[k]);
        else
          acc += v[k];
      }
      if (r == "mean" && !v.empty()) acc /= v.size();
      if (r == "sqrtn" && !v.empty()) acc /= std::sqrt(double(v.size()));
      out.push_back(acc);
    }
  }
  return out;
}

std::vector<int64_t> RandomInts(std::mt19937& rng, int n, int lo, int hi, bool sorted) {
  std::vector<int64_t> v(n);
  for (auto& x : v) x = std::uniform_int_distribution<int>(lo, hi)(rng);
  if (sorted) std::sort(v.begin(), v.end());
  return v;
}
Tensor IntTensor(const std::vector<int64_t>& v) {
  return FromDoubles(DT_INT64, {static_cast<int64_t>(v.size())},
                     std::vector<double>(v.begin(), v.end()));
}
std::vector<int64_t> Iota(int n) {
  std::vector<int64_t> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

TEST(SegmentOps, EveryOpAgreesWithItsDefinitionOnRandomIds) {
  std::mt19937 rng(7);
  const int n = 37, inner = 3;
  const Tensor data = RandomTensor(DT_DOUBLE, {n, inner}, 0.5, 1.5, 11);
  const std::vector<double> d = ToDoubles(data);
  const double lowest = std::numeric_limits<double>::lowest();
  const double highest = std::numeric_limits<double>::max();
  auto check = [&](const BuildFn& op, const std::vector<Tensor>& in,
                   const std::vector<double>& want) {
    auto got = RunOp(op, in);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, DT_DOUBLE, {static_cast<int64_t>(want.size()) / inner, inner}, want,
                     1e-12);
  };
  const auto sorted = RandomInts(rng, n, 0, 9, true);
  const int64_t segs = sorted.back() + 1;
  check([](const Scope& s, const Ins& in) { return ops::SegmentSum(s, in[0], in[1]); },
        {data, IntTensor(sorted)}, Definition("sum", d, inner, sorted, Iota(n), segs, 0));
  check([](const Scope& s, const Ins& in) { return ops::SegmentMean(s, in[0], in[1]); },
        {data, IntTensor(sorted)}, Definition("mean", d, inner, sorted, Iota(n), segs, 0));
  check([](const Scope& s, const Ins& in) { return ops::SegmentProd(s, in[0], in[1]); },
        {data, IntTensor(sorted)}, Definition("prod", d, inner, sorted, Iota(n), segs, 1));
  check([](const Scope& s, const Ins& in) { return ops::SegmentMax(s, in[0], in[1]); },
        {data, IntTensor(sorted)}, Definition("max", d, inner, sorted, Iota(n), segs, 0));
  check([](const Scope& s, const Ins& in) { return ops::SegmentMin(s, in[0], in[1]); },
        {data, IntTensor(sorted)}, Definition("min", d, inner, sorted, Iota(n), segs, 0));
  const auto any = RandomInts(rng, n, -2, 12, false);
  const Tensor num = Scalar(14);
  check([](const Scope& s,
           const Ins& in) { return ops::UnsortedSegmentProd(s, in[0], in[1], in[2]); },
        {data, IntTensor(any), num}, Definition("prod", d, inner, any, Iota(n), 14, 1));
  check(
      [](const Scope& s, const Ins& in) { return ops::UnsortedSegmentMax(s, in[0], in[1], in[2]); },
      {data, IntTensor(any), num}, Definition("max", d, inner, any, Iota(n), 14, lowest));
  check(
      [](const Scope& s, const Ins& in) { return ops::UnsortedSegmentMin(s, in[0], in[1], in[2]); },
      {data, IntTensor(any), num}, Definition("min", d, inner, any, Iota(n), 14, highest));
  const auto indices = RandomInts(rng, 50, 0, n - 1, false);
  const auto ids = RandomInts(rng, 50, 0, 9, true);
  const Tensor num12 = Scalar(12);
  check([](const Scope& s, const Ins& in) { return ops::SparseSegmentSum(s, in[0], in[1], in[2]); },
        {data, IntTensor(indices), IntTensor(ids)},
        Definition("sum", d, inner, ids, indices, ids.back() + 1, 0));
  check(
      [](const Scope& s, const Ins& in) {
        return ops::SparseSegmentMeanWithNumSegments(s, in[0], in[1], in[2], in[3]);
      },
      {data, IntTensor(indices), IntTensor(ids), num12},
      Definition("mean", d, inner, ids, indices, 12, 0));
  check(
      [](const Scope& s, const Ins& in) { return ops::SparseSegmentSqrtN(s, in[0], in[1], in[2]); },
      {data, IntTensor(indices), IntTensor(ids)},
      Definition("sqrtn", d, inner, ids, indices, ids.back() + 1, 0));
  // The gradients: grad rows (segments, unsorted here) added into rows `into`, weighted.
  const auto into = RandomInts(rng, 50, 0, 19, false), from = RandomInts(rng, 50, 0, n - 1, false);
  std::vector<double> count(n, 0), mean_w, sqrt_w;
  for (int64_t f : from) ++count[f];
  for (int64_t f : from) {
    mean_w.push_back(1 / count[f]);
    sqrt_w.push_back(1 / std::sqrt(count[f]));
  }
  const std::vector<Tensor> grad_in = {data, IntTensor(into), IntTensor(from), Scalar(20)};
  check([](const Scope& s,
           const Ins& in) { return ops::SparseSegmentSumGrad(s, in[0], in[1], in[2], in[3]); },
        grad_in, Definition("sum", d, inner, into, from, 20, 0));
  check([](const Scope& s,
           const Ins& in) { return ops::SparseSegmentMeanGrad(s, in[0], in[1], in[2], in[3]); },
        grad_in, Definition("sum", d, inner, into, from, 20, 0, mean_w));
  check([](const Scope& s,
           const Ins& in) { return ops::SparseSegmentSqrtNGrad(s, in[0], in[1], in[2], in[3]); },
        grad_in, Definition("sum", d, inner, into, from, 20, 0, sqrt_w));
}

TEST(SegmentOps, NanWinsAMaxOrMinAndTheShapeIsKnownFromConstantIds) {
  const double nan = std::nan("");
  auto got = RunOp([](const Scope& s, const Ins& in) { return ops::SegmentMax(s, in[0], in[1]); },
                   {FromDoubles(DT_FLOAT, {4}, {1, nan, 3, 2}), Ids({0, 0, 1, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(std::isnan(got->base<float>()[0]));
  EXPECT_EQ(got->base<float>()[1], 3);
  Scope s = Scope::NewRootScope();
  auto y = ops::SegmentSum(s, ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({-1, 5})),
                           ops::Const(s, Ids({0, 0, 3})));
  EXPECT_EQ(y.node()->output_shape(0), PartialTensorShape({4, 5}));
  auto z = ops::SparseSegmentMeanWithNumSegments(
      s, ops::Placeholder(s, DT_DOUBLE, ops::Placeholder::Shape({7, 2, 3})),
      ops::Placeholder(s, DT_INT32), ops::Placeholder(s, DT_INT32), ops::Const(s, 6));
  EXPECT_EQ(z.node()->output_shape(0), PartialTensorShape({6, 2, 3}));
  ASSERT_TRUE(s.ok()) << s.status();
}

TEST(SegmentOps, BrokenIdsAreRefusedWithTheRuleNamed) {
  const Tensor data = FromDoubles(DT_FLOAT, {3, 2}, {1, 2, 3, 4, 5, 6});
  auto sorted = [](const Scope& s, const Ins& in) { return ops::SegmentSum(s, in[0], in[1]); };
  auto sparse = [](const Scope& s, const Ins& in) {
    return ops::SparseSegmentSumWithNumSegments(s, in[0], in[1], in[2], in[3]);
  };
  auto unsorted = [](const Scope& s, const Ins& in) {
    return ops::UnsortedSegmentMax(s, in[0], in[1], in[2]);
  };
  auto grad = [](const Scope& s, const Ins& in) {
    return ops::SparseSegmentMeanGrad(s, in[0], in[1], in[2], in[3]);
  };
  struct Bad {
    BuildFn op;
    std::vector<Tensor> in;
    std::string says;
  };
  for (const Bad& b : std::vector<Bad>{
           {sorted, {data, Ids({0, 2, 1})}, "segment_ids[2] = 1 follows segment_ids[1] = 2"},
           {sorted, {data, Ids({-1, 0, 0})}, "segment_ids[0] = -1 must be >= 0"},
           {sorted, {data, Ids({0, 0})}, "must hold one id per row of data [3,2]"},
           {sorted, {data, FromDoubles(DT_INT32, {3, 1}, {0, 0, 0})}, "must be a vector"},
           {sparse, {data, Ids({0, 3}), Ids({0, 1}), Scalar(2)}, "indices[1] = 3 is not in [0, 3)"},
           {sparse, {data, Ids({0, 1}), Ids({0, 2}), Scalar(2)}, "not below num_segments 2"},
           {sparse, {data, Ids({0, 1}), Ids({0}), Scalar(2)}, "a segment per index"},
           {unsorted, {data, Ids({0, 5, 1}), Scalar(3)}, "segment_ids[1] = 5 is not in [0, 3)"},
           {unsorted, {data, Ids({0, 1}), Scalar(3)}, "must be a prefix of data's shape"},
           {unsorted, {data, Ids({0, 1, 1}), Scalar(-1)}, "num_segments must be >= 0"},
           {grad,
            {data, Ids({0, 1}), Ids({0, 3}), Scalar(2)},
            "segment_ids[1] = 3 is not in [0, 3)"},
           {grad, {data, Ids({0, 2}), Ids({0, 1}), Scalar(2)}, "indices[1] = 2 is not in [0, 2)"},
       }) {
    SCOPED_TRACE(b.says);
    for (bool fed : {true, false}) {
      auto got = fed ? RunOp(b.op, b.in) : RunOpConst(b.op, b.in);
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument) << got.status();
      EXPECT_NE(got.status().message().find(b.says), std::string::npos) << got.status();
    }
  }
}

}  // namespace segment_ops_test
}  // namespace
}  // namespace rill::testing
