// Pass 5c: the collectives chained in node id order, the same on every rank.
#include "rill/runtime/passes/passes.h"
#include "rill/runtime/plan.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace collective_order_test {

// The chain follows node ids (creation order), not plan order.
TEST(CollectiveOrder, ChainsAsyncNodesByNodeId) {
  Scope s = Scope::NewRootScope();
  std::vector<Node*> n;
  for (int i = 0; i < 5; ++i) n.push_back(ops::Const(s, static_cast<float>(i)).node());
  ExecutionPlan plan;
  plan.nodes.resize(5);
  // Plan order: n0, n3 (async), n1 (async), n2, n4 (async).
  const int by_plan[] = {0, 3, 1, 2, 4};
  for (int i = 0; i < 5; ++i) plan.nodes[i].node = n[by_plan[i]];
  for (int i : {1, 2, 4}) plan.nodes[i].async = true;
  plan.nodes[0].consumers = {1, 2};
  plan.nodes[1].num_predecessors = plan.nodes[2].num_predecessors = 1;
  ChainCollectives(&plan);
  // By id: n1 (plan 2), n3 (plan 1), n4 (plan 4).
  EXPECT_EQ(plan.nodes[2].consumers, std::vector<int>({1}));
  EXPECT_EQ(plan.nodes[1].consumers, std::vector<int>({4}));
  EXPECT_EQ(plan.nodes[1].num_predecessors, 2);
  EXPECT_EQ(plan.nodes[2].num_predecessors, 1);
  EXPECT_EQ(plan.nodes[4].num_predecessors, 1);
  EXPECT_EQ(plan.nodes[3].num_predecessors, 0);
}

}  // namespace collective_order_test
}  // namespace
}  // namespace rill::testing
