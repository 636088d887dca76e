// SparseSoftmax, SparseSlice (and its gradient op) and SparseSparseMaximum/Minimum: values by
// hand, entries out of canonical order, refusals, and gradients against central
// differences.
#include <cmath>
#include <vector>

#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/sparse_tensor_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace sparse_slice_test {

MarkTested tested({"SparseSoftmax", "SparseSlice", "SparseSliceGrad", "SparseSparseMaximum",
                   "SparseSparseMinimum", "SparseConcat"});

using Ins = std::vector<Output>;

Tensor Longs(const std::vector<int64_t>& v, const TensorShape& shape) {
  return test::AsTensor<int64_t>(v, shape);
}
Output LongConst(const Scope& s, const std::vector<int64_t>& v, const TensorShape& shape) {
  return ops::Const(s, Input::Initializer(Longs(v, shape)));
}

absl::StatusOr<Tensor> Run1(const BuildFn& build, const std::vector<Tensor>& in) {
  return RunOp(build, in);
}

TEST(SparseSoftmax, NormalizesEachRowOfEntries) {
  // Rows 0 (entries 1, 2, given out of order) and 1 (entry 5) of a [2, 3] matrix.
  auto got = Run1(
      [](const Scope& s, const Ins& in) {
        return ops::SparseSoftmax(s, LongConst(s, {0, 2, 1, 1, 0, 0}, {3, 2}), in[0],
                                  LongConst(s, {2, 3}, {2}));
      },
      {test::AsTensor<double>({2, 5, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  const double low = std::exp(-1.0) / (1 + std::exp(-1.0));
  test::ExpectTensorNear<double>(*got, test::AsTensor<double>({1 - low, 1, low}), 1e-12);
  auto rank1 =
      Run1([](const Scope& s, const Ins& in) { return ops::SparseSoftmax(s, in[0], in[1], in[2]); },
           {Longs({0, 1}, {2, 1}), test::AsTensor<float>({1, 2}), Longs({3}, {1})});
  EXPECT_FALSE(rank1.ok());
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        return ops::SparseSoftmax(s, LongConst(s, {0, 2, 1, 1, 0, 0, 1, 2}, {4, 2}), in[0],
                                  LongConst(s, {2, 3}, {2}));
      },
      {FromDoubles(DT_DOUBLE, {4}, {0.5, -1, 2, 0.25})});
}

// Output `which` of SparseSlice of [[0, 1], [2, 0], [3, 4]] from `start`, `size`.
Tensor Slice(int which, const std::vector<int64_t>& start, const std::vector<int64_t>& size) {
  auto got = Run1(
      [&](const Scope& s, const Ins& in) {
        ops::SparseSlice slice(s, LongConst(s, {0, 1, 1, 0, 2, 0, 2, 1}, {4, 2}), in[0],
                               LongConst(s, {3, 2}, {2}), LongConst(s, start, {2}),
                               LongConst(s, size, {2}));
        const Output outs[] = {slice.output_indices, slice.output_values, slice.output_shape};
        return outs[which];
      },
      {test::AsTensor<float>({1, 2, 3, 4})});
  EXPECT_TRUE(got.ok()) << got.status();
  return got.ok() ? *got : Tensor();
}

TEST(SparseSlice, KeepsTheEntriesInsideAndShiftsThem) {
  test::ExpectTensorEqual<int64_t>(Slice(0, {1, 0}, {2, 1}), Longs({0, 0, 1, 0}, {2, 2}));
  test::ExpectTensorEqual<float>(Slice(1, {1, 0}, {2, 1}), test::AsTensor<float>({2, 3}));
  test::ExpectTensorEqual<int64_t>(Slice(2, {1, 0}, {2, 1}), Longs({2, 1}, {2}));
  // Past the end: clipped; past the shape: empty.
  test::ExpectTensorEqual<int64_t>(Slice(2, {2, 1}, {5, 5}), Longs({1, 1}, {2}));
  test::ExpectTensorEqual<float>(Slice(1, {2, 1}, {5, 5}), test::AsTensor<float>({4}));
  test::ExpectTensorEqual<int64_t>(Slice(2, {4, 0}, {1, 2}), Longs({0, 2}, {2}));
  auto negative = Run1(
      [](const Scope& s, const Ins& in) {
        return ops::SparseSlice(s, in[0], in[1], in[2], in[3], in[4]).output_values;
      },
      {Longs({0, 1}, {1, 2}), test::AsTensor<float>({1}), Longs({3, 2}, {2}), Longs({-1, 0}, {2}),
       Longs({2, 2}, {2})});
  EXPECT_FALSE(negative.ok());
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        return ops::SparseSlice(s, LongConst(s, {0, 1, 1, 0, 2, 0, 2, 1}, {4, 2}), in[0],
                                LongConst(s, {3, 2}, {2}), LongConst(s, {1, 0}, {2}),
                                LongConst(s, {2, 2}, {2}))
            .output_values;
      },
      {FromDoubles(DT_DOUBLE, {4}, {1, 2, 3, 4})});
}

