// Transpose, Slice, Pad, BroadcastTo and ConcatV2 move elements without arithmetic; each
// is one strided copy (Concat: one per input), planned here (with the argument checks the CPU and
// GPU kernels share) and run by either device: for every position idx of `dims` (row-major),
//   dst[dst_base + sum_d idx_d dst_strides_d] = src[src_base + sum_d idx_d src_strides_d]
// in elements. A broadcast dim has source stride 0; Pad zero-fills its output first (PadV2
// fills it with its constant) and copies the input into the interior.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rill/core/kernel.h"
#include "rill/core/limits.h"

namespace rill {

struct StridedCopy {
  int rank = 0;
  std::array<int64_t, kMaxCopyRank> dims{}, src_strides{}, dst_strides{};
  int64_t src_base = 0, dst_base = 0;
  int64_t num_elements() const;
};

// What a kernel does after Prepare*: nothing more (the output is set: an alias of the
// input, or empty), or zero-fill the output (Pad) and run the copy.
struct CopyJob {
  Tensor* out = nullptr;  // output 0, when allocated
  bool done = false;
  bool zero_fill = false;
  int fill = -1;   // >= 0: fill the output with this input's scalar first (PadV2)
  int source = 0;  // the input the copy reads (StridedSliceGrad's dy: 4)
  StridedCopy copy;
};

// Each validates the op's inputs and allocates (or aliases) output 0.
absl::StatusOr<CopyJob> PrepareTranspose(OpKernelContext& ctx);    // (x, perm)
absl::StatusOr<CopyJob> PrepareSlice(OpKernelContext& ctx);        // (x, begin, size)
absl::StatusOr<CopyJob> PreparePad(OpKernelContext& ctx);          // (x, paddings)
absl::StatusOr<CopyJob> PreparePadV2(OpKernelContext& ctx);        // (x, paddings, constant_values)
absl::StatusOr<CopyJob> PrepareBroadcastTo(OpKernelContext& ctx);  // (x, shape)
// ReverseV2(tensor, axis): the source read with negative strides along the axes.
absl::StatusOr<CopyJob> PrepareReverse(OpKernelContext& ctx);

// Reverse(tensor, dims): TensorFlow's first Reverse, dims a bool per dim of tensor.
absl::StatusOr<CopyJob> PrepareReverseDims(OpKernelContext& ctx);
// Reverse's dims must have one flag per dim of its tensor. Shared by the shape function.
absl::Status ReverseDimsCount(int64_t flags, int rank);

// The axes ReverseV2 reverses, as flags per dim of a rank-`rank` tensor: each in
// [-rank, rank) and given once, else InvalidArgument. Shared by the shape function.
absl::StatusOr<std::vector<bool>> ReverseAxes(absl::Span<const int64_t> axis, int rank);

// ConcatV2(values..., axis): one copy per value, from that input (contiguous) into its
// columns of the output (allocated here, into *out).
absl::StatusOr<std::vector<StridedCopy>> PrepareConcat(OpKernelContext& ctx, Tensor** out);

// The copy that writes a row-major tensor of `dims` permuted: output dim d is input dim
// perm[d] (Transpose, Einsum's operands, the GPU convolutions' layout changes).
StridedCopy PermutationCopy(absl::Span<const int64_t> dims, absl::Span<const int> perm);

// Runs a copy on host memory, `element_size` bytes per element.
void RunStridedCopyOnHost(const StridedCopy& c, const void* src, void* dst, size_t element_size);

}  // namespace rill
