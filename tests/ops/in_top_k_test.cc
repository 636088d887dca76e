// InTopK and InTopKV2 by hand: ranks within a row, ties at the boundary counted in, k of 0
// and past the classes, targets outside the row and rows with a value that is not finite
// (false, as TensorFlow's), int64 targets, and no rows.
#include <limits>

#include "rill/ops/topk_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace in_top_k_test {

MarkTested tested({"InTopK", "InTopKV2"});

BuildFn V1(int64_t k) {
  return [k](const Scope& s, const std::vector<Output>& in) {
    return ops::InTopK(s, in[0], in[1], k).precision;
  };
}
BuildFn V2() {
  return [](const Scope& s, const std::vector<Output>& in) {
    return ops::InTopKV2(s, in[0], in[1], in[2]).precision;
  };
}

// Row 0: 0.9 > 0.5 = 0.5 > 0.1; row 1: 0.4 above 0.3 above 0.2 = 0.2.
const Tensor kPredictions = FromDoubles(DT_FLOAT, {2, 4}, {0.5, 0.9, 0.1, 0.5, 0.2, 0.4, 0.2, 0.3});

TEST(InTopK, RanksWithTiesAtTheBoundaryCountedIn) {
  // Targets: row 0 class 3 (one above it, tied with class 0), row 1 class 2 (two above).
  const Tensor targets = FromDoubles(DT_INT32, {2}, {3, 2});
  for (int64_t k : {0, 1, 2, 3, 4, 9}) {
    SCOPED_TRACE(k);
    auto y = RunOp(V1(k), {kPredictions, targets});
    ASSERT_TRUE(y.ok()) << y.status();
    ExpectTensorNear(*y, DT_BOOL, {2}, {k >= 2 ? 1.0 : 0.0, k >= 3 ? 1.0 : 0.0}, 0);
    for (DataType dt : {DT_INT32, DT_INT64}) {
      auto y2 = RunOp(V2(), {kPredictions, FromDoubles(dt, {2}, {3, 2}),
                             FromDoubles(dt, {}, {static_cast<double>(k)})});
      ASSERT_TRUE(y2.ok()) << y2.status();
      ExpectTensorNear(*y2, DT_BOOL, {2}, {k >= 2 ? 1.0 : 0.0, k >= 3 ? 1.0 : 0.0}, 0);
    }
  }
}

TEST(InTopK, OutOfRangeTargetsAndNonFiniteRowsAreFalse) {
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor p =
      FromDoubles(DT_FLOAT, {4, 3}, {1, 2, 3, 1, 2, 3, 1, 2, std::nan(""), 1, -inf, 3});
  const Tensor targets = FromDoubles(DT_INT64, {4}, {-1, 3, 0, 2});
  auto y = RunOp(V1(3), {p, targets});
  ASSERT_TRUE(y.ok()) << y.status();
  ExpectTensorNear(*y, DT_BOOL, {4}, {0, 0, 0, 0}, 0);
  auto empty =
      RunOp(V1(1), {Tensor(DT_FLOAT, TensorShape({0, 5})), FromDoubles(DT_INT32, {0}, {})});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({0}));
}

}  // namespace in_top_k_test
}  // namespace
}  // namespace rill::testing
