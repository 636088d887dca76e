// Step timelines from RunMetadata: Chrome trace JSON (opens in Perfetto or
// chrome://tracing) and a table of the ops that took the most time per device.
//
// In the trace, each device is a process. Its host threads are tracks holding a slice per
// node (name, op, output bytes and shapes as arguments); on a GPU a further "stream"
// track holds the device time of each node's kernels, measured with CUDA events and laid
// end to end in launch order, as one stream runs them.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "rill/runtime/step_stats.h"

namespace rill {

std::string ToChromeTrace(const StepStats& stats);
absl::Status WriteChromeTrace(const StepStats& stats, const std::string& path);

// Per device: total node time, then the `top` ops by total time (count, total, mean,
// share of the device's time).
std::string SummarizeStepStats(const StepStats& stats, int top = 10);

}  // namespace rill
