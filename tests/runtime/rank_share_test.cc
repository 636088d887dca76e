// _RankShare and DistributedOptimizer's seed on one rank (the test binary's job of one rank,
// started by tests/runtime/dist_test.cc); tests/dist/ checks x / N on 2 and 3 ranks.
#include "gradient_checker.h"
#include "rill/ops/distributed_optimizer.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace rank_share_test {

MarkTested rank_share_ops({"_RankShare"});

TEST(RankShare, GradientMatchesNumeric) {
  const Tensor x = FromDoubles(DT_DOUBLE, TensorShape({2, 2}), {0.5, -1, 2, 0.25});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        return ops::Square(s, ops::internal::RankShare(s, in[0]));
      },
      {x});
}
const bool kGradTested = [] {
  GradTestedOps().insert("_RankShare");
  return true;
}();

std::vector<OpCase> RankShareCases() {
  std::vector<OpCase> cases;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    cases.push_back({"RankShare " + DataTypeString(dt),
                     [](auto s, auto in) { return ops::internal::RankShare(s, in[0]); },
                     {RandomTensor(dt, TensorShape({3, 5}), -2, 2, 7)}});
  }
  return cases;
}
RILL_OP_CASES(rank_share, RankShareCases);

struct Net {
  Scope s = Scope::NewRootScope();
  Output x, w, loss;
};

Net Build() {
  Net n;
  n.x = ops::Placeholder(n.s.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({4, 3}));
  n.w = ops::Variable(n.s.WithOpName("w"),
                      Input::Initializer(RandomTensor(DT_FLOAT, TensorShape({3, 2}), -1, 1, 5)));
  n.loss = ops::Mean(n.s, ops::Square(n.s, ops::MatMul(n.s, n.x, n.w)), ops::Const(n.s, {0, 1}));
  return n;
}

int CountOps(const Graph& g, const std::string& op, const std::string& reduction = "") {
  int count = 0;
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node* n = g.node(id);
    if (n == nullptr || n->type_string() != op) continue;
    if (reduction.empty() || n->attr<std::string>("reduction") == reduction) ++count;
  }
  return count;
}

// A mean over the ranks: the seed is shared out, the allreduce sums, and the plan folds
// the share into a constant, so a step runs no _RankShare. The gradient is one process's.
TEST(RankShare, DistributedOptimizerSeedsTheMeanAndTheStepRunsNoShare) {
  Net plain = Build();
  auto want = ops::GradientDescentOptimizer(0.1).ComputeGradients(plain.s, plain.loss);
  Net net = Build();
  dist::DistributedOptimizer opt(std::make_shared<ops::GradientDescentOptimizer>(0.1));
  auto got = opt.ComputeGradients(net.s, net.loss);
  ASSERT_TRUE(plain.s.ok() && net.s.ok()) << net.s.status();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(CountOps(*net.s.graph(), "_RankShare"), 1);
  EXPECT_EQ(CountOps(*net.s.graph(), "CollectiveAllReduce", "sum"), 1);
  EXPECT_EQ(CountOps(*net.s.graph(), "CollectiveAllReduce", "mean"), 0);
  const Tensor x = RandomTensor(DT_FLOAT, TensorShape({4, 3}), -1, 1, 6);
  std::vector<Tensor> a, b;
  Session ps(plain.s);
  ASSERT_TRUE(ps.Run({}, {}, {ops::GlobalVariablesInitializer(plain.s)}, nullptr).ok());
  ASSERT_TRUE(ps.Run({{plain.x, x}}, {want[0].first}, &a).ok());
  for (bool optimize : {true, false}) {
    SessionOptions options;
    options.optimize_graph = optimize;
    Session session(net.s, options);
    ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(net.s)}, nullptr).ok());
    RunOptions traced;
    traced.trace_level = RunOptions::FULL_TRACE;
    RunMetadata meta;
    absl::Status st = session.Run(traced, {{net.x, x}}, {got[0].first}, {}, &b, &meta);
    ASSERT_TRUE(st.ok()) << st;
    ExpectTensorNear(b[0], DT_FLOAT, TensorShape({3, 2}), ToDoubles(a[0]), 0);
    int shares = 0;
    for (const NodeExecStats& n : meta.step_stats.nodes) shares += n.op == "_RankShare";
    EXPECT_EQ(shares, optimize ? 0 : 1) << (optimize ? "folded" : "unoptimized");
  }
}

// A sum keeps the seed of ones.
TEST(RankShare, ASumKeepsTheSeedOfOnes) {
  Net net = Build();
  dist::DistributedOptimizerOptions sum;
  sum.reduction = "sum";
  dist::DistributedOptimizer opt(std::make_shared<ops::GradientDescentOptimizer>(0.1), sum);
  opt.ComputeGradients(net.s, net.loss);
  ASSERT_TRUE(net.s.ok()) << net.s.status();
  EXPECT_EQ(CountOps(*net.s.graph(), "_RankShare"), 0);
  EXPECT_EQ(CountOps(*net.s.graph(), "CollectiveAllReduce", "sum"), 1);
}

}  // namespace rank_share_test
}  // namespace
}  // namespace rill::testing
