// _MatMulAllReduceApplyGradientDescent and the remapper rule that makes it, on one rank (the
// test binary's job of one rank, started by tests/runtime/dist_test.cc); tests/dist/ trains
// with it on 2 and 3 ranks against one process.
#include "rill/ops/collective_ops.h"
#include "rill/ops/distributed_optimizer.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace replica_update_test {

MarkTested replica_update_ops({"_MatMulAllReduceApplyGradientDescent"});

// var - alpha * op(a) op(b), in doubles, row-major.
std::vector<double> Updated(std::vector<double> var, double alpha, const Tensor& a, const Tensor& b,
                            bool ta) {
  const std::vector<double> av = ToDoubles(a), bv = ToDoubles(b);
  const int64_t k = ta ? a.dim_size(0) : a.dim_size(1), m = ta ? a.dim_size(1) : a.dim_size(0);
  const int64_t n = b.dim_size(1);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double p = 0;
      for (int64_t q = 0; q < k; ++q) p += (ta ? av[q * m + i] : av[i * k + q]) * bv[q * n + j];
      var[i * n + j] -= alpha * p;
    }
  }
  return var;
}

// One rank: the sum over the ranks is this rank's own product, so the kernel is the update.
TEST(ReplicaUpdate, OnOneRankIsTheGradientDescentStepOfTheProduct) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (int64_t k : {5, 0}) {
      Scope s = Scope::NewRootScope();
      const Tensor v0 = RandomTensor(dt, TensorShape({4, 3}), -1, 1, 11);
      const Tensor a = RandomTensor(dt, TensorShape({k, 4}), -1, 1, 12);
      const Tensor b = RandomTensor(dt, TensorShape({k, 3}), -1, 1, 13);
      Output var = ops::Variable(s.WithOpName("w"), Input::Initializer(v0));
      Operation op = ops::internal::NodeBuilder(s, "_MatMulAllReduceApplyGradientDescent")
                         .Input(var)
                         .Input(ops::Cast(s, ops::Const(s, 0.25), dt))
                         .Input(ops::Const(s, a))
                         .Input(ops::Const(s, b))
                         .Attr("transpose_a", true)
                         .Finalize();
      ASSERT_TRUE(s.ok()) << s.status();
      Session session(s);
      ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(s)}, nullptr).ok());
      std::vector<Tensor> out;
      absl::Status st = session.Run({Output(op.node(), 0)}, &out);
      ASSERT_TRUE(st.ok()) << st;
      const double tol = dt == DT_FLOAT ? 1e-5 : 1e-12;
      const std::vector<double> want = Updated(ToDoubles(v0), 0.25, a, b, true);
      ExpectTensorNear(out[0], dt, TensorShape({4, 3}), want, tol);
      ASSERT_TRUE(session.Run({var}, &out).ok());
      ExpectTensorNear(out[0], dt, TensorShape({4, 3}), want, tol);
    }
  }
}

struct Net {
  Scope s = Scope::NewRootScope();
  Output x, w, loss;
  Operation train;
};

void Build(Net* n, std::shared_ptr<ops::Optimizer> opt) {
  n->x = ops::Placeholder(n->s.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({4, 3}));
  n->w = ops::Variable(n->s.WithOpName("w"),
                       Input::Initializer(RandomTensor(DT_FLOAT, TensorShape({3, 2}), -1, 1, 5)));
  n->loss =
      ops::Mean(n->s, ops::Square(n->s, ops::MatMul(n->s, n->x, n->w)), ops::Const(n->s, {0, 1}));
  n->train = opt->Minimize(n->s, n->loss);
}

std::shared_ptr<ops::Optimizer> Distributed(bool replicas) {
  dist::DistributedOptimizerOptions o;
  o.replicated_variables = replicas;
  return std::make_shared<dist::DistributedOptimizer>(
      std::make_shared<ops::GradientDescentOptimizer>(0.1), o);
}

int PlanOps(Session& session, const Net& n, const std::string& op) {
  CallableOptions signature;
  signature.feed = {n.x};
  signature.target = {n.train};
  absl::StatusOr<GraphView> plan = session.ViewPlan(signature);
  EXPECT_TRUE(plan.ok()) << plan.status();
  int count = 0;
  for (const GraphViewNode& g : plan.ok() ? plan->nodes : std::vector<GraphViewNode>{}) {
    count += g.op == op;
  }
  return count;
}

