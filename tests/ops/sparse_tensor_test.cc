// The tf.sparse ops (ops/sparse_tensor_ops.h): values by hand for each, entries out of
// canonical order, the refusals of indices out of range, dense shapes that do not
// broadcast and integer division by zero, and gradients against central differences.
#include "gmock/gmock.h"
#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/sparse_tensor_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace sparse_tensor_test {

MarkTested tested({"SparseDenseCwiseAdd", "SparseDenseCwiseMul", "SparseDenseCwiseDiv",
                   "SparseReduceSum", "SparseReduceMax", "SparseReduceSumSparse",
                   "SparseReduceMaxSparse", "SparseAdd", "SparseAddGrad", "SparseTensorDenseAdd",
                   "SparseTensorDenseMatMul", "SparseReorder", "SparseReshape"});

using Ins = std::vector<Output>;
using I64s = std::vector<int64_t>;

Tensor Int64s(const I64s& v, const TensorShape& shape) { return test::AsTensor<int64_t>(v, shape); }

// [    1]
// [2    ]
// [3   4]
const I64s kIndices = {0, 1, 1, 0, 2, 0, 2, 1};
Output Indices(const Scope& s) {
  return ops::Const(s, Input::Initializer(Int64s(kIndices, {4, 2})));
}
Output DenseShape(const Scope& s) { return ops::Const(s, Input::Initializer(Int64s({3, 2}, {2}))); }
Tensor Values() { return test::AsTensor<float>({1, 2, 3, 4}); }

Tensor Eval(const BuildFn& build, const std::vector<Tensor>& in) {
  auto got = RunOp(build, in);
  EXPECT_TRUE(got.ok()) << got.status();
  return got.ok() ? *got : Tensor();
}

absl::Status RunStatus(const BuildFn& build, const std::vector<Tensor>& in) {
  return RunOp(build, in).status();
}

TEST(SparseDenseCwise, BroadcastsDenseToTheStoredEntries) {
  auto cwise = [](int kind) {
    return [kind](const Scope& s, const Ins& in) -> Output {
      if (kind == 0) return ops::SparseDenseCwiseAdd(s, Indices(s), in[0], DenseShape(s), in[1]);
      if (kind == 1) return ops::SparseDenseCwiseMul(s, Indices(s), in[0], DenseShape(s), in[1]);
      return ops::SparseDenseCwiseDiv(s, Indices(s), in[0], DenseShape(s), in[1]);
    };
  };
  test::ExpectTensorEqual<float>(Eval(cwise(1), {Values(), test::AsTensor<float>({0.5f, 0})}),
                                 test::AsTensor<float>({0, 1, 1.5f, 0}));
  test::ExpectTensorEqual<float>(
      Eval(cwise(2), {Values(), test::AsTensor<float>({1, 2, 4}, {3, 1})}),
      test::AsTensor<float>({1, 1, 0.75f, 1}));
  test::ExpectTensorEqual<float>(Eval(cwise(0), {Values(), test::AsTensor<float>({10}, {})}),
                                 test::AsTensor<float>({11, 12, 13, 14}));
  // Dense [2, 2] does not broadcast to [3, 2]; dense [4, 3, 2] has more dims.
  EXPECT_THAT(RunStatus(cwise(0), {Values(), Tensor(DT_FLOAT, TensorShape({2, 2}))}).message(),
              ::testing::HasSubstr("broadcasts dense to sparse only"));
  EXPECT_FALSE(RunStatus(cwise(1), {Values(), Tensor(DT_FLOAT, TensorShape({4, 3, 2}))}).ok());
}

TEST(SparseDenseCwise, RefusesIndicesOutOfRangeAndIntegerDivisionByZero) {
  const Tensor bad_indices = Int64s({0, 1, 3, 0}, {2, 2});
  auto st = RunStatus(
      [](const Scope& s, const Ins& in) {
        return ops::SparseDenseCwiseMul(s, in[0], in[1], in[2], in[3]);
      },
      {bad_indices, test::AsTensor<float>({1, 2}), Int64s({3, 2}, {2}),
       test::AsTensor<float>({1, 1})});
  EXPECT_THAT(st.message(), ::testing::HasSubstr(
                                "sp_indices[1] = [3,0] is out of bounds: need 0 <= index < [3,2]"));
  st = RunStatus(
      [](const Scope& s, const Ins& in) {
        return ops::SparseDenseCwiseDiv(s, Indices(s), in[0], DenseShape(s), in[1]);
      },
      {test::AsTensor<int32_t>({1, 2, 3, 4}), test::AsTensor<int32_t>({1, 0})});
  EXPECT_THAT(st.message(), ::testing::HasSubstr("integer division by zero"));
}

