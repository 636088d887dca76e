// Pass 5c, chain collectives: the plan's async nodes (the collectives of runtime/dist/) in
// one sequence, the same on every rank.
//
// A collective is a meeting: every rank must enter the same collectives in the same order,
// or MPI matches one rank's allreduce with another's broadcast (or the data of one gradient
// bucket with another's). The executor runs ready nodes in whatever order threads reach
// them, which differs between ranks; and the engine runs its queue in submission order. So
// the plan fixes the order: each async node gets an ordering edge to the next one by node
// id. Every rank builds the same graph and runs the same passes, so ids, and the chain, are
// the same on every rank, and no negotiation round between ranks is needed (Horovod needs
// one because its ops may become ready in any order). A node's inputs always have lower ids
// than the node (a graph only appends nodes whose inputs exist), so the chain adds no cycle.
// Id order is creation order: DistributedOptimizer makes its buckets in the order the
// backward pass produces their gradients (the last layer's first), so each bucket's
// allreduce can start as soon as its gradients exist while the rest of the backward pass
// runs (plan order would not do: it may place a later layer's gradient first).
#include <algorithm>
#include <vector>

#include "rill/runtime/passes/passes.h"
#include "rill/runtime/plan.h"

namespace rill {

void ChainCollectives(ExecutionPlan* plan) {
  std::vector<int> async;
  for (size_t i = 0; i < plan->nodes.size(); ++i) {
    if (plan->nodes[i].async) async.push_back(static_cast<int>(i));
  }
  std::sort(async.begin(), async.end(),
            [&](int a, int b) { return plan->nodes[a].node->id() < plan->nodes[b].node->id(); });
  for (size_t k = 1; k < async.size(); ++k) {
    plan->nodes[async[k - 1]].consumers.push_back(async[k]);
    ++plan->nodes[async[k]].num_predecessors;
  }
}

}  // namespace rill
