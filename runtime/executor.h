// Runs an ExecutionPlan once: per-run pending counts; cheap kernels inline on the calling
// thread, expensive ones on the pool when other work is ready at the same time. The first
// error stops further kernels; it names node, op and device.
#pragma once

#include <vector>

#include "rill/runtime/plan.h"
#include "rill/runtime/step_stats.h"
#include "rill/runtime/thread_pool.h"

namespace rill {

// `feeds[i]` goes to plan.feed_slots[i]; fetched values are appended to `fetches`. With
// `stats`, every node that runs is recorded there (the step is traced). Without
// `wait_for_devices`, a step with no fetches ends with FinishStepAsync instead of Sync.
absl::Status ExecutePlan(const ExecutionPlan& plan, const Tensor* const* feeds, ThreadPool* pool,
                         std::vector<Tensor>* fetches, StepStatsCollector* stats = nullptr,
                         bool wait_for_devices = true);

}  // namespace rill
