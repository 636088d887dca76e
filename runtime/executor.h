// Runs an ExecutionPlan once: per-run pending counts; cheap kernels inline on the calling
// thread, expensive ones on the pool when other work is ready at the same time. The first
// error stops further kernels; it names node, op and device.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "rill/runtime/plan.h"
#include "rill/runtime/step_stats.h"
#include "rill/runtime/thread_pool.h"

namespace rill {

// Runs one plan, from any number of threads at once. It owns what runs change: a pool of
// per-run states (reused, so a steady-state run allocates no bookkeeping) and the last
// measured time of each expensive kernel; the plan itself is never written.
class Executor {
 public:
  explicit Executor(std::shared_ptr<const ExecutionPlan> plan);
  ~Executor();
  const ExecutionPlan& plan() const { return *plan_; }

  // `feeds[i]` goes to plan.feed_slots[i]; fetched values are appended to `fetches`. With
  // `stats`, every node that runs is recorded there (the step is traced). Without
  // `wait_for_devices`, a step with no fetches ends with FinishStepAsync instead of Sync.
  absl::Status Run(const Tensor* const* feeds, ThreadPool* pool, std::vector<Tensor>* fetches,
                   StepStatsCollector* stats = nullptr, bool wait_for_devices = true) const;

  struct State;  // opaque; public only so the implementation's helpers can name it

 private:
  std::shared_ptr<State> Acquire(ThreadPool* pool) const;
  void Release(std::shared_ptr<State> s) const;

  std::shared_ptr<const ExecutionPlan> plan_;
  mutable std::mutex free_mu_;
  mutable std::vector<std::shared_ptr<State>> free_;
  // Last measured Compute time of each expensive node (-1: not yet run). A kernel that
  // turns out cheap for the shapes it sees (a tiny MatMul) stays on the caller's thread:
  // handing it to the pool would cost more than it saves.
  std::unique_ptr<std::atomic<int64_t>[]> compute_ns_;
};

}  // namespace rill
