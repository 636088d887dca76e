// The passes that turn one signature of a graph into an execution plan, in the order
// BuildPlan (runtime/plan.cc) runs them; docs/design.md draws them. Each pass is in its
// own file, which opens with what it does and why, and each can be run alone on a small
// graph (tests/runtime/passes_test.cc).
//   1. prune       what the fetches and targets need              prune.cc
//   2. place       a device per user node, kept for the Session   runtime/placer.cc
//   2b. copy       the plan's own graph, each node on its device  plan_copy.cc
//   3. optimize    folding, CSE, simplification, fusions          optimize.cc and its passes
//   4. partition   copies between devices, value slots            runtime/plan.cc
//   5. order, instantiate kernels (one registry lookup a node)    order.cc, runtime/plan.cc
//   5c. chain collectives (one sequence on every rank)            collective_order.cc
//   6. plan memory (after the first run with given feed shapes)    memory.cc, declared in
//      runtime/memory_plan.h (the executor runs it: it needs the recorded sizes)
#pragma once

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "rill/runtime/optimize_options.h"
#include "rill/runtime/passes/plan_graph.h"
#include "rill/runtime/placer.h"

namespace rill {

// 1. Every node the fetches and targets reach, not walking through fed nodes; an unfed
// Placeholder reached is InvalidArgument.
absl::StatusOr<std::vector<const Node*>> Prune(const std::vector<NodeOut>& fetches,
                                               const std::vector<const Node*>& targets,
                                               const absl::flat_hash_set<const Node*>& fed);

// 2b. The pruned nodes copied into a graph of the plan's own, fed nodes as Placeholders.
absl::StatusOr<PlanGraph> CopyForPlan(const std::vector<NodeOut>& feeds,
                                      const std::vector<NodeOut>& fetches,
                                      const std::vector<const Node*>& targets,
                                      const std::vector<const Node*>& pruned,
                                      const PlacementMap& placed, Device* host);

// 3. The optimizer's passes, each from one PlanGraph to the next.
// (OptimizeOptions: runtime/optimize_options.h)
absl::StatusOr<PlanGraph> FuseComposites(const PlanGraph& in);
absl::StatusOr<PlanGraph> FoldConstants(const PlanGraph& in, const OptimizeOptions& options);
absl::StatusOr<PlanGraph> EliminateCommonSubexpressions(const PlanGraph& in);
absl::StatusOr<PlanGraph> MergeLoopTwins(const PlanGraph& in);
absl::StatusOr<PlanGraph> PruneLoopVariables(const PlanGraph& in);
absl::StatusOr<PlanGraph> SimplifyArithmetic(const PlanGraph& in);
absl::StatusOr<PlanGraph> FuseBackward(const PlanGraph& in);
absl::StatusOr<PlanGraph> FuseForward(const PlanGraph& in);
absl::StatusOr<PlanGraph> FuseElementwise(const PlanGraph& in);
// Whether `n` is an op a fused elementwise program computes as one step (a floating
// dtype throughout, no ref input; a BiasAdd only where it is an Add: NHWC, a bias as long
// as the value's known last dim). Elementwise fusion and convolution epilogues share it.
bool IsFusableElementwise(const Node& n);
absl::StatusOr<PlanGraph> FuseConvEpilogues(const PlanGraph& in);
// All of them, in order (optimize.cc says why that order).
absl::StatusOr<PlanGraph> Optimize(PlanGraph in, const OptimizeOptions& options);

// 5a. A topological order, lowest id first among ready nodes.
std::vector<const Node*> Order(const std::vector<const Node*>& nodes);

// 5c. The plan's async nodes (the collectives) chained by ordering edges in node id order,
// so every rank enters its collectives in the same sequence (collective_order.cc).
struct ExecutionPlan;
void ChainCollectives(ExecutionPlan* plan);

}  // namespace rill
