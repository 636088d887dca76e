// Bucketize, HistogramFixedWidth, UnravelIndex and ListDiff (SetDiff1D) by hand, with
// TensorFlow's documented examples: buckets at and between boundaries, values outside the
// histogram's range in its end bins and NaN in none, coordinates of a [7, 6] array, a set
// difference keeping x's order and repeats.
#include <cmath>

#include "rill/ops/array_ops.h"
#include "rill/ops/math_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace value_bins_test {

MarkTested tested({"Bucketize", "HistogramFixedWidth", "UnravelIndex", "ListDiff"});

// tf.raw_ops.Bucketize's example: boundaries [0, 10, 100], input [[-5, 10000], [150, 10],
// [5, 100]] gives [[0, 3], [3, 2], [1, 3]]: a value equal to a boundary goes above it.
TEST(Bucketize, ValuesAtBoundariesGoAbove) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(dt));
    auto y = RunOp(
        [](const Scope& s, const std::vector<Output>& in) {
          return Output(ops::Bucketize(s, in[0], {0, 10, 100}));
        },
        {FromDoubles(dt, {3, 2}, {-5, 10000, 150, 10, 5, 100})});
    ASSERT_TRUE(y.ok()) << y.status();
    ExpectTensorNear(*y, DT_INT32, {3, 2}, {0, 3, 3, 2, 1, 3}, 0);
  }
}

BuildFn Histogram(DataType out = DT_INT32) {
  return [out](const Scope& s, const std::vector<Output>& in) {
    return Output(
        ops::HistogramFixedWidth(s, in[0], in[1], in[2], ops::HistogramFixedWidth::Dtype(out)));
  };
}

// tf.histogram_fixed_width's example: range [0, 5), 5 bins, [-1, 0, 1.5, 2, 5, 15] gives
// [2, 1, 1, 0, 2]; NaN is counted nowhere.
TEST(HistogramFixedWidth, EndBinsTakeValuesOutsideTheRange) {
  for (DataType out : {DT_INT32, DT_INT64}) {
    auto y =
        RunOp(Histogram(out), {FromDoubles(DT_FLOAT, {7}, {-1, 0, 1.5, 2, 5, 15, std::nan("")}),
                               FromDoubles(DT_FLOAT, {2}, {0, 5}), FromDoubles(DT_INT32, {}, {5})});
    ASSERT_TRUE(y.ok()) << y.status();
    ExpectTensorNear(*y, out, {5}, {2, 1, 1, 0, 2}, 0);
  }
  auto ints =
      RunOp(Histogram(), {FromDoubles(DT_INT64, {2, 3}, {0, 1, 2, 3, 4, 99}),
                          FromDoubles(DT_INT64, {2}, {0, 4}), FromDoubles(DT_INT32, {}, {2})});
  ASSERT_TRUE(ints.ok()) << ints.status();
  ExpectTensorNear(*ints, DT_INT32, {2}, {2, 4}, 0);
}

// tf.unravel_index's example: indices [22, 41, 37] of dims [7, 6] are rows [3, 6, 6] and
// columns [4, 5, 1]; a scalar index gives one column of coordinates.
TEST(UnravelIndex, CoordinatesOfRowMajorArrays) {
  auto unravel = [](const Scope& s, const std::vector<Output>& in) {
    return Output(ops::UnravelIndex(s, in[0], in[1]));
  };
  for (DataType dt : {DT_INT32, DT_INT64}) {
    auto y = RunOp(unravel, {FromDoubles(dt, {3}, {22, 41, 37}), FromDoubles(dt, {2}, {7, 6})});
    ASSERT_TRUE(y.ok()) << y.status();
    ExpectTensorNear(*y, dt, {2, 3}, {3, 6, 6, 4, 5, 1}, 0);
  }
  auto one =
      RunOp(unravel, {FromDoubles(DT_INT32, {}, {269}), FromDoubles(DT_INT32, {3}, {6, 7, 8})});
  ASSERT_TRUE(one.ok()) << one.status();
  ExpectTensorNear(*one, DT_INT32, {3}, {4, 5, 5}, 0);  // 4 * 56 + 5 * 8 + 5
  auto past =
      RunOp(unravel, {FromDoubles(DT_INT32, {2}, {0, 42}), FromDoubles(DT_INT32, {2}, {7, 6})});
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.status().message().find("index 42"), std::string::npos) << past.status();
}

// tf.compat.v1.setdiff1d's example: x [1, 2, 3, 4, 5, 6], y [1, 3, 5] gives out [2, 4, 6] at
// idx [1, 3, 5]; repeats in x stay, and NaN is never in y.
TEST(SetDiff1D, KeepsXsOrderAndRepeats) {
  auto diff = [](int k, DataType idx) {
    return [k, idx](const Scope& s, const std::vector<Output>& in) {
      ops::SetDiff1D d(s, in[0], in[1], ops::SetDiff1D::OutIdx(idx));
      return k == 0 ? d.out : d.idx;
    };
  };
  const Tensor x = FromDoubles(DT_INT32, {6}, {1, 2, 3, 4, 5, 6});
  const Tensor y = FromDoubles(DT_INT32, {3}, {1, 3, 5});
  auto out = RunOp(diff(0, DT_INT32), {x, y});
  auto idx = RunOp(diff(1, DT_INT64), {x, y});
  ASSERT_TRUE(out.ok() && idx.ok()) << out.status() << idx.status();
  ExpectTensorNear(*out, DT_INT32, {3}, {2, 4, 6}, 0);
  ExpectTensorNear(*idx, DT_INT64, {3}, {1, 3, 5}, 0);
  auto floats = RunOp(diff(0, DT_INT32), {FromDoubles(DT_FLOAT, {5}, {2, std::nan(""), 2, -0.0, 7}),
                                          FromDoubles(DT_FLOAT, {3}, {0, 7, std::nan("")})});
  ASSERT_TRUE(floats.ok()) << floats.status();
  ASSERT_EQ(floats->NumElements(), 3);
  EXPECT_EQ(floats->flat<float>()(0), 2);
  EXPECT_TRUE(std::isnan(floats->flat<float>()(1)));
  EXPECT_EQ(floats->flat<float>()(2), 2);
}

}  // namespace value_bins_test
}  // namespace
}  // namespace rill::testing
