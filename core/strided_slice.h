// StridedSlice and StridedSliceGrad: TensorFlow's sparse slice spec (begin, end, strides and
// the five masks) resolved against a shape into one strided copy. The rule is shared by the
// shape functions (partial shapes: -1 dims) and by the CPU and GPU kernels.
#pragma once

#include <cstdint>
#include <vector>

#include "rill/core/shape_util.h"
#include "rill/core/strided_copy.h"

namespace rill {

struct StridedSliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink_axis = 0;
};
StridedSliceMasks StridedSliceMasksOf(const Node& node);

// The slice resolved against `in` (dims may be -1 at construction: their results are -1).
struct ResolvedSlice {
  // Per input dim: first index, step and count taken (count -1: unknown).
  std::vector<int64_t> begin, stride, size;
  shape_util::Dims final_dims;  // the output: new axes in, shrunk dims out
};

// InvalidArgument for a spec that does not fit `in`: lengths that differ, a zero stride,
// two ellipses, more entries than dims, a shrunk index out of range.
absl::StatusOr<ResolvedSlice> ResolveStridedSlice(absl::Span<const int64_t> in,
                                                  absl::Span<const int64_t> begin,
                                                  absl::Span<const int64_t> end,
                                                  absl::Span<const int64_t> strides,
                                                  const StridedSliceMasks& masks);

// StridedSlice(input, begin, end, strides): validates, allocates output 0 and plans the copy
// from the input.
absl::StatusOr<CopyJob> PrepareStridedSlice(OpKernelContext& ctx);
// StridedSliceGrad(shape, begin, end, strides, dy): an output of `shape`, zero-filled, with
// dy copied into the slice; the copy reads input 4.
absl::StatusOr<CopyJob> PrepareStridedSliceGrad(OpKernelContext& ctx);

}  // namespace rill
