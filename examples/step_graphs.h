// --cuda_graphs for the training examples (on by default, as in Keras's ModelOptions): what
// graph mode made of Fit's steps, printed after training so a GPU run shows whether its
// steps were replayed, and if not, why. Nothing for a model on the CPU, where graph mode
// changes nothing.
#pragma once

#include <cstdio>

#include "absl/strings/match.h"
#include "rill/runtime/keras/model.h"

namespace rill::examples {

inline void PrintStepGraphs(const keras::Sequential& model) {
  bool on_gpu = false;
  for (const auto& [what, device] : model.Placements()) on_gpu |= absl::StrContains(device, "GPU");
  if (!on_gpu) return;
  absl::StatusOr<StepGraphStats> st = model.FitStepGraphStats();
  if (!st.ok()) {
    std::printf("cuda graphs: %s\n", std::string(st.status().message()).c_str());
  } else if (!st->enabled) {
    std::printf("cuda graphs: off\n");
  } else {
    std::printf("cuda graphs: %lld recorded, %lld replayed, %lld failed%s%s\n",
                static_cast<long long>(st->captures), static_cast<long long>(st->replays),
                static_cast<long long>(st->fallbacks),
                st->why_not.empty() ? "" : "; not replayed: ", st->why_not.c_str());
  }
}

}  // namespace rill::examples
