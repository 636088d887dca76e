// An execution plan: the pruned, placed, optimized, ordered graph for one (feeds, fetches,
// targets) signature, with its kernels instantiated. Built once by the passes of
// runtime/passes/ (BuildPlan runs them in order), then reused by every Run with that
// signature. Immutable once built: the executor keeps its own per-run state and timings.
#pragma once

#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "rill/runtime/optimize_options.h"
#include "rill/runtime/placer.h"

namespace rill {

struct PlanNode {
  const Node* node = nullptr;  // in the plan's own graph
  Device* device = nullptr;
  std::unique_ptr<OpKernel> kernel;
  std::vector<int> input_slots;  // where each input's value lives
  std::vector<Var*> input_vars;  // per input: the variable read when this node runs, or null
  std::vector<Device*> input_var_devices;  // where that variable lives (copied if not here)
  std::vector<bool> input_is_ref;          // per input: the variable itself (updates)
  std::vector<int> consumers;              // plan nodes to notify when this one finishes
  int first_output_slot = 0;
  int num_predecessors = 0;     // data and control inputs inside the plan
  uint64_t forwardable = 0;     // bit i: input i's buffer may be reused (sole consumer)
  uint64_t unused_outputs = 0;  // bit i: output i is read by nobody (dropped once made)
  bool expensive = false;
  bool outputs_on_host = false;  // its kernel makes its outputs in host memory (Shape on a GPU)
  bool reads_variables = false;  // some input_vars entry is set
  bool async = false;            // an AsyncOpKernel (a collective): finishes on another thread
  Var* var = nullptr;            // a Variable node: its variable (updaters reach it by reference)
  // A Const on the host with no control inputs: its value is put in its slot when a run
  // starts (ExecutionPlan::constants) and the node never runs, so it costs no scheduling.
  bool preset = false;
  // Dead values (runtime/deadness.cc), in plans with a Switch: a Switch marks the output
  // its kernel left unset dead; a Merge is dead only when all its data inputs are; any other
  // node when one of its inputs or of `control_inputs` (plan nodes) is.
  bool kills_outputs = false;
  bool is_merge = false;
  std::vector<int> control_inputs;
};

struct PlanRequest {
  std::vector<NodeOut> feeds;  // in the order the caller passes feed tensors
  std::vector<NodeOut> fetches;
  std::vector<const Node*> targets;
};

struct ExecutionPlan {
  // The plan's own graph (the optimizer's output; the user's graph never changes) and the
  // _Copy nodes partitioning inserted.
  std::unique_ptr<Graph> graph;
  Graph copy_nodes;
  // Nodes that stand for others (fusions, folded constants): the user's nodes they replaced.
  absl::flat_hash_map<const Node*, std::vector<std::string>> replaces;
  std::vector<PlanNode> nodes;  // graph nodes in a topological order, then copies
  std::vector<int> roots;       // nodes with no predecessors
  int num_slots = 0;
  std::vector<int> feed_slots;          // per feed, in request order
  std::vector<const Node*> feed_nodes;  // per feed: the user's node whose value is fed
  std::vector<int> fetch_slots;         // per fetch
  std::vector<const Node*> fetch_producers;
  std::vector<Var*> fetch_vars;  // per fetch: a variable read after the run, or null
  std::vector<Device*> fetch_var_devices;
  Device* host = nullptr;             // where fetched values must end up
  std::vector<Device*> sync_devices;  // non-host devices this plan runs on
  std::vector<int> slot_uses;         // consumers per slot; a slot is released after its last
  std::vector<bool> slot_pinned;      // fetched, fed or preset: never released early
  // The preset nodes' values and slots, put in place before any node runs.
  std::vector<std::pair<int, Tensor>> constants;
  bool has_async = false;        // some node is async
  bool has_dead_values = false;  // some node is a Switch: the executor tracks dead values
};

struct PlanContext {
  const Graph* graph;
  const DeviceSet* devices;
  const PlacementOptions* placement;
  PlacementMap* placed;      // session-wide; updated
  ColocationGroups* groups;  // session-wide, beside `placed`; updated
  ResourceMgr* resources;
  KernelOptions kernel_options;
  // The graph optimizer's passes (none: SessionOptions::optimize_graph off).
  OptimizeOptions optimize;
};

// Runs the passes: prune, place, copy, optimize, partition, order and instantiate.
absl::StatusOr<std::unique_ptr<ExecutionPlan>> BuildPlan(const PlanRequest& req,
                                                         const PlanContext& ctx);

}  // namespace rill
