// SparseFillEmptyRows and its gradient: TensorFlow's example, entries out of row order,
// no entries at all, a sparse vector, the refusals, and gradients against central
// differences for the values and the default value.
#include "gmock/gmock.h"
#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/sparse_tensor_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace sparse_fill_test {

MarkTested tested({"SparseFillEmptyRows", "SparseFillEmptyRowsGrad"});

using Ins = std::vector<Output>;

Tensor Longs(const std::vector<int64_t>& v, const TensorShape& shape) {
  return test::AsTensor<int64_t>(v, shape);
}

// Output `which` of SparseFillEmptyRows(indices, values, shape, default).
Tensor Fill(int which, const Tensor& indices, const Tensor& values, const Tensor& shape,
            const Tensor& fill) {
  auto got = RunOp(
      [which](const Scope& s, const Ins& in) {
        ops::SparseFillEmptyRows f(s, in[0], in[1], in[2], in[3]);
        const Output outs[] = {f.output_indices, f.output_values, f.empty_row_indicator,
                               f.reverse_index_map};
        return outs[which];
      },
      {indices, values, shape, fill});
  EXPECT_TRUE(got.ok()) << got.status();
  return got.ok() ? *got : Tensor();
}

TEST(SparseFillEmptyRows, FillsEachEmptyRowAndMapsTheEntries) {
  // Rows 0, 0, 3, 2 (out of order) of a [5, 6] matrix: rows 1 and 4 are empty.
  const Tensor indices = Longs({0, 1, 0, 3, 3, 1, 2, 0}, {4, 2});
  const Tensor values = test::AsTensor<float>({0, 3, 2, 1});
  const Tensor shape = Longs({5, 6}, {2});
  const Tensor fill = test::AsTensor<float>({4}, {});
  test::ExpectTensorEqual<int64_t>(Fill(0, indices, values, shape, fill),
                                   Longs({0, 1, 0, 3, 1, 0, 2, 0, 3, 1, 4, 0}, {6, 2}));
  test::ExpectTensorEqual<float>(Fill(1, indices, values, shape, fill),
                                 test::AsTensor<float>({0, 3, 4, 1, 2, 4}));
  test::ExpectTensorEqual<bool>(Fill(2, indices, values, shape, fill),
                                test::AsTensor<bool>({false, true, false, false, true}));
  test::ExpectTensorEqual<int64_t>(Fill(3, indices, values, shape, fill), Longs({0, 1, 4, 3}, {4}));
  // No entries: every row is filled; a sparse vector of 3.
  const Tensor none = Longs({}, {0, 1});
  test::ExpectTensorEqual<int64_t>(Fill(0, none, test::AsTensor<float>({}), Longs({3}, {1}), fill),
                                   Longs({0, 1, 2}, {3, 1}));
  test::ExpectTensorEqual<float>(Fill(1, none, test::AsTensor<float>({}), Longs({3}, {1}), fill),
                                 test::AsTensor<float>({4, 4, 4}));
}

TEST(SparseFillEmptyRows, RefusesWhatTensorFlowRefuses) {
  auto status = [](const Tensor& indices, const Tensor& values, const Tensor& shape,
                   const Tensor& fill) {
    return RunOp(
               [](const Scope& s, const Ins& in) {
                 return ops::SparseFillEmptyRows(s, in[0], in[1], in[2], in[3]).output_values;
               },
               {indices, values, shape, fill})
        .status();
  };
  const Tensor indices = Longs({0, 1, 0, 3, 2, 0, 3, 1}, {4, 2}), shape = Longs({5, 6}, {2});
  const Tensor fill = test::AsTensor<float>({4}, {});
  EXPECT_THAT(status(indices, test::AsTensor<float>({0, 3, 1}), shape, fill).message(),
              ::testing::HasSubstr("The length of `values` (3) must match the first dimension "
                                   "of `indices` (4)."));
  EXPECT_THAT(
      status(indices, test::AsTensor<float>({0, 3, 1, 2}), Longs({5, 2}, {2}), fill).message(),
      ::testing::HasSubstr("indices[1] = [0,3] is out of bounds: need 0 <= index < [5,2]"));
  EXPECT_THAT(
      status(indices, test::AsTensor<float>({0, 3, 1, 2}), shape, test::AsTensor<float>({4, 4}))
          .message(),
      ::testing::HasSubstr("default_value must be a scalar"));
  // 2^50 rows to fill: their indicator and counts cannot be allocated, a Status.
  const absl::Status huge =
      status(Longs({}, {0, 2}), test::AsTensor<float>({}), Longs({int64_t{1} << 50, 2}, {2}), fill);
  EXPECT_TRUE(absl::IsResourceExhausted(huge)) << huge;
}

TEST(SparseFillEmptyRows, GradientsMatchNumeric) {
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        const Output indices =
            ops::Const(s, Input::Initializer(Longs({0, 1, 0, 3, 3, 1, 2, 0}, {4, 2})));
        const Output shape = ops::Const(s, Input::Initializer(Longs({5, 6}, {2})));
        return ops::SparseFillEmptyRows(s, indices, in[0], shape, in[1]).output_values;
      },
      {FromDoubles(DT_DOUBLE, {4}, {0.5, 3, 2, -1}), FromDoubles(DT_DOUBLE, {}, {4})});
  // The gradient op itself: entries by the map, the rest to the default value.
  auto got = RunOp(
      [](const Scope& s, const Ins& in) {
        return ops::SparseFillEmptyRowsGrad(s, in[0], in[1]).d_default_value;
      },
      {Longs({0, 2}, {2}), test::AsTensor<double>({1, 10, 100, 1000})});
  ASSERT_TRUE(got.ok()) << got.status();
  test::ExpectTensorEqual<double>(*got, test::AsTensor<double>({1010}, {}));
}

const bool kMarked = [] {
  GradTestedOps().insert("SparseFillEmptyRows");
  return true;
}();

}  // namespace sparse_fill_test
}  // namespace
}  // namespace rill::testing
