// TensorScatterUpdate, TensorScatterAdd, TensorScatterSub, TensorScatterMin and
// TensorScatterMax (tf.tensor_scatter_nd_*): values by hand with whole slices, single
// elements and repeated tuples, the gradients against central differences, bad indices as
// Status, and op cases for every device.
#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace tensor_scatter_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub",
                   "TensorScatterMin", "TensorScatterMax"});

enum Kind { kUpdate, kAdd, kSub, kMin, kMax };

BuildFn Scatter(Kind k) {
  return [k](const Scope& s, const std::vector<Output>& in) -> Output {
    switch (k) {
      case kUpdate:
        return TensorScatterUpdate(s, in[0], in[1], in[2]);
      case kAdd:
        return TensorScatterAdd(s, in[0], in[1], in[2]);
      case kSub:
        return TensorScatterSub(s, in[0], in[1], in[2]);
      case kMin:
        return TensorScatterMin(s, in[0], in[1], in[2]);
      default:
        return TensorScatterMax(s, in[0], in[1], in[2]);
    }
  };
}

TEST(TensorScatter, CombinesEachKind) {
  // tensor [4] = 1 2 3 4; tuples 3, 1, 3 (3 twice): updates 10 20 30.
  const Tensor t = test::AsTensor<float>({1, 2, 3, 4}, {4});
  const Tensor idx = test::AsTensor<int32_t>({3, 1, 3}, {3, 1});
  const Tensor u = test::AsTensor<float>({10, 20, 30}, {3});
  const std::vector<std::pair<Kind, std::vector<float>>> want = {
      {kUpdate, {1, 20, 3, 30}},  // the last of the repeated tuples wins
      {kAdd, {1, 22, 3, 44}},
      {kSub, {1, -18, 3, -36}},
      {kMin, {1, 2, 3, 4}},
      {kMax, {1, 20, 3, 30}}};
  for (const auto& [k, w] : want) {
    auto got = RunOp(Scatter(k), {t, idx, u});
    ASSERT_TRUE(got.ok()) << got.status();
    test::ExpectTensorEqual<float>(*got, test::AsTensor<float>(w, {4}));
  }
}

TEST(TensorScatter, WholeSlicesAndOtherDtypes) {
  // [3, 2] tensor, rows 2 and 0 replaced (int64 indices).
  auto rows = RunOp(Scatter(kUpdate), {test::AsTensor<int64_t>({1, 2, 3, 4, 5, 6}, {3, 2}),
                                       test::AsTensor<int64_t>({2, 0}, {2, 1}),
                                       test::AsTensor<int64_t>({-1, -2, -3, -4}, {2, 2})});
  ASSERT_TRUE(rows.ok()) << rows.status();
  test::ExpectTensorEqual<int64_t>(*rows, test::AsTensor<int64_t>({-3, -4, 3, 4, -1, -2}, {3, 2}));
  // Single elements of a matrix by (row, column) tuples, bool.
  auto b = RunOp(Scatter(kUpdate), {test::AsTensor<bool>({false, false, false, false}, {2, 2}),
                                    test::AsTensor<int32_t>({0, 1, 1, 0}, {2, 2}),
                                    test::AsTensor<bool>({true, true}, {2})});
  ASSERT_TRUE(b.ok()) << b.status();
  test::ExpectTensorEqual<bool>(*b, test::AsTensor<bool>({false, true, true, false}, {2, 2}));
  // uint8 max; no rows at all leaves the tensor as it was.
  auto m = RunOp(Scatter(kMax),
                 {test::AsTensor<uint8_t>({5, 200}, {2}), test::AsTensor<int32_t>({1, 0}, {2, 1}),
                  test::AsTensor<uint8_t>({100, 9}, {2})});
  ASSERT_TRUE(m.ok()) << m.status();
  test::ExpectTensorEqual<uint8_t>(*m, test::AsTensor<uint8_t>({9, 200}, {2}));
  auto none = RunOp(Scatter(kAdd),
                    {test::AsTensor<double>({1.5, 2.5}, {2}), Tensor(DT_INT32, TensorShape({0, 1})),
                     Tensor(DT_DOUBLE, TensorShape({0}))});
  ASSERT_TRUE(none.ok()) << none.status();
  test::ExpectTensorEqual<double>(*none, test::AsTensor<double>({1.5, 2.5}, {2}));
}

