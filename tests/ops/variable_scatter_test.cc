// The variable scatters (ScatterUpdate, ScatterAdd, ScatterSub, ScatterMul, ScatterDiv,
// ScatterMin, ScatterMax, ScatterNdUpdate, ScatterNdAdd, ScatterNdSub): values by hand with
// repeated indices (TensorFlow's documented examples among them), the variable keeping its
// new value, a value read before it staying as it was, bad indices changing nothing, and
// op cases for every device.
#include <limits>

#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace variable_scatter_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv",
                   "ScatterMin", "ScatterMax", "ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"});

Output Apply(const std::string& op, const Scope& s, Output v, Output i, Output u) {
  if (op == "ScatterUpdate") return ScatterUpdate(s, v, i, u);
  if (op == "ScatterAdd") return ScatterAdd(s, v, i, u);
  if (op == "ScatterSub") return ScatterSub(s, v, i, u);
  if (op == "ScatterMul") return ScatterMul(s, v, i, u);
  if (op == "ScatterDiv") return ScatterDiv(s, v, i, u);
  if (op == "ScatterMin") return ScatterMin(s, v, i, u);
  if (op == "ScatterMax") return ScatterMax(s, v, i, u);
  if (op == "ScatterNdUpdate") return ScatterNdUpdate(s, v, i, u);
  if (op == "ScatterNdAdd") return ScatterNdAdd(s, v, i, u);
  return ScatterNdSub(s, v, i, u);
}

// in: the variable's first value, indices, updates; the case's value is the variable after.
BuildFn Scatter(const std::string& op) {
  return [op](const Scope& s, const std::vector<Output>& in) -> Output {
    Output v = Variable(s, PartialTensorShape(), in[0].type());
    Scope after =
        s.WithControlDependencies({Assign(s, v, in[0], Assign::ValidateShape(false)).operation});
    return Apply(op, after, v, in[1], in[2]);
  };
}

// Runs `op` once on a [3, 2] variable 1..6 with rows 2, 0, 2 of updates 10..60; returns
// what the op gave and what the variable then holds.
std::pair<Tensor, Tensor> RowsOnce(const std::string& op) {
  Scope root = Scope::NewRootScope();
  Output v = Variable(root, {3, 2}, DT_FLOAT);
  Output init = Assign(root, v, Const(root, test::AsTensor<float>({1, 2, 3, 4, 5, 6}, {3, 2})));
  Output out = Apply(op, root, v, Const(root, {2, 0, 2}),
                     Const(root, test::AsTensor<float>({10, 20, 30, 40, 50, 60}, {3, 2})));
  Session session(root);
  std::vector<Tensor> got, now;
  EXPECT_TRUE(session.Run({init}, &got).ok());
  EXPECT_TRUE(session.Run({out}, &got).ok());
  EXPECT_TRUE(session.Run({v}, &now).ok());
  return {got.empty() ? Tensor() : got[0], now.empty() ? Tensor() : now[0]};
}

TEST(VariableScatter, RowsCombineInIndicesOrder) {
  const std::vector<std::pair<std::string, std::vector<double>>> want = {
      {"ScatterUpdate", {30, 40, 3, 4, 50, 60}},
      {"ScatterAdd", {31, 42, 3, 4, 65, 86}},
      {"ScatterSub", {-29, -38, 3, 4, -55, -74}},
      {"ScatterMul", {30, 80, 3, 4, 2500, 7200}},
      {"ScatterDiv", {1.0 / 30, 0.05, 3, 4, 0.01, 0.005}},
      {"ScatterMin", {1, 2, 3, 4, 5, 6}},
      {"ScatterMax", {30, 40, 3, 4, 50, 60}}};
  for (const auto& [op, values] : want) {
    SCOPED_TRACE(op);
    auto [out, now] = RowsOnce(op);
    ExpectTensorNear(out, DT_FLOAT, {3, 2}, values, 1e-6);
    ExpectTensorNear(now, DT_FLOAT, {3, 2}, values, 1e-6);
  }
}

// TensorFlow's documented example: ref 1..8, indices [[4], [3], [1], [7]], updates 9..12.
TEST(VariableScatter, TensorFlowsScatterNdExamples) {
  const std::vector<std::pair<std::string, std::vector<double>>> want = {
      {"ScatterNdUpdate", {1, 11, 3, 10, 9, 6, 7, 12}},
      {"ScatterNdAdd", {1, 13, 3, 14, 14, 6, 7, 20}},
      {"ScatterNdSub", {1, -9, 3, -6, -4, 6, 7, -4}}};
  for (const auto& [op, values] : want) {
    SCOPED_TRACE(op);
    Scope root = Scope::NewRootScope();
    Output v = Variable(root, {8}, DT_INT32);
    Output init = Assign(root, v, Const(root, test::AsTensor<int32_t>({1, 2, 3, 4, 5, 6, 7, 8})));
    Output out = Apply(op, root, v, Const(root, test::AsTensor<int32_t>({4, 3, 1, 7}, {4, 1})),
                       Const(root, test::AsTensor<int32_t>({9, 10, 11, 12})));
    Session session(root);
    std::vector<Tensor> got;
    RILL_ASSERT_OK(session.Run({init}, &got));
    RILL_ASSERT_OK(session.Run({out}, &got));
    ExpectTensorNear(got[0], DT_INT32, {8}, values, 0);
  }
}

