// What graph mode (SessionOptions::cuda_graphs) did in a plan's runs.
#pragma once

#include <cstdint>
#include <string>

namespace rill {

// Session::GetStepGraphStats.
struct StepGraphStats {
  bool enabled = false;   // SessionOptions::cuda_graphs
  std::string why_not;    // why the plan is not replayed ("" when it is, or may be)
  int64_t captures = 0;   // recordings made
  int64_t replays = 0;    // runs that launched a recording made earlier
  int64_t fallbacks = 0;  // recordings that failed; the plan then runs as usual for good
};

}  // namespace rill
