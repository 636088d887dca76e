// Cumsum and Cumprod (x, axis): the checks and geometry their shape functions and kernels
// share. The input is viewed as [outer, n, inner] around the axis.
#pragma once

#include "rill/core/kernel.h"

namespace rill {

struct ScanGeometry {
  int64_t outer = 1, n = 1, inner = 1;
};

// The kernel's exclusive and reverse attrs.
struct ScanOptions {
  bool exclusive = false, reverse = false;
};
ScanOptions ScanOptionsOf(const OpKernelConstruction& c);

// Validates x and the scalar axis (in [-rank, rank); x of rank >= 1) and allocates output 0.
absl::StatusOr<ScanGeometry> PrepareScan(OpKernelContext& ctx, Tensor** out);

}  // namespace rill
