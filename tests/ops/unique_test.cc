// Unique: distinct values in order of first appearance and each element's position among
// them, every dtype (floats by value: -0.0 is 0.0, each NaN its own); op cases.
#include <cmath>

#include "rill/ops/unique_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace unique_test {

MarkTested tested({"Unique", "UniqueWithCounts", "UniqueV2", "UniqueWithCountsV2"});

std::pair<Tensor, Tensor> RunUnique(const Tensor& x, DataType out_idx = DT_INT32) {
  Tensor y, idx;
  for (int which : {0, 1}) {
    auto got = RunOp(
        [which, out_idx](const Scope& s, const auto& in) {
          ops::Unique u(s, in[0], ops::Unique::OutIdx(out_idx));
          return which == 0 ? u.y : u.idx;
        },
        {x});
    EXPECT_TRUE(got.ok()) << got.status();
    if (got.ok()) (which == 0 ? y : idx) = *got;
  }
  return {y, idx};
}

TEST(Unique, FirstAppearanceOrderAndPositions) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    SCOPED_TRACE(DataTypeString(dt));
    auto [y, idx] = RunUnique(FromDoubles(dt, {7}, {4, 1, 4, 2, 1, 7, 4}));
    ExpectTensorNear(y, dt, {4}, {4, 1, 2, 7}, 0);
    ExpectTensorNear(idx, DT_INT32, {7}, {0, 1, 0, 2, 1, 3, 0}, 0);
  }
  auto [b, bi] = RunUnique(FromDoubles(DT_BOOL, {4}, {1, 1, 0, 1}), DT_INT64);
  ExpectTensorNear(b, DT_BOOL, {2}, {1, 0}, 0);
  ExpectTensorNear(bi, DT_INT64, {4}, {0, 0, 1, 0}, 0);
  auto [f, fi] = RunUnique(FromDoubles(DT_FLOAT, {5}, {0.0, -0.0, NAN, NAN, 1}));
  ExpectTensorNear(f, DT_FLOAT, {4}, {0, NAN, NAN, 1}, 0);
  ExpectTensorNear(fi, DT_INT32, {5}, {0, 0, 1, 2, 3}, 0);
  auto [e, ei] = RunUnique(Tensor(DT_FLOAT, TensorShape({0})));
  ExpectTensorNear(e, DT_FLOAT, {0}, {}, 0);
  ExpectTensorNear(ei, DT_INT32, {0}, {}, 0);
}

TEST(UniqueWithCounts, CountsEachDistinctValue) {
  for (DataType out_idx : {DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(out_idx));
    const Tensor x = FromDoubles(DT_FLOAT, {7}, {4, 1, 4, 2, 1, 7, 4});
    std::vector<Tensor> got;
    for (int which : {0, 1, 2}) {
      auto t = RunOp(
          [which, out_idx](const Scope& s, const auto& in) {
            ops::UniqueWithCounts u(s, in[0], ops::UniqueWithCounts::OutIdx(out_idx));
            return which == 0 ? u.y : which == 1 ? u.idx : u.count;
          },
          {x});
      ASSERT_TRUE(t.ok()) << t.status();
      got.push_back(*t);
    }
    ExpectTensorNear(got[0], DT_FLOAT, {4}, {4, 1, 2, 7}, 0);
    ExpectTensorNear(got[1], out_idx, {7}, {0, 1, 0, 2, 1, 3, 0}, 0);
    ExpectTensorNear(got[2], out_idx, {4}, {3, 2, 1, 1}, 0);
  }
  // Each NaN is its own value, counted once.
  auto nan =
      RunOp([](const Scope& s, const auto& in) { return ops::UniqueWithCounts(s, in[0]).count; },
            {FromDoubles(DT_FLOAT, {4}, {NAN, 1, NAN, 1})});
  ASSERT_TRUE(nan.ok()) << nan.status();
  ExpectTensorNear(*nan, DT_INT32, {3}, {1, 2, 1}, 0);
}

// UniqueV2's outputs (y, idx) and UniqueWithCountsV2's count for x along `axis`.
std::vector<Tensor> RunUniqueV2(const Tensor& x, const Tensor& axis) {
  std::vector<Tensor> got;
  for (int which : {0, 1, 2}) {
    auto t = RunOp(
        [which](const Scope& s, const auto& in) {
          if (which == 2) return ops::UniqueWithCountsV2(s, in[0], in[1]).count;
          ops::UniqueV2 u(s, in[0], in[1]);
          return which == 0 ? u.y : u.idx;
        },
        {x, axis});
    EXPECT_TRUE(t.ok()) << t.status();
    got.push_back(t.ok() ? *t : Tensor());
  }
  return got;
}