TEST(SparseSparseMinMax, TakeTheUnionWithZerosForMissingEntries) {
  for (bool max : {true, false}) {
    for (int which : {0, 1}) {
      auto got = Run1(
          [=](const Scope& s, const Ins& in) {
            const Output a = LongConst(s, {0, 1, 1, 0, 2, 0, 2, 1}, {4, 2});
            const Output b = LongConst(s, {0, 0, 2, 1, 1, 0}, {3, 2});  // out of order
            const Output shape = LongConst(s, {3, 2}, {2});
            if (max) {
              ops::SparseSparseMaximum m(s, a, in[0], shape, b, in[1], shape);
              return which == 0 ? m.output_indices : m.output_values;
            }
            ops::SparseSparseMinimum m(s, a, in[0], shape, b, in[1], shape);
            return which == 0 ? m.output_indices : m.output_values;
          },
          {test::AsTensor<float>({1, 2, 3, 4}), test::AsTensor<float>({5, -7, 1})});
      ASSERT_TRUE(got.ok()) << got.status();
      if (which == 0) {
        test::ExpectTensorEqual<int64_t>(*got, Longs({0, 0, 0, 1, 1, 0, 2, 0, 2, 1}, {5, 2}));
      } else {
        test::ExpectTensorEqual<float>(*got, max ? test::AsTensor<float>({5, 1, 2, 3, 4})
                                                 : test::AsTensor<float>({0, 0, 1, 0, -7}));
      }
    }
  }
}

TEST(SparseConcat, JoinsAlongADimInRowMajorOrder) {
  // [    a] (2 x 3) beside [ d e  ] (2 x 4): a at (0, 2), b (1, 0), c (1, 1); d (0, 1), e (0, 2).
  // [b c  ]              [      ]
  const auto concat = [](int64_t dim, int which, const Tensor& second_shape) {
    return Run1(
        [=](const Scope& s, const Ins& in) {
          ops::SparseConcat c(
              s, {LongConst(s, {0, 2, 1, 0, 1, 1}, {3, 2}), LongConst(s, {0, 1, 0, 2}, {2, 2})},
              {in[0], in[1]}, {LongConst(s, {2, 3}, {2}), in[2]}, dim);
          const Output outs[] = {c.output_indices, c.output_values, c.output_shape};
          return outs[which];
        },
        {test::AsTensor<float>({1, 2, 3}), test::AsTensor<float>({4, 5}), second_shape});
  };
  const Tensor wide = Longs({2, 4}, {2});
  test::ExpectTensorEqual<int64_t>(*concat(1, 0, wide),
                                   Longs({0, 2, 0, 4, 0, 5, 1, 0, 1, 1}, {5, 2}));
  test::ExpectTensorEqual<float>(*concat(-1, 1, wide), test::AsTensor<float>({1, 4, 5, 2, 3}));
  test::ExpectTensorEqual<int64_t>(*concat(1, 2, wide), Longs({2, 7}, {2}));
  // Along dim 0 the other dims must agree: 3 columns against 4.
  auto refused = concat(0, 1, wide);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("does not match input0_shape [2,3]"), std::string::npos)
      << refused.status();
  test::ExpectTensorEqual<int64_t>(*concat(0, 2, Longs({1, 3}, {2})), Longs({3, 3}, {2}));
}

const bool kMarked = [] {
  GradTestedOps().insert("SparseSoftmax");
  GradTestedOps().insert("SparseSlice");
  return true;
}();

}  // namespace sparse_slice_test
}  // namespace
}  // namespace rill::testing
