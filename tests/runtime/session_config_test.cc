// TensorFlow's ConfigProto on SessionOptions::config: the optimizer's passes turned off one
// by one, device counts, placement and thread fields (runtime/session_config.h).
#include <set>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace session_config_test {

// A graph with work for every pass: constants to fold, x * 1 to simplify, two equal Negs
// to merge, and MatMul + BiasAdd + Relu to fuse.
struct Net {
  Scope s = Scope::NewRootScope();
  Output x, y;
};

Net BuildNet() {
  Net n;
  Scope& s = n.s;
  n.x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({2, 2}));
  auto w = ops::Add(s, ops::Const(s, {{1.f, 2.f}, {3.f, 4.f}}), ops::Const(s, 1.f));
  auto dense = ops::Relu(s, ops::BiasAdd(s, ops::MatMul(s, n.x, w), ops::Const(s, {0.5f, -9.f})));
  auto same = ops::Add(s, ops::Neg(s, n.x), ops::Neg(s, n.x));
  n.y = ops::Add(s, ops::Mul(s, dense, ops::Const(s, 1.f)), same);
  return n;
}

struct Planned {
  std::multiset<std::string> ops;
  Tensor y;
};

Planned Plan(const Net& n, const SessionOptions& options) {
  Session session(n.s, options);
  CallableOptions signature;
  signature.feed = {n.x};
  signature.fetch = {n.y};
  Planned p{PlanOps(session, signature), Tensor()};
  std::vector<Tensor> out;
  EXPECT_TRUE(session.Run({{n.x, {{1.f, -1.f}, {2.f, 0.5f}}}}, {n.y}, &out).ok());
  if (!out.empty()) p.y = out[0];
  return p;
}

TEST(SessionConfig, EachRewriteTurnsOffItsPass) {
  const Net n = BuildNet();
  ASSERT_TRUE(n.s.ok()) << n.s.status();
  const Planned all = Plan(n, SessionOptions());
  EXPECT_EQ(all.ops.count("MatMul"), 0u);  // fused
  EXPECT_EQ(all.ops.count("Neg"), 0u) << "merged and fused";
  // y = relu(x w' + b) - 2x, w' = w + 1 = [[2, 3], [4, 5]].
  ExpectTensorNear(all.y, DT_FLOAT, {2, 2}, {-2, 2, 2.5f, -1}, 1e-6);

  SessionOptions no_fold;
  no_fold.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  no_fold.config.mutable_graph_options()->mutable_rewrite_options()->set_constant_folding(
      RewriterConfig::OFF);
  Planned p = Plan(n, no_fold);
  // The Add of two constants stays, beside the graph's three others.
  EXPECT_EQ(p.ops.count("Add") + p.ops.count("_FusedElementwise"),
            all.ops.count("Add") + all.ops.count("_FusedElementwise") + 1);
  ExpectTensorNear(p.y, DT_FLOAT, {2, 2}, {-2, 2, 2.5f, -1}, 1e-6);

  SessionOptions no_remap;
  no_remap.config.mutable_graph_options()->mutable_rewrite_options()->set_remapping(
      RewriterConfig::OFF);
  p = Plan(n, no_remap);
  EXPECT_EQ(p.ops.count("MatMul"), 1u);
  EXPECT_EQ(p.ops.count("BiasAdd"), 1u);
  EXPECT_EQ(p.ops.count("Relu"), 1u);
  EXPECT_EQ(p.ops.count("Neg"), 1u) << "merged, not fused";
  EXPECT_EQ(p.ops.count("Mul"), 0u) << "x * 1 simplified";
  ExpectTensorNear(p.y, DT_FLOAT, {2, 2}, {-2, 2, 2.5f, -1}, 1e-6);

  SessionOptions no_arith = no_remap;
  no_arith.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  RewriterConfig* r = no_arith.config.mutable_graph_options()->mutable_rewrite_options();
  r->set_arithmetic_optimization(RewriterConfig::OFF);
  r->set_common_subgraph_elimination(RewriterConfig::OFF);
  p = Plan(n, no_arith);
  EXPECT_EQ(p.ops.count("Neg"), 2u);
  EXPECT_EQ(p.ops.count("Mul"), 1u);
  // L0 asks for CSE by name: the Negs merge again.
  no_arith.config.mutable_graph_options()
      ->mutable_optimizer_options()
      ->set_do_common_subexpression_elimination(true);
  EXPECT_EQ(Plan(n, no_arith).ops.count("Neg"), 1u);

  SessionOptions none;
  none.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  none.config.mutable_graph_options()->mutable_rewrite_options()->set_disable_meta_optimizer(true);
  SessionOptions plain;
  plain.optimize_graph = false;
  p = Plan(n, none);
  EXPECT_EQ(p.ops, Plan(n, plain).ops);
  ExpectTensorNear(p.y, DT_FLOAT, {2, 2}, {-2, 2, 2.5f, -1}, 1e-6);
}

TEST(SessionConfig, DeviceCountLeavesGpusOut) {
  Scope s = Scope::NewRootScope();
  SessionOptions options;
  (*options.config.mutable_device_count())["GPU"] = 0;
  Session session(s, options);
  std::vector<DeviceAttributes> devices;
  TF_ASSERT_OK(session.ListDevices(&devices));
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].device_type(), "CPU");
  EXPECT_EQ(devices[0].name(), "/job:localhost/replica:0/task:0/device:CPU:0");
  // One GPU at most: all of this machine's up to one.
  (*options.config.mutable_device_count())["GPU"] = 1;
  Session one(s, options);
  TF_ASSERT_OK(one.ListDevices(&devices));
  EXPECT_EQ(devices.size(), HaveGpu() ? 2u : 1u);
  EXPECT_EQ(Session(s).ListDevices().size() >= devices.size(), true);
}

TEST(SessionConfig, PlacementAndThreadFieldsWinOverTheOptionsOwn) {
  Scope s = Scope::NewRootScope();
  auto y = ops::Neg(s.WithDevice("/GPU:7"), ops::Const(s, 2.f));
  std::vector<Tensor> out;
  TF_ASSERT_OK(Session(s).Run({y}, &out));  // rill's default: soft placement
  EXPECT_EQ(out[0].scalar<float>()(), -2.f);
  SessionOptions hard;
  hard.config.set_allow_soft_placement(false);
  absl::Status st = Session(s, hard).Run({y}, &out);
  EXPECT_TRUE(errors::IsInvalidArgument(st)) << st;
  EXPECT_NE(st.message().find("GPU:7"), std::string::npos) << st;

  // A pool of two; then none at all (negative: every kernel on the caller's thread, as
  // TensorFlow's), a graph with two MatMuls that would otherwise go to the pool.
  auto big = ops::Const(s, RandomTensor(DT_FLOAT, {64, 64}, -1, 1, 3));
  auto prod = ops::Add(s, ops::MatMul(s, big, big), ops::MatMul(s, big, big));
  std::vector<Tensor> pooled;
  for (int n : {2, -1}) {
    SessionOptions threads;
    threads.config.set_inter_op_parallelism_threads(n);
    Session session(s, threads);
    TF_ASSERT_OK(session.status());
    TF_ASSERT_OK(session.Run({y, prod}, &out));
    EXPECT_EQ(out[0].scalar<float>()(), -2.f);
    if (n == 2) pooled = out;
    if (n == -1) test::ExpectTensorNear<float>(out[1], pooled[1], 1e-5);
  }
}

}  // namespace session_config_test
}  // namespace
}  // namespace rill::testing