// The scatter may update its tensor's buffer in place, but only when nothing else reads it.
TEST(TensorScatter, LeavesATensorOthersReadAlone) {
  Scope s = Scope::NewRootScope();
  auto x = Exp(s, Const(s, {0.0f, 0.0f, 0.0f}));
  auto scattered = TensorScatterAdd(s, x, Const(s, {{1}}), Const(s, {5.0f}));
  auto also = Mul(s, x, Const(s, 2.0f));
  ASSERT_TRUE(s.ok()) << s.status();
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {scattered, also, x}, &out).ok());
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({1, 6, 1}, {3}));
  test::ExpectTensorEqual<float>(out[1], test::AsTensor<float>({2, 2, 2}, {3}));
  test::ExpectTensorEqual<float>(out[2], test::AsTensor<float>({1, 1, 1}, {3}));
}

TEST(TensorScatter, BadIndicesAndShapesAreStatuses) {
  const Tensor t = test::AsTensor<float>({1, 2, 3, 4}, {4});
  auto out_of_range = RunOp(Scatter(kAdd), {t, test::AsTensor<int32_t>({1, 4}, {2, 1}),
                                            test::AsTensor<float>({1, 1}, {2})});
  EXPECT_EQ(out_of_range.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(out_of_range.status().message().find("4"), std::string::npos);
  auto negative = RunOp(Scatter(kUpdate), {t, test::AsTensor<int64_t>({-1}, {1, 1}),
                                           test::AsTensor<float>({1}, {1})});
  EXPECT_EQ(negative.status().code(), absl::StatusCode::kInvalidArgument);
  auto shape = RunOpConst(Scatter(kMin), {t, test::AsTensor<int32_t>({1, 2}, {2, 1}),
                                          test::AsTensor<float>({1, 1, 1}, {3})});
  EXPECT_EQ(shape.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TensorScatter, GradientsMatchNumeric) {
  // Add and Sub with a repeated tuple; the others with distinct ones: Min's and Max's ties
  // are not differentiable, and Update's gradient gives each of repeated tuples the whole
  // of it (TensorFlow's), where only the last one's update shows in the result.
  const Tensor idx = test::AsTensor<int32_t>({2, 0, 2}, {3, 1});
  const Tensor distinct = test::AsTensor<int32_t>({2, 0}, {2, 1});
  for (Kind k : {kUpdate, kAdd, kSub, kMin, kMax}) {
    SCOPED_TRACE(k);
    const Tensor& i = k == kAdd || k == kSub ? idx : distinct;
    const int64_t rows = i.dim_size(0);
    BuildFn f = Scatter(k);
    ExpectGradientMatchesNumeric(
        [f, i](const Scope& s, const std::vector<Output>& in) {
          return f(s, {in[0], Const(s, i), in[1]});
        },
        {DistinctTensor({4, 3}, 80), RandomTensor(DT_DOUBLE, {rows, 3}, -1, 2, 81)});
  }
}

const bool kMarked = [] {
  for (const char* op : {"TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub",
                         "TensorScatterMin", "TensorScatterMax"}) {
    GradTestedOps().insert(op);
  }
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  const char* names[] = {"TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub",
                         "TensorScatterMin", "TensorScatterMax"};
  // 300 tuples into 40 rows of a [40, 3, 5] tensor: many repeats, whole [3, 5] slices.
  const Tensor idx = RandomTensor(DT_INT64, {300, 1}, 0, 39, 82);
  const Tensor cells = RandomTensor(DT_INT32, {50, 2}, 0, 2, 83);  // (row, col) of [3, 3]
  for (int k = 0; k < 5; ++k) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
      OpCase rows{
          std::string(names[k]) + " slices " + DataTypeString(dt),
          Scatter(static_cast<Kind>(k)),
          {RandomTensor(dt, {40, 3, 5}, -9, 9, 84), idx, RandomTensor(dt, {300, 3, 5}, -9, 9, 85)}};
      rows.float64_reference = false;  // the same sums in the same order on every device
      c.push_back(rows);
    }
    OpCase elems{std::string(names[k]) + " elements",
                 Scatter(static_cast<Kind>(k)),
                 {RandomTensor(DT_FLOAT, {3, 3}, -9, 9, 86), cells,
                  RandomTensor(DT_FLOAT, {50}, -9, 9, 87)}};
    elems.float64_reference = false;
    c.push_back(elems);
  }
  return c;
}

}  // namespace tensor_scatter_test
}  // namespace

RILL_OP_CASES(tensor_scatter, tensor_scatter_test::Cases);

}  // namespace rill::testing
