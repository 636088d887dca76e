// The broadcasting plan as plain data, shared with CUDA code (no other dependencies).
#pragma once

#include <cstdint>

#include "rill/core/limits.h"

namespace rill {

struct BroadcastPlan {
  int rank = 0;
  int64_t dims[kMaxTensorRank];
  int64_t a_strides[kMaxTensorRank];
  int64_t b_strides[kMaxTensorRank];
};

}  // namespace rill