Output ReduceSum(const Scope& s, const Output& values, std::vector<int32_t> axes, bool keep) {
  return ops::SparseReduceSum(s, Indices(s), values, DenseShape(s),
                              ops::Const(s, Input::Initializer(test::AsTensor<int32_t>(axes))),
                              ops::SparseReduceSum::KeepDims(keep));
}

TEST(SparseReduce, SumsAndMaxesTheStoredEntries) {
  auto sum = [](std::vector<int32_t> axes, bool keep) {
    return [axes, keep](const Scope& s, const Ins& in) { return ReduceSum(s, in[0], axes, keep); };
  };
  test::ExpectTensorEqual<float>(Eval(sum({0}, false), {Values()}), test::AsTensor<float>({5, 5}));
  test::ExpectTensorEqual<float>(Eval(sum({1}, false), {Values()}),
                                 test::AsTensor<float>({1, 2, 7}));
  test::ExpectTensorEqual<float>(Eval(sum({-1}, true), {Values()}),
                                 test::AsTensor<float>({1, 2, 7}, {3, 1}));
  test::ExpectTensorEqual<float>(Eval(sum({0, 1}, false), {Values()}),
                                 test::AsTensor<float>({10}, {}));
  test::ExpectTensorEqual<float>(Eval(sum({}, false), {Values()}),
                                 test::AsTensor<float>({0, 1, 2, 0, 3, 4}, {3, 2}));
  // Max over the stored entries of each row; a row with none is 0, as TensorFlow's.
  const Tensor max = Eval(
      [](const Scope& s, const Ins& in) {
        return ops::SparseReduceMax(s, Indices(s), in[0],
                                    ops::Const(s, Input::Initializer(Int64s({4, 2}, {2}))),
                                    ops::Const(s, 1));
      },
      {test::AsTensor<float>({-1, -2, 3, -4})});
  test::ExpectTensorEqual<float>(max, test::AsTensor<float>({-1, -2, 3, 0}));
}

TEST(SparseReduce, SparseFormsGroupEntriesInRowMajorOrder) {
  // The entries of the usual matrix in reverse order.
  const Tensor indices = Int64s({2, 1, 2, 0, 1, 0, 0, 1}, {4, 2});
  const Tensor values = test::AsTensor<float>({4, 3, 2, 1});
  auto reduce = [&](bool max, bool keep, int which) {
    return Eval(
        [=](const Scope& s, const Ins& in) {
          auto attrs = ops::SparseReduceSumSparse::KeepDims(keep);
          const Output axes = ops::Const(s, 0);
          if (max) {
            ops::SparseReduceMaxSparse r(s, in[0], in[1], DenseShape(s), axes, attrs);
            return which == 0 ? r.output_indices : which == 1 ? r.output_values : r.output_shape;
          }
          ops::SparseReduceSumSparse r(s, in[0], in[1], DenseShape(s), axes, attrs);
          return which == 0 ? r.output_indices : which == 1 ? r.output_values : r.output_shape;
        },
        {indices, values});
  };
  test::ExpectTensorEqual<int64_t>(reduce(false, false, 0), Int64s({0, 1}, {2, 1}));
  test::ExpectTensorEqual<float>(reduce(false, false, 1), test::AsTensor<float>({5, 5}));
  test::ExpectTensorEqual<int64_t>(reduce(false, false, 2), Int64s({2}, {1}));
  test::ExpectTensorEqual<int64_t>(reduce(true, true, 0), Int64s({0, 0, 0, 1}, {2, 2}));
  test::ExpectTensorEqual<float>(reduce(true, true, 1), test::AsTensor<float>({3, 4}));
  test::ExpectTensorEqual<int64_t>(reduce(true, true, 2), Int64s({1, 2}, {2}));
}

