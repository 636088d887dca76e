// DynamicPartition, DynamicStitch and ParallelDynamicStitch: TensorFlow's documented
// examples, repeated and missing indices, shapes known at construction, their errors,
// gradients against central differences (a stitch's overwritten rows get none), and op
// cases for GPU parity (where they run on the host).
#include "rill/ops/data_flow_ops.h"

#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace data_flow_ops_test {

MarkTested tested({"DynamicPartition", "DynamicStitch", "ParallelDynamicStitch"});

TEST(DynamicPartition, SendsRowsToTheirPartitionsInOrder) {
  Scope s = Scope::NewRootScope();
  auto data = ops::Const(s, {{10.f, 11.f}, {20.f, 21.f}, {30.f, 31.f}, {40.f, 41.f}, {50.f, 51.f}});
  ops::DynamicPartition parts(s, data, ops::Const(s, {0, 0, 1, 1, 0}), 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].shape().DebugString(), "[?,2]");
  Session session(s);
  std::vector<Tensor> out;
  TF_ASSERT_OK(session.Run({}, parts.outputs, &out));
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({10, 11, 20, 21, 50, 51}, {3, 2}));
  test::ExpectTensorEqual<float>(out[1], test::AsTensor<float>({30, 31, 40, 41}, {2, 2}));
  EXPECT_EQ(out[2].shape().DebugString(), "[0,2]");  // no row went to partition 2
}

TEST(DynamicPartition, PartitionsOfHigherRank) {
  auto got = RunOp(
      [](const Scope& s, const auto& in) {
        return ops::DynamicPartition(s, in[0], ops::Const(s, {{1, 0}, {0, 1}}), 2)[1];
      },
      {test::AsTensor<int64_t>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2})});
  ASSERT_TRUE(got.ok()) << got.status();
  test::ExpectTensorEqual<int64_t>(*got, test::AsTensor<int64_t>({1, 2, 7, 8}, {2, 2}));
}

TEST(DynamicPartition, RefusesAPartitionOutOfRange) {
  Scope s = Scope::NewRootScope();
  auto p = ops::Placeholder(s, DT_INT32);
  ops::DynamicPartition parts(s, ops::Const(s, {1.f, 2.f, 3.f}), p, 2);
  Session session(s);
  std::vector<Tensor> out;
  const absl::Status st = session.Run({{p, test::AsTensor<int32_t>({0, 2, 1})}}, {parts[0]}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("partitions[1] = 2 is not in [0, 2)"), std::string::npos) << st;
}

// TensorFlow's documented example: three lists, indices of ranks 0, 1 and 2.
TEST(DynamicStitch, MergesRowsByIndex) {
  Scope s = Scope::NewRootScope();
  std::vector<Output> indices = {ops::Const(s, 6), ops::Const(s, {4, 1}),
                                 ops::Const(s, {{5, 2}, {0, 3}})};
  std::vector<Output> data = {
      ops::Const(s, {61.f, 62.f}), ops::Const(s, {{41.f, 42.f}, {11.f, 12.f}}),
      ops::Const(s, {{{51.f, 52.f}, {21.f, 22.f}}, {{1.f, 2.f}, {31.f, 32.f}}})};
  auto merged = ops::DynamicStitch(s, indices, data);
  EXPECT_EQ(merged.output.shape().DebugString(), "[7,2]");
  Session session(s);
  std::vector<Tensor> out;
  TF_ASSERT_OK(session.Run({}, {merged}, &out));
  test::ExpectTensorEqual<float>(
      out[0],
      test::AsTensor<float>({1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62}, {7, 2}));
}

TEST(DynamicStitch, LastRepeatWinsAndMissingRowsAreZero) {
  for (const char* op : {"DynamicStitch", "ParallelDynamicStitch"}) {
    SCOPED_TRACE(op);
    Scope s = Scope::NewRootScope();
    auto i0 = ops::Placeholder(s, DT_INT32), i1 = ops::Placeholder(s, DT_INT32);
    auto d0 = ops::Placeholder(s, DT_INT32), d1 = ops::Placeholder(s, DT_INT32);
    Output merged = std::string(op) == "DynamicStitch"
                        ? Output(ops::DynamicStitch(s, {i0, i1}, {d0, d1}))
                        : Output(ops::ParallelDynamicStitch(s, {i0, i1}, {d0, d1}));
    EXPECT_EQ(merged.shape().DebugString(), "<unknown>");
    Session session(s);
    std::vector<Tensor> out;
    TF_ASSERT_OK(session.Run({{i0, test::AsTensor<int32_t>({0, 4, 0})},
                              {i1, test::AsTensor<int32_t>({4})},
                              {d0, test::AsTensor<int32_t>({1, 2, 3})},
                              {d1, test::AsTensor<int32_t>({9})}},
                             {merged}, &out));
    test::ExpectTensorEqual<int32_t>(out[0], test::AsTensor<int32_t>({3, 0, 0, 0, 9}));
    const absl::Status bad = session.Run({{i0, test::AsTensor<int32_t>({0, -1, 0})},
                                          {i1, test::AsTensor<int32_t>({4})},
                                          {d0, test::AsTensor<int32_t>({1, 2, 3})},
                                          {d1, test::AsTensor<int32_t>({9})}},
                                         {merged}, &out);
    EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(bad.message().find("indices[0][1] is -1"), std::string::npos) << bad;
  }
}

