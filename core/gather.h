// GatherV2 (Gather: axis 0) and UnsortedSegmentSum: the argument checks their shape
// functions and kernels share, index validation on the host (an index out of range is an
// error on every device, where TensorFlow's GPU kernels write zeros or drop it), and the
// host loops.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/shape_util.h"

namespace rill {

// params [batch..., outer..., n, inner...] and indices [batch..., k...] give
// out [batch..., outer..., k..., inner...]: out[b, o, j, i] = params[b, o, indices[b, j], i].
struct GatherGeometry {
  int64_t batch = 1, outer = 1, n = 0, k = 0, inner = 1;
};

// The output dims of a gather along `axis` with `batch_dims` leading dims shared by params
// and indices (both may be negative, as TensorFlow's); -1 dims stay unknown.
absl::StatusOr<shape_util::Dims> GatherDims(absl::Span<const int64_t> params,
                                            absl::Span<const int64_t> indices, int64_t axis,
                                            int64_t batch_dims);

// GatherV2's batch_dims attr; 0 for Gather, which has none.
int64_t BatchDimsAttr(const OpKernelConstruction& c);

// Every value of `t` (int32 or int64) checked against [0, limit), or only below limit
// when negatives are dropped rows (segment ids); `what` names them in the error.
absl::Status CheckIndexValues(const Tensor& t, int64_t limit, bool drop_negative, const char* what);

// Validates (params, indices[, axis]) and, unless the caller checks them itself (a GPU
// kernel's checked upload), every index; allocates output 0.
absl::StatusOr<GatherGeometry> PrepareGather(OpKernelContext& ctx, int64_t batch_dims, Tensor** out,
                                             bool check_indices = true);
void RunGatherOnHost(const GatherGeometry& g, size_t element_size, const void* params,
                     const Tensor& indices, void* out);

// UnsortedSegmentSum(data, segment_ids, num_segments): data [ids..., inner...] summed into
// out [num_segments, inner...]; a negative id drops its row (as TensorFlow), one at or
// past num_segments is an error.
struct SegmentGeometry {
  int64_t ids = 0, inner = 1, segments = 0;
};
absl::StatusOr<shape_util::Dims> SegmentSumDims(absl::Span<const int64_t> data,
                                                absl::Span<const int64_t> ids,
                                                int64_t num_segments);
absl::StatusOr<SegmentGeometry> PrepareSegmentSum(OpKernelContext& ctx, Tensor** out,
                                                  bool check_ids = true);

}  // namespace rill
