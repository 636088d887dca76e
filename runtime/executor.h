// Runs an ExecutionPlan once: per-run pending counts; cheap kernels inline on the calling
// thread, expensive ones on the pool when other work is ready at the same time. The first
// error stops further kernels; it names node, op and device.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rill/runtime/memory_plan.h"
#include "rill/runtime/plan.h"
#include "rill/runtime/step_graph.h"
#include "rill/runtime/step_stats.h"
#include "rill/runtime/thread_pool.h"

namespace rill {

// Runs one plan, from any number of threads at once. It owns what runs change: a pool of
// per-run states (reused, so a steady-state run allocates no bookkeeping) and the last
// measured time of each expensive kernel; the plan itself is never written.
class Executor {
 public:
  // `plan_memory`: lay the values out in an arena (runtime/memory_plan.h); else allocate.
  // `step_graphs`: record the plan's device work once per run state and memory layout and
  // replay it (runtime/step_graph.h), where the plan qualifies and its memory is planned.
  explicit Executor(std::shared_ptr<const ExecutionPlan> plan, bool plan_memory = true,
                    bool step_graphs = false);
  ~Executor();
  const ExecutionPlan& plan() const { return *plan_; }

  // `feeds[i]` goes to plan.feed_slots[i]; fetched values are appended to `fetches`. With
  // `stats`, every node that runs is recorded there (the step is traced). Without
  // `wait_for_devices`, a step with no fetches ends with FinishStepAsync instead of Sync.
  absl::Status Run(const Tensor* const* feeds, ThreadPool* pool, std::vector<Tensor>* fetches,
                   StepStatsCollector* stats = nullptr, bool wait_for_devices = true) const;

  // What the memory planner made of the plan for the feed shapes of the latest planned run
  // (all zero before a run has recorded them).
  MemoryPlanStats memory_stats() const;
  // What graph mode made of this plan's runs.
  StepGraphStats step_graph_stats() const;

  struct State;  // opaque; public only so the implementation's helpers can name it

 private:
  std::shared_ptr<State> Acquire(ThreadPool* pool) const;
  void Release(std::shared_ptr<State> s) const;
  // Gives `s` the arena laid out for these feeds' shapes, or has it record a layout.
  void PrepareMemory(State* s, const Tensor* const* feeds) const;
  // After a successful run: a new layout from a recording run; values that did not fit.
  void LearnMemory(State* s, const Tensor* const* feeds) const;
  // Graph mode (runtime/executor_graph.cc). False: nothing ran (the plan fell back to
  // ordinary runs), run it the usual way.
  bool RunGraphed(State* s) const;
  // Records the step, launches it once; false when recording failed (the state is then
  // to be reset and the step run the usual way).
  bool Capture(State* s) const;
  void Replay(State* s, StepGraph* g) const;
  // Gives up on graph mode for this plan.
  void StopReplaying(std::string why) const;

  std::shared_ptr<const ExecutionPlan> plan_;
  mutable std::mutex free_mu_;
  mutable std::vector<std::shared_ptr<State>> free_;
  // Last measured Compute time of each expensive node (-1: not yet run). A kernel that
  // turns out cheap for the shapes it sees (a tiny MatMul) stays on the caller's thread:
  // handing it to the pool would cost more than it saves.
  std::unique_ptr<std::atomic<int64_t>[]> compute_ns_;
  // The memory plans (runtime/memory_plan.h), one per set of feed shapes seen (at most
  // kMaxLayouts), and the slots never to plan again (their values escaped a run or grew).
  static constexpr size_t kMaxLayouts = 4;
  const bool plan_memory_;
  mutable std::mutex memory_mu_;
  mutable std::vector<std::shared_ptr<const MemoryLayout>> layouts_;
  mutable std::vector<char> unplannable_;
  mutable MemoryPlanStats last_stats_;
  // Graph mode: the plan's split (null when off), and what it did.
  std::unique_ptr<const ReplayPlan> replay_;
  mutable std::atomic<bool> replay_off_{false};
  mutable std::atomic<int64_t> captures_{0}, replays_{0}, fallbacks_{0};
  mutable std::mutex replay_mu_;
  mutable std::string replay_why_not_;
};

}  // namespace rill
