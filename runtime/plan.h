// An execution plan: the pruned, placed, ordered subgraph for one (feeds, fetches,
// targets) signature, with its kernels instantiated. Built once, then reused by every Run
// with that signature; the executor reads it and never changes it.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "rill/runtime/placer.h"

namespace rill {

struct PlanNode {
  const Node* node = nullptr;
  Device* device = nullptr;
  std::unique_ptr<OpKernel> kernel;
  std::vector<int> input_slots;  // where each input's value lives
  std::vector<Var*> input_vars;  // per input: the variable read when this node runs, or null
  std::vector<Device*> input_var_devices;  // where that variable lives (copied if not here)
  std::vector<bool> input_is_ref;          // per input: the variable itself (updates)
  std::vector<int> consumers;              // plan nodes to notify when this one finishes
  int first_output_slot = 0;
  int num_predecessors = 0;  // data and control inputs inside the plan
  uint64_t forwardable = 0;  // bit i: input i's buffer may be reused (sole consumer)
  bool expensive = false;
  bool outputs_on_host = false;  // its kernel makes its outputs in host memory (Shape on a GPU)
  bool reads_variables = false;  // some input_vars entry is set
};

struct PlanRequest {
  std::vector<NodeOut> feeds;  // in the order the caller passes feed tensors
  std::vector<NodeOut> fetches;
  std::vector<const Node*> targets;
};

struct ExecutionPlan {
  Graph copy_nodes;             // the _Copy nodes this plan inserted (not in the user's graph)
  std::vector<PlanNode> nodes;  // graph nodes in a topological order, then copies
  std::vector<int> roots;       // nodes with no predecessors
  int num_slots = 0;
  std::vector<int> feed_slots;  // per feed, in request order
  std::vector<const Node*> feed_nodes;
  std::vector<int> fetch_slots;  // per fetch
  std::vector<const Node*> fetch_producers;
  std::vector<Var*> fetch_vars;  // per fetch: a variable read after the run, or null
  std::vector<Device*> fetch_var_devices;
  Device* host = nullptr;             // where fetched values must end up
  std::vector<Device*> sync_devices;  // non-host devices this plan runs on

  // The executor's per-run bookkeeping, kept for reuse (see runtime/executor.cc).
  mutable std::mutex free_states_mu;
  mutable std::vector<std::shared_ptr<void>> free_states;
  std::vector<int> slot_uses;     // consumers per slot; a slot is released after its last
  std::vector<bool> slot_pinned;  // fetched or fed: never released early
  // Last measured Compute time of each expensive node (-1: not yet run). A kernel that
  // turns out cheap for the shapes it sees (a tiny MatMul) stays on the caller's thread:
  // handing it to the pool would cost more than it saves.
  mutable std::vector<std::atomic<int64_t>> compute_ns;
};

struct PlanContext {
  const Graph* graph;
  const DeviceSet* devices;
  const PlacementOptions* placement;
  PlacementMap* placed;  // session-wide; updated
  ResourceMgr* resources;
  KernelOptions kernel_options;
};

// Prunes to what the fetches and targets need, places, orders and creates kernels.
absl::StatusOr<std::unique_ptr<ExecutionPlan>> BuildPlan(const PlanRequest& req,
                                                         const PlanContext& ctx);

}  // namespace rill