// TensorFlow's identity: stitching the partitioned positions with the partitioned data
// gives the data back.
TEST(DynamicStitch, UndoesAPartition) {
  auto got = RunOp(
      [](const Scope& s, const auto& in) {
        auto p = ops::Const(s, {2, 0, 1, 2, 0, 0});
        ops::DynamicPartition pos(s, ops::Const(s, {0, 1, 2, 3, 4, 5}), p, 3);
        ops::DynamicPartition rows(s, in[0], p, 3);
        return ops::DynamicStitch(s, pos.outputs, rows.outputs);
      },
      {RandomTensor(DT_DOUBLE, {6, 3}, -1, 1, 1)});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_DOUBLE, {6, 3}, ToDoubles(RandomTensor(DT_DOUBLE, {6, 3}, -1, 1, 1)),
                   0);
}

TEST(DynamicStitch, ListsOfUnequalLengthAreRefused) {
  Scope s = Scope::NewRootScope();
  auto i = ops::Const(s, {0});
  auto d = ops::Const(s, {1.f});
  NodeSpec spec;
  spec.name = "stitch";
  spec.op = "DynamicStitch";
  spec.inputs = {NodeOut{i.node(), 0}, NodeOut{i.node(), 0}, NodeOut{d.node(), 0}};
  const absl::Status st = s.graph()->AddNode(spec).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("equally long"), std::string::npos) << st;
}

TEST(DataFlowGrad, MatchesNumeric) {
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        ops::DynamicPartition parts(s, in[0], ops::Const(s, {{2, 1, 0}, {1, 2, 0}}), 3);
        // One output from the three partitions: their rows summed with distinct weights.
        const DataType t = in[0].type();
        auto weight = [&](double w) { return ops::Cast(s, ops::Const(s, w), t); };
        return Output(
            ops::AddN(s, {ops::Mul(s, parts[0], weight(1)), ops::Mul(s, parts[1], weight(2)),
                          ops::Mul(s, parts[2], weight(3))}));
      },
      {RandomTensor(DT_DOUBLE, {2, 3, 2}, -1, 1, 2)});
  // Repeated indices: the overwritten rows (index 1's first and index 3's) get no gradient.
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(
            ops::Mul(s,
                     ops::DynamicStitch(s, {ops::Const(s, {1, 3, 1}), ops::Const(s, {{3}, {0}})},
                                        {in[0], in[1]}),
                     ops::Cast(s, ops::Const(s, {{1.0, -2.0}, {3.0, 0.5}, {1.5, 2.0}, {-1.0, 4.0}}),
                               in[0].type())));
      },
      {RandomTensor(DT_DOUBLE, {3, 2}, -1, 1, 3), RandomTensor(DT_DOUBLE, {2, 1, 2}, -1, 1, 4)});
}

const bool kMarked = [] {
  GradTestedOps().insert({"DynamicPartition", "DynamicStitch", "ParallelDynamicStitch"});
  return true;
}();

// Rows moved as bytes: every device must give the CPU's values exactly.
std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    const std::string t = DataTypeString(dt);
    c.push_back({"DynamicPartition " + t,
                 [](const Scope& s, const auto& in) {
                   ops::DynamicPartition parts(s, in[0], in[1], 3);
                   return ops::Concat(s, parts.outputs, 0);
                 },
                 {RandomTensor(dt, {4, 3, 2}, 0, 9, 5),
                  test::AsTensor<int32_t>({2, 0, 1, 1, 0, 2, 2, 0, 1, 0, 0, 2}, {4, 3})},
                 0,
                 false});
    c.push_back({"DynamicStitch " + t,
                 [](const Scope& s, const auto& in) {
                   return ops::DynamicStitch(s, {in[0], in[1]}, {in[2], in[3]});
                 },
                 {test::AsTensor<int32_t>({5, 0, 2}), test::AsTensor<int32_t>({1, 6, 2, 9}, {2, 2}),
                  RandomTensor(dt, {3, 4}, 0, 9, 6), RandomTensor(dt, {2, 2, 4}, 0, 9, 7)},
                 0,
                 false});
  }
  c.push_back({"ParallelDynamicStitch",
               [](const Scope& s, const auto& in) {
                 return ops::ParallelDynamicStitch(s, {in[0]}, {in[1]});
               },
               {test::AsTensor<int32_t>({3, 0, 1}), RandomTensor(DT_FLOAT, {3, 2}, -1, 1, 8)},
               0,
               false});
  return c;
}

}  // namespace data_flow_ops_test
}  // namespace

RILL_OP_CASES(data_flow, data_flow_ops_test::Cases);

}  // namespace rill::testing