// SparseAdd's three outputs for a (the usual matrix) plus b, both of shape [3, 2].
std::vector<Tensor> Add(const Tensor& b_indices, const Tensor& b_values, float thresh) {
  std::vector<Tensor> out;
  for (int which = 0; which < 3; ++which) {
    out.push_back(Eval(
        [which](const Scope& s, const Ins& in) {
          ops::SparseAdd sum(s, Indices(s), in[0], DenseShape(s), in[1], in[2], DenseShape(s),
                             in[3]);
          return which == 0 ? sum.sum_indices : which == 1 ? sum.sum_values : sum.sum_shape;
        },
        {Values(), b_indices, b_values, test::AsTensor<float>({thresh}, {})}));
  }
  return out;
}

TEST(SparseAdd, MergesInRowMajorOrderAndDropsSmallSums) {
  // [    1]   [5    ]   [5   1]
  // [2    ] + [    6] = [2   6]
  // [3   4]   [     ]   [3   4], b's entries given out of order.
  std::vector<Tensor> sum = Add(Int64s({1, 1, 0, 0}, {2, 2}), test::AsTensor<float>({6, 5}), 0);
  test::ExpectTensorEqual<int64_t>(sum[0], Int64s({0, 0, 0, 1, 1, 0, 1, 1, 2, 0, 2, 1}, {6, 2}));
  test::ExpectTensorEqual<float>(sum[1], test::AsTensor<float>({5, 1, 2, 6, 3, 4}));
  test::ExpectTensorEqual<int64_t>(sum[2], Int64s({3, 2}, {2}));
  // Plus its negation with one entry changed: only that sum is kept.
  sum = Add(Int64s(kIndices, {4, 2}), test::AsTensor<float>({-1, -2, -2.5f, -4}), 0.1f);
  test::ExpectTensorEqual<int64_t>(sum[0], Int64s({2, 0}, {1, 2}));
  test::ExpectTensorEqual<float>(sum[1], test::AsTensor<float>({0.5f}));
  auto st = RunStatus(
      [](const Scope& s, const Ins& in) {
        return ops::SparseAdd(s, Indices(s), in[0], DenseShape(s), Indices(s), in[0], in[1], in[2])
            .sum_values;
      },
      {Values(), Int64s({3, 3}, {2}), test::AsTensor<float>({0}, {})});
  EXPECT_THAT(st.message(),
              ::testing::HasSubstr("differ in dense shape: a_shape [3,2] vs. b_shape [3,3]"));
}

TEST(SparseAddGrad, GivesEachEntryItsShareOfTheSum) {
  // a {(0,1), (2,1)}, b {(2,1), (1,1)}, sum {(0,1), (1,1)}: (2,1) was dropped.
  const Tensor a = Int64s({0, 1, 2, 1}, {2, 2}), b = Int64s({2, 1, 1, 1}, {2, 2});
  const Tensor sum = Int64s({0, 1, 1, 1}, {2, 2});
  for (int which : {0, 1}) {
    const Tensor got = Eval(
        [which](const Scope& s, const Ins& in) {
          ops::SparseAddGrad g(s, in[0], in[1], in[2], in[3]);
          return which == 0 ? g.a_val_grad : g.b_val_grad;
        },
        {test::AsTensor<double>({10, 20}), a, b, sum});
    test::ExpectTensorEqual<double>(
        got, which == 0 ? test::AsTensor<double>({10, 0}) : test::AsTensor<double>({0, 20}));
  }
}

