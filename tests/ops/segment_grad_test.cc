// The segment reductions' gradients against central differences (distinct values, so no
// max ties), with input shapes known at construction and unknown; and by hand where
// differences cannot reach: a product's zeros and a max's ties.
#include "gradient_checker.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/segment_ops.h"

namespace rill::testing {
namespace {
namespace segment_grad_test {

using namespace ::rill::ops;  // NOLINT
using Xs = std::vector<Output>;

Tensor Vals(const TensorShape& shape, uint32_t seed) {
  return RandomTensor(DT_DOUBLE, shape, 0.2, 1.2, seed);
}
Output Ints(const Scope& s, std::vector<int32_t> v) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.base<int32_t>()[i] = v[i];
  return Const(s, t);
}

struct Case {
  std::string op;
  GradBuildFn build;
  std::vector<Tensor> inputs;
};

// ids with a gap (segment 1 empty) and repeats.
const std::vector<int32_t> kSorted = {0, 0, 2, 2, 2, 3};

std::vector<Case> Cases() {
  return {
      {"SegmentSum",
       [](const Scope& s, const Xs& in) { return Output(SegmentSum(s, in[0], Ints(s, kSorted))); },
       {Vals({6, 2}, 1)}},
      {"SegmentMean",
       [](const Scope& s, const Xs& in) { return Output(SegmentMean(s, in[0], Ints(s, kSorted))); },
       {Vals({6, 2}, 2)}},
      {"SegmentProd",
       [](const Scope& s, const Xs& in) { return Output(SegmentProd(s, in[0], Ints(s, kSorted))); },
       {Vals({6, 2}, 3)}},
      {"SegmentMax",
       [](const Scope& s, const Xs& in) { return Output(SegmentMax(s, in[0], Ints(s, kSorted))); },
       {Vals({6, 2}, 4)}},
      {"SegmentMin",
       [](const Scope& s, const Xs& in) { return Output(SegmentMin(s, in[0], Ints(s, kSorted))); },
       {Vals({6, 2}, 5)}},
      // A negative id drops its row: its gradient is zero.
      {"UnsortedSegmentProd",
       [](const Scope& s, const Xs& in) {
         return Output(UnsortedSegmentProd(s, in[0], Ints(s, {2, -1, 0, 2, 0}), Const(s, 4)));
       },
       {Vals({5, 3}, 6)}},
      {"UnsortedSegmentMax",
       [](const Scope& s, const Xs& in) {
         return Output(UnsortedSegmentMax(s, in[0], Ints(s, {2, -1, 0, 2, 0}), Const(s, 3)));
       },
       {Vals({5, 3}, 7)}},
      // ids of two dims over data [2, 2, 2].
      {"UnsortedSegmentMin",
       [](const Scope& s, const Xs& in) {
         Tensor ids = FromDoubles(DT_INT64, {2, 2}, {1, 0, 1, -1});
         return Output(UnsortedSegmentMin(s, in[0], Const(s, ids), Const(s, int64_t{3})));
       },
       {Vals({2, 2, 2}, 8)}},
      {"SparseSegmentSum",
       [](const Scope& s, const Xs& in) {
         return Output(SparseSegmentSum(s, in[0], Ints(s, {2, 0, 2, 1}), Ints(s, {0, 0, 1, 3})));
       },
       {Vals({3, 2}, 9)}},
      {"SparseSegmentMean",
       [](const Scope& s, const Xs& in) {
         return Output(SparseSegmentMean(s, in[0], Ints(s, {2, 0, 2, 1}), Ints(s, {0, 0, 1, 3})));
       },
       {Vals({3, 2}, 10)}},
      {"SparseSegmentSqrtN",
       [](const Scope& s, const Xs& in) {
         return Output(SparseSegmentSqrtN(s, in[0], Ints(s, {2, 0, 2, 1}), Ints(s, {0, 0, 0, 3})));
       },
       {Vals({3, 2}, 11)}},
      {"SparseSegmentSumWithNumSegments",
       [](const Scope& s, const Xs& in) {
         return Output(SparseSegmentSumWithNumSegments(s, in[0], Ints(s, {1, 1}), Ints(s, {0, 2}),
                                                       Const(s, 5)));
       },
       {Vals({3, 2}, 12)}},
      {"SparseSegmentMeanWithNumSegments",
       [](const Scope& s, const Xs& in) {
         return Output(SparseSegmentMeanWithNumSegments(s, in[0], Ints(s, {0, 1, 2}),
                                                        Ints(s, {1, 1, 2}), Const(s, 4)));
       },
       {Vals({3, 2}, 13)}},
      {"SparseSegmentSqrtNWithNumSegments",
       [](const Scope& s, const Xs& in) {
         return Output(SparseSegmentSqrtNWithNumSegments(s, in[0], Ints(s, {0, 1, 2}),
                                                         Ints(s, {1, 1, 2}), Const(s, 4)));
       },
       {Vals({3, 2}, 14)}},
  };
}

class SegmentGradient : public ::testing::TestWithParam<int> {};

TEST_P(SegmentGradient, SymbolicMatchesNumeric) {
  static const std::vector<Case> cases = Cases();
  const Case& c = cases[GetParam()];
  SCOPED_TRACE(c.op);
  ExpectGradientMatchesNumeric(c.build, c.inputs);
}
INSTANTIATE_TEST_SUITE_P(Segments, SegmentGradient,
                         ::testing::Range(0, static_cast<int>(Cases().size())));

const bool kMarked = [] {
  for (const Case& c : Cases()) GradTestedOps().insert(c.op);
  return true;
}();

// d(sum of the op's output)/d(data), by symbolic differentiation.
absl::StatusOr<Tensor> GradOfSum(const std::function<Output(const Scope&, Output)>& op,
                                 const Tensor& data) {
  return RunOp(
      [&](const Scope& s, const Xs& in) {
        std::vector<Output> grads;
        EXPECT_TRUE(AddSymbolicGradients(s, {op(s, in[0])}, {in[0]}, &grads).ok());
        return grads.empty() ? Output() : grads[0];
      },
      {data});
}

// Segment 0 holds one zero: only the zero gets a gradient, the product of the others.
// Segment 1 holds two: nothing. Segment 2: 1. (Sorted and unsorted alike.)
TEST(SegmentGradientByHand, AProductsZeros) {
  const Tensor data = FromDoubles(DT_DOUBLE, {6}, {0, 2, 3, 0, 0, 5});
  auto sorted = GradOfSum(
      [](const Scope& s, Output x) {
        return SegmentProd(s, x, Ints(s, {0, 0, 0, 1, 1, 2}));
      },
      data);
  ASSERT_TRUE(sorted.ok()) << sorted.status();
  ExpectTensorNear(*sorted, DT_DOUBLE, {6}, {6, 0, 0, 0, 0, 1}, 0);
  auto unsorted = GradOfSum(
      [](const Scope& s, Output x) {
        return UnsortedSegmentProd(s, x, Ints(s, {1, 0, 0, 1, -1, 0}), Const(s, 2));
      },
      data);
  ASSERT_TRUE(unsorted.ok()) << unsorted.status();
  // Segment 0 = {2, 3, 5}: 15, 10, 6; segment 1 = {0, 0}: nothing; row 4 dropped.
  ExpectTensorNear(*unsorted, DT_DOUBLE, {6}, {0, 15, 10, 0, 0, 6}, 0);
}

// Rows tied at a segment's max share its gradient evenly.
TEST(SegmentGradientByHand, TiesShareAMax) {
  auto got = GradOfSum(
      [](const Scope& s, Output x) {
        return SegmentMax(s, x, Ints(s, {0, 0, 0, 1}));
      },
      FromDoubles(DT_DOUBLE, {4}, {3, 3, 1, 2}));
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_DOUBLE, {4}, {0.5, 0.5, 0, 1}, 0);
}

}  // namespace segment_grad_test
}  // namespace
}  // namespace rill::testing
