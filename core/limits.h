// Limits shared by host and device code (no dependencies, so nvcc can include it).
#pragma once

namespace rill {
inline constexpr int kMaxTensorRank = 8;
}  // namespace rill
