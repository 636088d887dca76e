// Tile, Pack (Stack), Unpack (Unstack), Split and SplitV move elements without arithmetic,
// like the ops of strided_copy.h, but between several inputs and outputs: each is a list of
// strided copies, each from one input into one output, planned here (with the argument
// checks the CPU and GPU kernels share) and run by either device.
#pragma once

#include <vector>

#include "rill/core/shape_util.h"
#include "rill/core/strided_copy.h"

namespace rill {

struct PieceCopy {
  // An `input` of kZeroFill zero-fills all of `out` instead of copying (Diag's and
  // SpaceToBatchND's outputs: the elements no later copy writes stay 0).
  static constexpr int kZeroFill = -1;
  int input = 0;          // the source: input `input` of the node
  Tensor* out = nullptr;  // the destination: an output allocated by the Prepare
  StridedCopy copy;
};
using PieceCopies = std::vector<PieceCopy>;

// For the Prepare functions that plan copies (here and rearrange_copy.h).
shape_util::Dims RowMajorStrides(absl::Span<const int64_t> dims);
// Appends a dim to `c`; a dim of size 1 moves nothing and is left out.
void PushCopyDim(StridedCopy* c, int64_t size, int64_t src_stride, int64_t dst_stride);
absl::StatusOr<Tensor*> AllocateOutput(OpKernelContext& ctx, int i, absl::Span<const int64_t> dims);
// Appends {input, out, c} unless it would move nothing.
void AddIfNotEmpty(PieceCopies* v, int input, Tensor* out, const StridedCopy& c);
// `t`'s int value; InvalidArgument naming `what` unless it is an int32 or int64 scalar.
absl::StatusOr<int64_t> ScalarIntInput(const Tensor& t, const char* what);

// Each validates the op's inputs (and the node's attrs) and allocates or aliases every
// output; the copies left to run never have zero elements.
absl::StatusOr<PieceCopies> PrepareTile(OpKernelContext& ctx);    // (input, multiples)
absl::StatusOr<PieceCopies> PreparePack(OpKernelContext& ctx);    // (values...), axis
absl::StatusOr<PieceCopies> PrepareUnpack(OpKernelContext& ctx);  // (value), num, axis
absl::StatusOr<PieceCopies> PrepareSplit(OpKernelContext& ctx);   // (axis, value), num_split
// (value, size_splits, axis), num_split
absl::StatusOr<PieceCopies> PrepareSplitV(OpKernelContext& ctx);

}  // namespace rill
