// Limits shared by host and device code (no dependencies, so nvcc can include it).
#pragma once

namespace rill {
inline constexpr int kMaxTensorRank = 8;
// A strided copy may walk twice a tensor's rank (Tile: a replica index and a position per
// input dim).
inline constexpr int kMaxCopyRank = 2 * kMaxTensorRank;
}  // namespace rill
