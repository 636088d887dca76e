// Seeds and per-node stream positions for random ops, shared by the CPU and GPU kernels
// so that the same seeds give the same numbers on either device.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>

#include "rill/core/variable.h"

namespace rill::random {

// Where a random node's stream has got to in this Session (one Philox block per element).
struct StreamState : ResourceBase {
  std::atomic<uint64_t> next{0};
};

inline StreamState* StreamFor(ResourceMgr* resources, const std::string& node_name) {
  return static_cast<StreamState*>(resources->LookupOrCreate(
      "random/" + node_name, [] { return std::make_unique<StreamState>(); }));
}

// The Philox key of a node; both seeds 0 means "from the clock", as in TensorFlow.
inline uint64_t KeyFromSeeds(int64_t seed, int64_t seed2) {
  if (seed == 0 && seed2 == 0) {
    std::random_device rd;
    return (uint64_t{rd()} << 32) ^ rd() ^
           static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }
  uint64_t x = static_cast<uint64_t>(seed) * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(seed2);
  x ^= x >> 31;
  return x * 0xBF58476D1CE4E5B9ull;
}

}  // namespace rill::random