TEST(SparseTensorDense, AddsAndMultiplies) {
  test::ExpectTensorEqual<float>(Eval(
                                     [](const Scope& s, const Ins& in) {
                                       return ops::SparseTensorDenseAdd(s, Indices(s), in[0],
                                                                        DenseShape(s), in[1]);
                                     },
                                     {Values(), test::AsTensor<float>({1, 1, 1, 1, 1, 1}, {3, 2})}),
                                 test::AsTensor<float>({1, 2, 3, 1, 4, 5}, {3, 2}));
  // A = [[0, 1], [2, 0], [3, 4]], B = [[1, 2], [3, 4]]: A B, A^T C (C 3x2) and A B^T.
  const Tensor b = test::AsTensor<float>({1, 2, 3, 4}, {2, 2});
  auto matmul = [](bool adj_a, bool adj_b) {
    return [=](const Scope& s, const Ins& in) {
      return ops::SparseTensorDenseMatMul(
          s, ops::Cast(s, Indices(s), DT_INT32), in[0], DenseShape(s), in[1],
          ops::SparseTensorDenseMatMul::AdjointA(adj_a).AdjointB(adj_b));
    };
  };
  test::ExpectTensorEqual<float>(Eval(matmul(false, false), {Values(), b}),
                                 test::AsTensor<float>({3, 4, 2, 4, 15, 22}, {3, 2}));
  test::ExpectTensorEqual<float>(Eval(matmul(false, true), {Values(), b}),
                                 test::AsTensor<float>({2, 4, 2, 6, 11, 25}, {3, 2}));
  test::ExpectTensorEqual<float>(
      Eval(matmul(true, false), {Values(), test::AsTensor<float>({1, 2, 3, 4, 5, 6}, {3, 2})}),
      test::AsTensor<float>({21, 26, 21, 26}, {2, 2}));
  EXPECT_THAT(
      RunStatus(matmul(false, false), {Values(), Tensor(DT_FLOAT, TensorShape({3, 2}))}).message(),
      ::testing::HasSubstr("inner dimensions do not match: 2 vs. 3"));
}

TEST(SparseReorderAndReshape, SortAndMoveEntries) {
  const Tensor shuffled = Int64s({2, 1, 0, 1, 2, 0, 1, 0}, {4, 2});
  for (int which : {0, 1}) {
    const Tensor got = Eval(
        [which](const Scope& s, const Ins& in) {
          ops::SparseReorder r(s, in[0], in[1], DenseShape(s));
          return which == 0 ? r.output_indices : r.output_values;
        },
        {shuffled, test::AsTensor<bool>({true, false, true, false})});
    if (which == 0) test::ExpectTensorEqual<int64_t>(got, Int64s(kIndices, {4, 2}));
    if (which == 1)
      test::ExpectTensorEqual<bool>(got, test::AsTensor<bool>({false, false, true, true}));
  }
  auto reshape = [](const I64s& target, int which) {
    return [=](const Scope& s, const Ins&) {
      ops::SparseReshape r(
          s, Indices(s), DenseShape(s),
          ops::Const(s, Input::Initializer(Int64s(target, {static_cast<int64_t>(target.size())}))));
      return which == 0 ? r.output_indices : r.output_shape;
    };
  };
  test::ExpectTensorEqual<int64_t>(Eval(reshape({2, 3}, 0), {}),
                                   Int64s({0, 1, 0, 2, 1, 1, 1, 2}, {4, 2}));
  test::ExpectTensorEqual<int64_t>(Eval(reshape({-1}, 0), {}), Int64s({1, 2, 4, 5}, {4, 1}));
  test::ExpectTensorEqual<int64_t>(Eval(reshape({1, -1, 2}, 1), {}), Int64s({1, 3, 2}, {3}));
  EXPECT_THAT(RunStatus(reshape({4, 2}, 0), {}).message(),
              ::testing::HasSubstr("cannot reshape a sparse tensor of dense shape [3,2]"));
  // A dense shape of 2^80 elements: its count overflows int64, for a reshape and for a
  // dense reduction result alike.
  const Tensor huge = Int64s({int64_t{1} << 40, int64_t{1} << 40}, {2});
  EXPECT_THAT(RunStatus(
                  [](const Scope& s, const Ins& in) {
                    return ops::SparseReshape(s, in[0], in[1],
                                              ops::Const(s, Input::Initializer(Int64s({-1}, {1}))))
                        .output_indices;
                  },
                  {Int64s({0, 0}, {1, 2}), huge})
                  .message(),
              ::testing::HasSubstr("overflows int64"));
  EXPECT_FALSE(RunStatus(
                   [](const Scope& s, const Ins& in) {
                     return ops::SparseReduceSum(
                         s, in[0], in[1], in[2],
                         ops::Const(s, Input::Initializer(test::AsTensor<int32_t>({}))));
                   },
                   {Int64s({0, 0}, {1, 2}), test::AsTensor<float>({1}), huge})
                   .ok());
}

