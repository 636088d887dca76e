// The executor's per-run state, shared by its files (runtime/executor.cc runs a plan's
// nodes as they become ready; runtime/executor_graph.cc replays a recorded step). Not
// installed for users: an implementation detail of Executor.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "rill/runtime/arena.h"
#include "rill/runtime/executor.h"
#include "rill/runtime/step_graph.h"

namespace rill {

struct Executor::State {
  State(const ExecutionPlan& p, std::atomic<int64_t>* ns, ThreadPool* tp)
      : plan(p),
        compute_ns(ns),
        pool(tp),
        slots(p.num_slots),
        pending(new std::atomic<int>[p.nodes.size()]),
        uses(new std::atomic<int>[p.num_slots]) {
    if (p.has_dead_values) {
      dead_slots.reset(new char[p.num_slots]);
      dead_nodes.reset(new char[p.nodes.size()]);
    }
    Reset();
  }
  ~State() {
    if (arena != nullptr) arena->Unref();
  }

  // Ready for another run of the same plan.
  void Reset() {
    for (size_t i = 0; i < plan.nodes.size(); ++i) {
      pending[i].store(plan.nodes[i].num_predecessors, std::memory_order_relaxed);
    }
    for (int s = 0; s < plan.num_slots; ++s) {
      uses[s].store(plan.slot_uses[s], std::memory_order_relaxed);
    }
    remaining.store(static_cast<int>(plan.nodes.size() - plan.constants.size()),
                    std::memory_order_relaxed);
    failed.store(false, std::memory_order_relaxed);
    if (dead_slots != nullptr) {
      std::fill_n(dead_slots.get(), plan.num_slots, 0);
      std::fill_n(dead_nodes.get(), plan.nodes.size(), 0);
    }
    status = absl::OkStatus();
    stats = nullptr;
  }

  void Fail(absl::Status s) {
    std::lock_guard<std::mutex> lock(mu);
    if (status.ok()) status = std::move(s);
    failed.store(true, std::memory_order_release);
  }

  const ExecutionPlan& plan;
  std::atomic<int64_t>* compute_ns;  // the executor's, per plan node
  ThreadPool* pool;
  std::vector<Tensor> slots;
  std::unique_ptr<std::atomic<int>[]> pending;
  std::unique_ptr<std::atomic<int>[]> uses;
  // Plans with a Switch (runtime/deadness.cc): which slots and nodes are dead in this run.
  // A producer writes its flags before it counts its consumers down, which orders them.
  std::unique_ptr<char[]> dead_slots, dead_nodes;
  std::atomic<int> remaining{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  absl::Status status;
  StepStatsCollector* stats = nullptr;  // set for a traced step
  // Plans with async kernels (runtime/executor.cc: AsyncDone): nodes made ready by a
  // kernel finishing on another thread, for the calling thread when there is no pool.
  std::mutex inbox_mu;
  std::condition_variable inbox_cv;
  std::vector<int> inbox;
  Arena* arena = nullptr;  // one reference; the memory of a planned run
  bool recording = false;  // this run records a memory layout
  MemoryRecord record;
  // Steps recorded for replay (SessionOptions::cuda_graphs), one per memory layout.
  std::vector<std::unique_ptr<StepGraph>> graphs;
  StepGraph* capturing = nullptr;  // the step being recorded, while its body runs
};

// Dead values (runtime/deadness.cc). Whether `pn` is dead in this run, by its inputs.
bool InputsDead(const Executor::State& s, const PlanNode& pn);
// Marks `pn` and all its outputs dead (it does not run).
void MarkDead(Executor::State* s, const PlanNode& pn);
// After a Switch ran: the output it left unset is dead.
void MarkUnsetOutputsDead(Executor::State* s, const PlanNode& pn);
// A fetched slot that is dead: InvalidArgument naming the value; OK when it is not.
absl::Status CheckFetchLive(const Executor::State& s, int fetch);

// A kernel's error, led by node and device once (a kernel that names its node already is
// not prefixed twice).
absl::Status NameNodeAndDevice(const absl::Status& st, const PlanNode& pn);

// Runs one node's kernel on the calling thread; false when an async kernel will finish
// the node later. A failed run (s->failed) only does the node's bookkeeping.
bool RunNode(const std::shared_ptr<Executor::State>& owner, Executor::State* s, const PlanNode& pn);

}  // namespace rill
