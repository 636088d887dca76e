#include "rill/ops/distributed_optimizer.h"

#include <algorithm>

#include "rill/ops/array_ops.h"
#include "rill/ops/collective_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/piece_ops.h"
#include "rill/ops/state_ops.h"

namespace rill::dist {
namespace {

// Bytes of a gradient whose shape is known when the graph is built; -1 otherwise.
int64_t KnownBytes(const Output& g) {
  const PartialTensorShape shape = g.shape();
  if (!shape.IsFullyDefined()) return -1;
  int64_t n = 1;
  for (int64_t d : shape.dim_sizes()) n *= d;
  return n * DataTypeSize(g.type());
}

// One allreduce over the gradients at `members`: alone as it is, several flattened into
// one vector and cut back apart after.
// `replicas`: the ranks' variables are alike, so a sum reduced alone is marked for the
// graph optimizer (ops::internal::ReplicaGradientSum).
void ReduceBucket(const Scope& s, const std::vector<size_t>& members, const std::string& reduction,
                  bool replicas, std::vector<ops::GradAndVar>* grads) {
  const auto how = ops::CollectiveAllReduce::Reduction(reduction);
  if (members.size() == 1) {
    Output& g = (*grads)[members[0]].first;
    g = replicas && reduction == "sum" ? ops::internal::ReplicaGradientSum(s, g)
                                       : ops::CollectiveAllReduce(s, g, how);
    return;
  }
  std::vector<Output> flat;
  std::vector<int64_t> sizes;
  for (size_t i : members) {
    const Output& g = (*grads)[i].first;
    flat.push_back(ops::Reshape(s, g, ops::grad::IntVector(s, {-1})));
    sizes.push_back(KnownBytes(g) / DataTypeSize(g.type()));
  }
  Output joined = ops::Concat(s, flat, ops::Const(s, 0));
  Output reduced = ops::CollectiveAllReduce(s, joined, how);
  ops::SplitV parts(s, reduced, ops::grad::IntVector(s, sizes), ops::Const(s, 0),
                    static_cast<int64_t>(members.size()));
  if (!s.ok()) return;
  for (size_t k = 0; k < members.size(); ++k) {
    Output& g = (*grads)[members[k]].first;
    g = ops::Reshape(s, parts[k], ops::grad::ShapeOf(s, g));
  }
}

}  // namespace

DistributedOptimizer::DistributedOptimizer(std::shared_ptr<ops::Optimizer> optimizer,
                                           DistributedOptimizerOptions options)
    : inner_(std::move(optimizer)), options_(std::move(options)) {}

Output DistributedOptimizer::GradientSeed(const Scope& scope, const Output& loss) {
  const DataType dt = loss.type();
  if (options_.reduction != "mean" || (dt != DT_FLOAT && dt != DT_DOUBLE)) return Output();
  Scope s = scope.NewSubScope("DistributedOptimizer");
  return ops::internal::RankShare(s, ops::OnesSeed(s, loss));
}

std::vector<ops::GradAndVar> DistributedOptimizer::ReduceGradients(
    const Scope& scope, std::vector<ops::GradAndVar> grads, bool seeded) {
  if (!scope.ok() || grads.empty()) return grads;
  if (options_.reduction != "mean" && options_.reduction != "sum") {
    scope.UpdateStatus(
        errors::InvalidArgument("DistributedOptimizer: reduction must be mean or "
                                "sum, got '",
                                options_.reduction, "'"));
    return grads;
  }
  Scope s = scope.NewSubScope("DistributedOptimizer");
  // The backward pass reaches the last variables first: their buckets go first.
  std::vector<size_t> order(grads.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = grads.size() - 1 - i;
  std::vector<size_t> bucket;
  int64_t bucket_bytes = 0;
  DataType bucket_type = DT_INVALID;
  auto flush = [&] {
    if (!bucket.empty()) {
      ReduceBucket(s, bucket, seeded ? "sum" : options_.reduction, options_.replicated_variables,
                   &grads);
    }
    bucket.clear();
    bucket_bytes = 0;
  };
  const int64_t alone = options_.alone_bytes;
  for (size_t i : order) {
    const Output& g = grads[i].first;
    const int64_t bytes = KnownBytes(g);
    // Its own allreduce: a shape known only at run time, or a gradient large enough that
    // packing it would cost more than the call (reduced in place, no copies).
    const bool by_itself = bytes < 0 || (alone > 0 && bytes >= alone);
    if (by_itself || g.type() != bucket_type ||
        bucket_bytes + bytes > std::max<int64_t>(options_.bucket_bytes, 0)) {
      flush();
    }
    bucket.push_back(i);
    bucket_type = g.type();
    bucket_bytes += std::max<int64_t>(bytes, 0);
    if (by_itself) flush();
  }
  flush();
  return grads;
}

Operation BroadcastVariables(const Scope& scope, std::vector<Output> vars, int64_t root_rank) {
  if (!scope.ok()) return Operation();
  if (vars.empty()) {
    Graph* g = scope.graph();
    for (int id = 0; id < g->num_nodes(); ++id) {
      Node* n = g->node(id);
      if (n != nullptr && n->IsVariable()) vars.emplace_back(n, 0);
    }
  }
  Scope s = scope.NewSubScope("BroadcastVariables");
  std::vector<Operation> assigns;
  for (const Output& v : vars) {
    auto value = ops::CollectiveBroadcast(s, v, ops::CollectiveBroadcast::RootRank(root_rank));
    assigns.push_back(ops::Assign(s, v, value).operation);
  }
  return ops::NoOp(s.WithControlDependencies(assigns).WithOpName("done")).operation;
}

}  // namespace rill::dist
