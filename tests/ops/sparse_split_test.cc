// SparseSplit: TensorFlow's pieces (the first d % n one longer), entries in the input's
// order with indices relative to their piece, any dtype, refusals, and the values'
// gradient against central differences.
#include <vector>

#include "absl/strings/match.h"
#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/sparse_tensor_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace sparse_split_test {

MarkTested tested({"SparseSplit"});

using Ins = std::vector<Output>;

Tensor Longs(const std::vector<int64_t>& v, const TensorShape& shape) {
  return test::AsTensor<int64_t>(v, shape);
}

// Every output of SparseSplit of (indices, values, shape) along `dim` in `n`, fed.
absl::StatusOr<std::vector<Tensor>> Split(int64_t dim, int64_t n, const Tensor& indices,
                                          const Tensor& values, const Tensor& shape) {
  Scope s = Scope::NewRootScope();
  auto i = ops::Placeholder(s, DT_INT64), v = ops::Placeholder(s, values.dtype()),
       d = ops::Placeholder(s, DT_INT64);
  ops::SparseSplit split(s, ops::Const(s, dim), i, v, d, n);
  RILL_RETURN_IF_ERROR(s.status());
  std::vector<Output> all;
  for (const auto* list : {&split.output_indices, &split.output_values, &split.output_shape}) {
    all.insert(all.end(), list->begin(), list->end());
  }
  Session session(s);
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session.Run({{i, indices}, {v, values}, {d, shape}}, all, &out));
  return out;
}

// TensorFlow's documented example: [2, 7] cut along columns in 2 (4 and 3 columns).
TEST(SparseSplit, CutsAsTensorFlowsExample) {
  // a (0,2), d (0,4), e (0,5), b (1,0), c (1,1), given out of row-major order.
  auto got = Split(1, 2, Longs({0, 5, 0, 2, 1, 0, 0, 4, 1, 1}, {5, 2}),
                   test::AsTensor<float>({5, 1, 2, 4, 3}), Longs({2, 7}, {2}));
  ASSERT_TRUE(got.ok()) << got.status();
  const std::vector<Tensor>& o = *got;
  test::ExpectTensorEqual<int64_t>(o[0], Longs({0, 2, 1, 0, 1, 1}, {3, 2}));
  test::ExpectTensorEqual<int64_t>(o[1], Longs({0, 1, 0, 0}, {2, 2}));
  test::ExpectTensorEqual<float>(o[2], test::AsTensor<float>({1, 2, 3}));
  test::ExpectTensorEqual<float>(o[3], test::AsTensor<float>({5, 4}));
  test::ExpectTensorEqual<int64_t>(o[4], Longs({2, 4}, {2}));
  test::ExpectTensorEqual<int64_t>(o[5], Longs({2, 3}, {2}));
}

// 5 rows in 3 pieces are 2, 2 and 1 rows (split_dim -2 is rows); int8 values and an empty
// piece keep their dtype and shapes.
TEST(SparseSplit, UnevenPiecesNegativeDimsAndEmptyPieces) {
  auto got = Split(-2, 3, Longs({4, 0, 0, 1, 3, 2}, {3, 2}), test::AsTensor<int8_t>({-7, 8, 9}),
                   Longs({5, 3}, {2}));
  ASSERT_TRUE(got.ok()) << got.status();
  const std::vector<Tensor>& o = *got;
  test::ExpectTensorEqual<int64_t>(o[0], Longs({0, 1}, {1, 2}));
  test::ExpectTensorEqual<int64_t>(o[1], Longs({1, 2}, {1, 2}));
  test::ExpectTensorEqual<int64_t>(o[2], Longs({0, 0}, {1, 2}));
  test::ExpectTensorEqual<int8_t>(o[3], test::AsTensor<int8_t>({8}));
  test::ExpectTensorEqual<int8_t>(o[4], test::AsTensor<int8_t>({9}));
  test::ExpectTensorEqual<int8_t>(o[5], test::AsTensor<int8_t>({-7}));
  for (int p = 0; p < 3; ++p) {
    test::ExpectTensorEqual<int64_t>(o[6 + p], Longs({p < 2 ? 2 : 1, 3}, {2}));
  }
  auto none = Split(0, 2, Longs({}, {0, 2}), test::AsTensor<bool>({}), Longs({4, 3}, {2}));
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ((*none)[1].shape(), TensorShape({0, 2}));
  EXPECT_EQ((*none)[3].dtype(), DT_BOOL);
  test::ExpectTensorEqual<int64_t>((*none)[5], Longs({2, 3}, {2}));
}

TEST(SparseSplit, RefusesWhatTensorFlowRefuses) {
  const Tensor indices = Longs({0, 1, 1, 2}, {2, 2}), shape = Longs({2, 3}, {2});
  const Tensor values = test::AsTensor<float>({1, 2});
  const std::vector<std::pair<std::pair<int64_t, int64_t>, const char*>> bad = {
      {{2, 1}, "split_dim 2 is out of range [-2, 2)"},
      {{-3, 1}, "split_dim -3 is out of range [-2, 2)"},
      {{1, 4}, "num_split should be between 1 and the splitting dimension size (3), got 4"}};
  for (const auto& [args, message] : bad) {
    auto got = Split(args.first, args.second, indices, values, shape);
    ASSERT_FALSE(got.ok());
    EXPECT_TRUE(absl::IsInvalidArgument(got.status())) << got.status();
    EXPECT_TRUE(absl::StrContains(got.status().message(), message)) << got.status();
  }
  auto outside = Split(0, 1, Longs({0, 1, 2, 2}, {2, 2}), values, shape);
  ASSERT_FALSE(outside.ok());
  EXPECT_TRUE(absl::StrContains(outside.status().message(), "out of bounds")) << outside.status();
}

// The values' gradient: each entry gets its piece's gradient at its place there, also when
// one piece's values are not used (no gradient flows into it).
TEST(SparseSplit, ValuesGradientMatchesNumeric) {
  const auto build = [](bool both) {
    return [both](const Scope& s, const Ins& in) -> Output {
      ops::SparseSplit split(s, ops::Const(s, int64_t{1}),
                             ops::Const(s, Longs({0, 5, 0, 2, 1, 0, 0, 4, 1, 1}, {5, 2})), in[0],
                             ops::Const(s, Longs({2, 7}, {2})), 2);
      const Output later = ops::Square(s, split.output_values[1]);
      if (!both) return later;
      return ops::Concat(s, {split.output_values[0], later}, 0);
    };
  };
  const Tensor values = FromDoubles(DT_DOUBLE, {5}, {0.5, -1, 2, 0.25, 4});
  ExpectGradientMatchesNumeric(build(true), {values});
  ExpectGradientMatchesNumeric(build(false), {values});
}

const bool kMarked = [] {
  GradTestedOps().insert("SparseSplit");
  return true;
}();

}  // namespace sparse_split_test
}  // namespace
}  // namespace rill::testing