// The weights after 3 steps, and how many fused replica updates the plan has.
std::pair<std::vector<double>, int> Train(std::shared_ptr<ops::Optimizer> opt) {
  Net n;
  Build(&n, std::move(opt));
  EXPECT_TRUE(n.s.ok()) << n.s.status();
  Session session(n.s);
  EXPECT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(n.s)}, nullptr).ok());
  for (int step = 0; step < 3; ++step) {
    const Tensor x = RandomTensor(DT_FLOAT, TensorShape({4, 3}), -1, 1, 20 + step);
    absl::Status st = session.Run({{n.x, x}}, {}, {n.train}, nullptr);
    EXPECT_TRUE(st.ok()) << st;
  }
  std::vector<Tensor> out;
  EXPECT_TRUE(session.Run({n.w}, &out).ok());
  return {ToDoubles(out[0]), PlanOps(session, n, "_MatMulAllReduceApplyGradientDescent")};
}

// With replicas, the graph optimizer fuses the weight's GEMM, sum and update into one node,
// and training is one process's; without, the sum and the update stay apart.
TEST(ReplicaUpdate, DistributedOptimizerFusesTheUpdateOfReplicasOnly) {
  const auto [want, none] = Train(std::make_shared<ops::GradientDescentOptimizer>(0.1));
  const auto [replicas, fused] = Train(Distributed(true));
  const auto [plain, unfused] = Train(Distributed(false));
  EXPECT_EQ(none, 0);
  EXPECT_EQ(fused, 1);
  EXPECT_EQ(unfused, 0);
  ASSERT_EQ(replicas.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(replicas[i], want[i], 1e-6) << i;
    EXPECT_NEAR(plain[i], want[i], 1e-6) << i;
  }
  EXPECT_GT(std::abs(want[0] - ToDoubles(RandomTensor(DT_FLOAT, TensorShape({3, 2}), -1, 1, 5))[0]),
            1e-4);  // the weights moved
}

// A sum that something else reads (here: fetched) is not absorbed; the update still is right.
TEST(ReplicaUpdate, ASumWithAnotherReaderStaysApart) {
  Net n;
  n.x = ops::Placeholder(n.s.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({4, 3}));
  n.w = ops::Variable(n.s.WithOpName("w"), Input::Initializer(FromDoubles(
                                               DT_FLOAT, TensorShape({3, 2}), {1, 2, 3, 4, 5, 6})));
  Output g = ops::MatMul(
      n.s, n.x,
      ops::Const(n.s, FromDoubles(DT_FLOAT, TensorShape({4, 2}), {1, 0, 0, 1, 1, 1, 0, 0})),
      ops::MatMul::TransposeA(true));
  Output sum = ops::internal::ReplicaGradientSum(n.s, g);
  n.train = ops::ApplyGradientDescent(n.s, n.w, ops::Const(n.s, 0.5f), sum).operation;
  ASSERT_TRUE(n.s.ok()) << n.s.status();
  Session session(n.s);
  CallableOptions signature;
  signature.feed = {n.x};
  signature.fetch = {sum};
  signature.target = {n.train};
  absl::StatusOr<GraphView> plan = session.ViewPlan(signature);
  ASSERT_TRUE(plan.ok()) << plan.status();
  for (const GraphViewNode& v : plan->nodes)
    EXPECT_NE(v.op, "_MatMulAllReduceApplyGradientDescent");
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(n.s)}, nullptr).ok());
  const Tensor x = FromDoubles(DT_FLOAT, TensorShape({4, 3}), {1, 2, 3, 0, 1, 0, 2, 0, 1, 5, 5, 5});
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({{n.x, x}}, {sum}, {n.train}, &out).ok());
  // x^T [[1,0],[0,1],[1,1],[0,0]]: column 0 sums x's rows 0 and 2, column 1 rows 1 and 2.
  ExpectTensorNear(out[0], DT_FLOAT, TensorShape({3, 2}), {3, 2, 2, 1, 4, 1}, 0);
  ASSERT_TRUE(session.Run({n.w}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, TensorShape({3, 2}), {-0.5, 1, 2, 3.5, 3, 5.5}, 0);
}

}  // namespace replica_update_test
}  // namespace
}  // namespace rill::testing