TEST(UniqueV2, DistinctSlicesAlongAnAxis) {
  const Tensor x = FromDoubles(DT_FLOAT, {3, 3}, {1, 0, 0, 1, 0, 0, 2, 0, 0});
  std::vector<Tensor> rows = RunUniqueV2(x, FromDoubles(DT_INT64, {1}, {0}));
  ExpectTensorNear(rows[0], DT_FLOAT, {2, 3}, {1, 0, 0, 2, 0, 0}, 0);
  ExpectTensorNear(rows[1], DT_INT32, {3}, {0, 0, 1}, 0);
  ExpectTensorNear(rows[2], DT_INT32, {2}, {2, 1}, 0);
  for (double axis : {1.0, -1.0}) {
    std::vector<Tensor> cols = RunUniqueV2(x, FromDoubles(DT_INT32, {1}, {axis}));
    ExpectTensorNear(cols[0], DT_FLOAT, {3, 2}, {1, 0, 1, 0, 2, 0}, 0);
    ExpectTensorNear(cols[1], DT_INT32, {3}, {0, 1, 1}, 0);
    ExpectTensorNear(cols[2], DT_INT32, {2}, {1, 2}, 0);
  }
  // No axis: x must be a vector, as Unique's.
  std::vector<Tensor> flat =
      RunUniqueV2(FromDoubles(DT_INT32, {5}, {3, 1, 3, 3, 2}), Tensor(DT_INT64, TensorShape({0})));
  ExpectTensorNear(flat[0], DT_INT32, {3}, {3, 1, 2}, 0);
  ExpectTensorNear(flat[2], DT_INT32, {3}, {3, 1, 1}, 0);
  // A slice holding a NaN matches none; -0.0 is 0.0. A 3-D x along its middle axis.
  std::vector<Tensor> nan = RunUniqueV2(FromDoubles(DT_DOUBLE, {2, 2}, {NAN, NAN, 0.0, -0.0}),
                                        FromDoubles(DT_INT64, {1}, {0}));
  ExpectTensorNear(nan[1], DT_INT32, {2}, {0, 1}, 0);
  std::vector<Tensor> mid = RunUniqueV2(FromDoubles(DT_UINT8, {2, 3, 1}, {5, 6, 5, 7, 8, 7}),
                                        FromDoubles(DT_INT32, {1}, {1}));
  ExpectTensorNear(mid[0], DT_UINT8, {2, 2, 1}, {5, 6, 7, 8}, 0);
  ExpectTensorNear(mid[1], DT_INT32, {3}, {0, 1, 0}, 0);
}

std::vector<OpCase> Uniques() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_INT64, DT_BOOL}) {
    for (int which : {0, 1}) {
      c.push_back({"Unique " + DataTypeString(dt) + (which ? " idx" : " y"),
                   [which](const Scope& s, const auto& in) {
                     ops::Unique u(s, in[0]);
                     return which == 0 ? u.y : u.idx;
                   },
                   {RandomTensor(dt, {500}, 0, 40, 110)},
                   0,
                   false});
    }
    c.push_back({"UniqueV2 " + DataTypeString(dt) + " y along axis 1",
                 [](const Scope& s, const auto& in) { return ops::UniqueV2(s, in[0], {1}).y; },
                 {RandomTensor(dt, {2, 300}, 0, 3, 112)},
                 0,
                 false});
    c.push_back({"UniqueWithCountsV2 " + DataTypeString(dt) + " count along axis 0",
                 [](const Scope& s, const auto& in) {
                   return ops::UniqueWithCountsV2(s, in[0], {0}).count;
                 },
                 {RandomTensor(dt, {300, 2}, 0, 3, 113)},
                 0,
                 false});
    c.push_back(
        {"UniqueWithCounts " + DataTypeString(dt) + " count",
         [](const Scope& s, const auto& in) { return ops::UniqueWithCounts(s, in[0]).count; },
         {RandomTensor(dt, {500}, 0, 40, 111)},
         0,
         false});
  }
  return c;
}

}  // namespace unique_test
}  // namespace

RILL_OP_CASES(unique, unique_test::Uniques);

}  // namespace rill::testing
