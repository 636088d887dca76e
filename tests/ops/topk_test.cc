// TopKV2: values and indices by hand (ties by lower index, NaN first), every dtype; op
// cases on every device; its gradient against central differences.
#include <cmath>

#include "gradient_checker.h"
#include "rill/ops/topk_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace topk_test {

MarkTested tested({"TopKV2"});

using Xs = std::vector<Output>;

// Runs TopK and returns (values, indices).
std::pair<Tensor, Tensor> RunTopK(const Tensor& x, int k) {
  Tensor values, indices;
  for (int which : {0, 1}) {
    auto got = RunOp(
        [which](const Scope& s, const auto& in) {
          ops::TopK t(s, in[0], in[1]);
          return which == 0 ? t.values : t.indices;
        },
        {x, FromDoubles(DT_INT32, {}, {static_cast<double>(k)})});
    EXPECT_TRUE(got.ok()) << got.status();
    if (got.ok()) (which == 0 ? values : indices) = *got;
  }
  return {values, indices};
}

TEST(TopK, LargestFirstTiesByIndex) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor x = FromDoubles(dt, {2, 5}, {3, 1, 4, 1, 5, 9, 2, 6, 5, 6});
    auto [v, i] = RunTopK(x, 3);
    ExpectTensorNear(v, dt, {2, 3}, {5, 4, 3, 9, 6, 6}, 0);
    ExpectTensorNear(i, DT_INT32, {2, 3}, {4, 2, 0, 0, 2, 4}, 0);
    auto [v0, i0] = RunTopK(x, 0);
    ExpectTensorNear(v0, dt, {2, 0}, {}, 0);
    auto [all, order] = RunTopK(x, 5);  // ties: 1 at 1 before 1 at 3
    ExpectTensorNear(order, DT_INT32, {2, 5}, {4, 2, 0, 1, 3, 0, 2, 4, 3, 1}, 0);
  }
  // NaN above every number; rank 3.
  auto [v, i] = RunTopK(FromDoubles(DT_FLOAT, {1, 2, 3}, {1, NAN, 2, -INFINITY, 0, -1}), 2);
  ExpectTensorNear(v, DT_FLOAT, {1, 2, 2}, {NAN, 2, 0, -1}, 0);
  ExpectTensorNear(i, DT_INT32, {1, 2, 2}, {1, 2, 1, 2}, 0);
  // k past the row, a negative k: refused.
  for (double k : {6.0, -1.0}) {
    EXPECT_FALSE(
        RunOp([](const Scope& s, const auto& in) { return ops::TopK(s, in[0], in[1]).values; },
              {FromDoubles(DT_FLOAT, {5}, {1, 2, 3, 4, 5}), FromDoubles(DT_INT32, {}, {k})})
            .ok());
  }
}

std::vector<OpCase> TopKs() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
    for (int which : {0, 1}) {
      // Integers in a small range: many ties, ordered by index on both devices.
      c.push_back({"TopKV2 " + DataTypeString(dt) + (which ? " indices" : " values"),
                   [which](const Scope& s, const auto& in) {
                     ops::TopK t(s, in[0], ops::Const(s, 7));
                     return which == 0 ? t.values : t.indices;
                   },
                   {RandomTensor(dt, {40, 3, 50}, 0, 20, 100)},
                   0,
                   false});
    }
  }
  return c;
}

TEST(TopK, GradientMatchesNumeric) {
  // Distinct values, so the picks do not change under the numeric step.
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[i] = (i * 7 % 24) * 0.1;
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Xs& in) { return ops::TopK(s, in[0], ops::Const(s, 3)).values; },
      {FromDoubles(DT_DOUBLE, {2, 3, 4}, v)});
}

const bool kMarked = [] {
  GradTestedOps().insert("TopKV2");
  return true;
}();

}  // namespace topk_test
}  // namespace

RILL_OP_CASES(topk, topk_test::TopKs);

}  // namespace rill::testing