TEST(SparseTensorGradients, MatchNumeric) {
  const Tensor values = FromDoubles(DT_DOUBLE, {4}, {1, 2, 3, 4});
  const Tensor row = FromDoubles(DT_DOUBLE, {2}, {0.5, 2});
  const Tensor column = FromDoubles(DT_DOUBLE, {3, 1}, {1.5, -2, 4});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        return ops::SparseDenseCwiseMul(s, Indices(s), in[0], DenseShape(s), in[1]);
      },
      {values, row});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        return ops::SparseDenseCwiseDiv(s, Indices(s), in[0], DenseShape(s), in[1]);
      },
      {values, column});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        return ops::SparseDenseCwiseAdd(s, Indices(s), in[0], DenseShape(s), in[1]);
      },
      {values, FromDoubles(DT_DOUBLE, {3, 2}, {1, 2, 3, 4, 5, 6})});
  ExpectGradientMatchesNumeric(  // a scalar dense operand: every entry reads it
      [](const Scope& s, const Ins& in) {
        return ops::SparseDenseCwiseMul(s, Indices(s), in[0], DenseShape(s), in[1]);
      },
      {values, FromDoubles(DT_DOUBLE, {}, {1.5})});
  for (bool keep : {false, true}) {
    ExpectGradientMatchesNumeric(
        [keep](const Scope& s, const Ins& in) { return ReduceSum(s, in[0], {-1}, keep); },
        {values});
    ExpectGradientMatchesNumeric(
        [keep](const Scope& s, const Ins& in) {
          return ReduceSum(s, in[0], {0, 1}, keep);
        },
        {values});
  }
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        return ops::SparseAdd(s, Indices(s), in[0], DenseShape(s),
                              ops::Const(s, Input::Initializer(Int64s({2, 1, 0, 0}, {2, 2}))),
                              in[1], DenseShape(s), ops::Cast(s, ops::Const(s, 0.0), in[0].type()))
            .sum_values;
      },
      {values, FromDoubles(DT_DOUBLE, {2}, {5, 6})});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        return ops::SparseTensorDenseAdd(s, Indices(s), in[0], DenseShape(s), in[1]);
      },
      {values, FromDoubles(DT_DOUBLE, {3, 2}, {1, 2, 3, 4, 5, 6})});
  for (bool adj_a : {false, true}) {
    for (bool adj_b : {false, true}) {
      ExpectGradientMatchesNumeric(
          [=](const Scope& s, const Ins& in) {
            return ops::SparseTensorDenseMatMul(
                s, Indices(s), in[0], DenseShape(s), in[1],
                ops::SparseTensorDenseMatMul::AdjointA(adj_a).AdjointB(adj_b));
          },
          {values, adj_a ? FromDoubles(DT_DOUBLE, adj_b ? TensorShape({2, 3}) : TensorShape({3, 2}),
                                       {1, -2, 3, 0.5, 2, 1})
                         : FromDoubles(DT_DOUBLE, {2, 2}, {1, -2, 3, 0.5})});
    }
  }
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Ins& in) {
        const Output shuffled =
            ops::Const(s, Input::Initializer(Int64s({2, 1, 0, 1, 2, 0, 1, 0}, {4, 2})));
        return ops::SparseReorder(s, shuffled, in[0], DenseShape(s)).output_values;
      },
      {values});
}

const bool kMarked = [] {
  for (const char* op :
       {"SparseDenseCwiseAdd", "SparseDenseCwiseMul", "SparseDenseCwiseDiv", "SparseReduceSum",
        "SparseAdd", "SparseTensorDenseAdd", "SparseTensorDenseMatMul", "SparseReorder"}) {
    GradTestedOps().insert(op);
  }
  return true;
}();

}  // namespace sparse_tensor_test
}  // namespace
}  // namespace rill::testing