// A scalar index names one row; updates are that row. Scalar variables have no rows.
TEST(VariableScatter, AScalarIndexUpdatesOneRow) {
  Scope root = Scope::NewRootScope();
  Output v = Variable(root, {2, 3}, DT_FLOAT);
  Output init = Assign(root, v, Const(root, test::AsTensor<float>({0, 0, 0, 0, 0, 0}, {2, 3})));
  Output out = ScatterAdd(root, v, Const(root, int64_t{1}),
                          Const(root, test::AsTensor<float>({1, 2, 3}, {3})));
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({init}, &got));
  RILL_ASSERT_OK(session.Run({out}, &got));
  RILL_ASSERT_OK(session.Run({out}, &got));
  ExpectTensorNear(got[0], DT_FLOAT, {2, 3}, {0, 0, 0, 2, 4, 6}, 0);
}

// A bad index or an integer division by zero is InvalidArgument naming the node and the
// variable, and the variable is as it was; a value fetched before a scatter keeps its
// values after it.
TEST(VariableScatter, ErrorsChangeNothingAndReadersKeepTheirValues) {
  Scope root = Scope::NewRootScope();
  Output v = Variable(root.WithOpName("table"), {3}, DT_INT32);
  Output init = Assign(root, v, Const(root, test::AsTensor<int32_t>({4, 6, 8})));
  auto idx = Placeholder(root, DT_INT32);
  auto upd = Placeholder(root, DT_INT32);
  Output div = ScatterDiv(root.WithOpName("div"), v, idx, upd);
  Session session(root);
  std::vector<Tensor> before, got;
  RILL_ASSERT_OK(session.Run({init}, &got));
  RILL_ASSERT_OK(session.Run({v}, &before));
  absl::Status s =
      session.Run({{idx, test::AsTensor<int32_t>({0, 3})}, {upd, test::AsTensor<int32_t>({2, 2})}},
                  {div}, &got);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  for (const char* part : {"'div'", "table", "3"}) {
    EXPECT_NE(std::string(s.message()).find(part), std::string::npos) << part << ": " << s;
  }
  s = session.Run({{idx, test::AsTensor<int32_t>({0, 2})}, {upd, test::AsTensor<int32_t>({2, 0})}},
                  {div}, &got);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(std::string(s.message()).find("division by zero"), std::string::npos) << s;
  RILL_ASSERT_OK(session.Run({v}, &got));
  ExpectTensorNear(got[0], DT_INT32, {3}, {4, 6, 8}, 0);
  RILL_ASSERT_OK(
      session.Run({{idx, test::AsTensor<int32_t>({0, 2})}, {upd, test::AsTensor<int32_t>({2, 4})}},
                  {div}, &got));
  ExpectTensorNear(got[0], DT_INT32, {3}, {2, 6, 2}, 0);
  ExpectTensorNear(before[0], DT_INT32, {3}, {4, 6, 8}, 0);
}

// The lowest integer divided by -1 wraps (as Div's) instead of trapping.
TEST(VariableScatter, TheLowestIntegerDividedByMinusOneWraps) {
  Scope root = Scope::NewRootScope();
  Output v = Variable(root, {2}, DT_INT32);
  const int32_t lowest = std::numeric_limits<int32_t>::lowest();
  Output init = Assign(root, v, Const(root, test::AsTensor<int32_t>({lowest, 7})));
  Output out =
      ScatterDiv(root, v, Const(root, {0, 1}), Const(root, test::AsTensor<int32_t>({-1, -1})));
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({init}, &got));
  RILL_ASSERT_OK(session.Run({out}, &got));
  EXPECT_EQ(got[0].flat<int32_t>()(0), lowest);
  EXPECT_EQ(got[0].flat<int32_t>()(1), -7);
}

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  const char* rows[] = {"ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMin", "ScatterMax"};
  // 300 indices into 40 rows of a [40, 3, 5] variable: many repeats, whole [3, 5] rows.
  const Tensor idx = RandomTensor(DT_INT64, {300}, 0, 39, 90);
  for (const char* op : rows) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
      OpCase k{
          std::string(op) + " rows " + DataTypeString(dt),
          Scatter(op),
          {RandomTensor(dt, {40, 3, 5}, -9, 9, 91), idx, RandomTensor(dt, {300, 3, 5}, -9, 9, 92)}};
      k.float64_reference = false;  // the same combinations in the same order on every device
      c.push_back(k);
    }
  }
  // A scalar update, TensorFlow's one value for every element of every indexed row.
  for (const char* op : {"ScatterUpdate", "ScatterAdd", "ScatterDiv"}) {
    OpCase k{std::string(op) + " scalar update",
             Scatter(op),
             {RandomTensor(DT_FLOAT, {40, 3, 5}, 1, 9, 91), idx, test::AsScalar<float>(2.5f)}};
    k.float64_reference = false;
    c.push_back(k);
  }
  // Products and quotients of a few repeats, values away from zero.
  const Tensor few = RandomTensor(DT_INT32, {12}, 0, 5, 93);
  for (const char* op : {"ScatterMul", "ScatterDiv"}) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
      OpCase k{std::string(op) + " " + DataTypeString(dt),
               Scatter(op),
               {RandomTensor(dt, {6, 4}, 1, 9, 94), few, RandomTensor(dt, {12, 4}, 1, 3, 95)}};
      k.float64_reference = false;
      c.push_back(k);
    }
  }
  const Tensor cells = RandomTensor(DT_INT32, {50, 2}, 0, 2, 96);  // (row, col) of [3, 3]
  for (const char* op : {"ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"}) {
    OpCase k{std::string(op) + " elements",
             Scatter(op),
             {RandomTensor(DT_FLOAT, {3, 3}, -9, 9, 97), cells,
              RandomTensor(DT_FLOAT, {50}, -9, 9, 98)}};
    k.float64_reference = false;
    c.push_back(k);
  }
  return c;
}

}  // namespace variable_scatter_test
}  // namespace

RILL_OP_CASES(variable_scatter, variable_scatter_test::Cases);

}  // namespace rill::testing
