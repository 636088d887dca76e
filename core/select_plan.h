// Select(condition, t, e) and SelectV2: out[i] = condition[ci] ? t[ti] : e[ei], planned as
// one walk over the output with a stride per operand (0 along a broadcast dim), shared by
// the CPU and GPU kernels; plain data so CUDA code can take it.
#pragma once

#include <cstdint>

#include "rill/core/limits.h"

namespace rill {

struct SelectPlan {
  int rank = 0;
  int64_t dims[kMaxTensorRank] = {};
  int64_t cond[kMaxTensorRank] = {}, t[kMaxTensorRank] = {}, e[kMaxTensorRank] = {};
  bool same_shapes = false;  // all three of the output's shape: index i everywhere
};

}  // namespace rill
