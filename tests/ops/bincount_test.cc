// Bincount and DenseBincount: counts and weighted sums by hand (tf.math.bincount's own
// examples), per row with binary_output, values past size ignored and negative ones
// refused.
#include "rill/ops/math_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace bincount_test {

MarkTested tested({"Bincount", "DenseBincount"});

BuildFn BincountOf() {
  return [](const Scope& s, const std::vector<Output>& in) {
    return Output(ops::Bincount(s, in[0], in[1], in[2]));
  };
}
BuildFn DenseOf(bool binary) {
  return [binary](const Scope& s, const std::vector<Output>& in) {
    return Output(
        ops::DenseBincount(s, in[0], in[1], in[2], ops::DenseBincount::BinaryOutput(binary)));
  };
}

const std::vector<double> kValues = {1, 1, 2, 3, 2, 4, 4, 5};

TEST(Bincount, CountsAndWeightedSums) {
  const Tensor arr = FromDoubles(DT_INT32, {2, 4}, kValues), size = FromDoubles(DT_INT32, {}, {6});
  auto got = RunOp(BincountOf(), {arr, size, Tensor(DT_FLOAT, TensorShape({0}))});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {6}, {0, 2, 2, 1, 2, 1}, 0);
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(dt));
    got = RunOp(BincountOf(), {arr, size, FromDoubles(dt, {2, 4}, {1, 5, 0, 1, 0, 5, 4, 5})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {6}, {0, 6, 0, 1, 9, 5}, 0);
  }
}

// Row by row; 7 is past size 4 and ignored.
TEST(Bincount, DenseCountsEachRowOrMarksItsBins) {
  for (DataType idx : {DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(idx));
    const Tensor in = FromDoubles(idx, {2, 3}, {1, 2, 2, 0, 3, 7});
    const Tensor size = FromDoubles(idx, {}, {4}), none = Tensor(DT_INT64, TensorShape({0}));
    auto got = RunOp(DenseOf(false), {in, size, none});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, DT_INT64, {2, 4}, {0, 1, 2, 0, 1, 0, 0, 1}, 0);
    got = RunOp(DenseOf(true), {in, size, none});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, DT_INT64, {2, 4}, {0, 1, 1, 0, 1, 0, 0, 1}, 0);
  }
}

TEST(Bincount, ANegativeValueIsRefusedAndSizeZeroCountsNothing) {
  auto got =
      RunOp(BincountOf(), {FromDoubles(DT_INT32, {3}, {1, -1, 2}), FromDoubles(DT_INT32, {}, {3}),
                           Tensor(DT_FLOAT, TensorShape({0}))});
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(got.status().message().find("non-negative"), std::string::npos) << got.status();
  got = RunOp(BincountOf(), {FromDoubles(DT_INT32, {3}, {1, 5, 2}), FromDoubles(DT_INT32, {}, {0}),
                             Tensor(DT_FLOAT, TensorShape({0}))});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->shape(), TensorShape({0}));
}

}  // namespace bincount_test
}  // namespace
}  // namespace rill::testing
