// Tile, Pack (Stack), Unpack (Unstack), Split and SplitV move elements without arithmetic,
// like the ops of strided_copy.h, but between several inputs and outputs: each is a list of
// strided copies, each from one input into one output, planned here (with the argument
// checks the CPU and GPU kernels share) and run by either device.
#pragma once

#include <vector>

#include "rill/core/strided_copy.h"

namespace rill {

struct PieceCopy {
  int input = 0;          // the source: input `input` of the node
  Tensor* out = nullptr;  // the destination: an output allocated by the Prepare
  StridedCopy copy;
};
using PieceCopies = std::vector<PieceCopy>;

// Each validates the op's inputs (and the node's attrs) and allocates or aliases every
// output; the copies left to run never have zero elements.
absl::StatusOr<PieceCopies> PrepareTile(OpKernelContext& ctx);    // (input, multiples)
absl::StatusOr<PieceCopies> PreparePack(OpKernelContext& ctx);    // (values...), axis
absl::StatusOr<PieceCopies> PrepareUnpack(OpKernelContext& ctx);  // (value), num, axis
absl::StatusOr<PieceCopies> PrepareSplit(OpKernelContext& ctx);   // (axis, value), num_split
// (value, size_splits, axis), num_split
absl::StatusOr<PieceCopies> PrepareSplitV(OpKernelContext& ctx);

}  // namespace rill
