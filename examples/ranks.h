// Data-parallel runs of the examples: started by `mpirun -np N`, each example joins the
// job; Keras's Fit then trains on every rank (each its part of every batch, gradients
// averaged), rank 0 alone writes to stdout, and per-rank output files get the rank's name.
#pragma once

#include <cstdio>
#include <string>

#include "rill/rill.h"

namespace rill::examples {

// dist::Init(), and on several ranks the line saying how many train; false (with the
// message) when the job cannot be joined.
inline bool JoinRanks(const char* program) {
  if (absl::Status st = dist::Init(); !st.ok()) {
    std::fprintf(stderr, "%s: %s\n", program, st.ToString().c_str());
    return false;
  }
  if (dist::Size() == 1) return true;  // a process of its own: nothing to say
  if (dist::Rank() != 0 && std::freopen("/dev/null", "w", stdout) == nullptr) return false;
  std::printf("%s: training on %d ranks (%s); --batch_size is per rank\n", program, dist::Size(),
              dist::Backend().c_str());
  return true;
}

// "trace.json" as it is on one rank, "trace.rank1.json" on rank 1 of several.
inline std::string RankPath(std::string path) {
  if (dist::Size() <= 1 || path.empty()) return path;
  const size_t dot = path.rfind('.');
  const size_t slash = path.rfind('/');
  const size_t at =
      dot == std::string::npos || (slash != std::string::npos && dot < slash) ? path.size() : dot;
  return path.insert(at, ".rank" + std::to_string(dist::Rank()));
}

// Training steps in an epoch of `rows` examples, batch_size per rank (as Fit counts them).
inline int64_t StepsPerEpoch(int64_t rows, int64_t batch_size) {
  const int64_t global = batch_size * dist::Size();
  return rows / global + (rows % global >= dist::Size() ? 1 : 0);
}

}  // namespace rill::examples
