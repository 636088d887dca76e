// TensorFlow's segment reductions, the host's part: the checks their shape functions and
// kernels share, and the lists that say which data rows each output row reduces.
//  - Segment{Sum,Mean,Prod,Max,Min}(data, segment_ids): ids sorted, one per row of data.
//  - UnsortedSegment{Prod,Max,Min}(data, segment_ids, num_segments): ids' shape a prefix of
//    data's; a negative id drops its row.
//  - SparseSegment{Sum,Mean,SqrtN}[WithNumSegments](data, indices, segment_ids[, n]): row
//    indices[j] of data goes to segment segment_ids[j], ids sorted.
//  - SparseSegment{Sum,Mean,SqrtN}Grad(grad, indices, segment_ids, output_dim0): the sparse
//    ops' gradient, row segment_ids[j] of grad (weighted by 1, 1/n or 1/sqrt(n) for a segment
//    of n entries) added into row indices[j] of an output of output_dim0 rows.
// Every id and index is read on the host and checked on every device (TensorFlow's GPU
// kernels trust them); the lists then drive one formula on both (core/segment_row.h).
#pragma once

#include <limits>
#include <vector>

#include "rill/core/kernel.h"
#include "rill/core/segment_row.h"
#include "rill/core/shape_util.h"

namespace rill {

// Output row s reduces entries offsets[s] .. offsets[s + 1] - 1; entry k is data row
// rows[k], times weights[k] when there are weights. Empty (segments and inner only) when
// the output has no elements. The offsets, one per segment, are sized by a count the
// caller gives (num_segments) rather than by an input, so they are a Tensor: an allocation
// that fails is ResourceExhausted, not an exception.
struct SegmentLists {
  int64_t segments = 0, inner = 1;
  Tensor offsets;  // int64 [segments + 1]
  std::vector<int64_t> rows;
  std::vector<double> weights;
  const int64_t* offset() const { return offsets.base<int64_t>(); }
};

// Output dims (-1 where unknown) of the sorted ops, of the sparse ops and of their
// gradients; `segments` is -1 when it is not known at construction. InvalidArgument
// naming both shapes when the ids do not fit the data.
absl::StatusOr<shape_util::Dims> SortedSegmentDims(absl::Span<const int64_t> data,
                                                   absl::Span<const int64_t> ids, int64_t segments);
absl::StatusOr<shape_util::Dims> SparseSegmentDims(absl::Span<const int64_t> data,
                                                   absl::Span<const int64_t> indices,
                                                   absl::Span<const int64_t> ids, int64_t segments);

// Every value in [0, limit), or only below limit when `drop_negative` (unsorted ids);
// InvalidArgument naming `what`, the position and the value.
absl::Status CheckSegmentIndices(absl::Span<const int64_t> v, int64_t limit, bool drop_negative,
                                 const char* what);

// The segment count that constant sorted ids give (last + 1, 0 for none), after checking
// them as the kernels do.
absl::StatusOr<int64_t> SortedSegmentCount(absl::Span<const int64_t> ids);

enum class SegmentFamily : int { kSorted, kUnsorted, kSparse, kSparseGrad };

// Every op with a kernel here (UnsortedSegmentSum's is gather's), for the CPU's and the GPU's
// registrations: M(op, family, reduction, dtypes), dtypes NUMBER or FLOAT.
#define RILL_FOR_SEGMENT_OPS(M)                                  \
  M("SegmentSum", kSorted, kSum, NUMBER)                         \
  M("SegmentMean", kSorted, kMean, NUMBER)                       \
  M("SegmentProd", kSorted, kProd, NUMBER)                       \
  M("SegmentMax", kSorted, kMax, NUMBER)                         \
  M("SegmentMin", kSorted, kMin, NUMBER)                         \
  M("UnsortedSegmentProd", kUnsorted, kProd, NUMBER)             \
  M("UnsortedSegmentMax", kUnsorted, kMax, NUMBER)               \
  M("UnsortedSegmentMin", kUnsorted, kMin, NUMBER)               \
  M("SparseSegmentSum", kSparse, kSum, NUMBER)                   \
  M("SparseSegmentSumWithNumSegments", kSparse, kSum, NUMBER)    \
  M("SparseSegmentMean", kSparse, kMean, FLOAT)                  \
  M("SparseSegmentMeanWithNumSegments", kSparse, kMean, FLOAT)   \
  M("SparseSegmentSqrtN", kSparse, kSqrtN, FLOAT)                \
  M("SparseSegmentSqrtNWithNumSegments", kSparse, kSqrtN, FLOAT) \
  M("SparseSegmentSumGrad", kSparseGrad, kSum, FLOAT)            \
  M("SparseSegmentMeanGrad", kSparseGrad, kMean, FLOAT)          \
  M("SparseSegmentSqrtNGrad", kSparseGrad, kSqrtN, FLOAT)

// Checks the inputs of an op of `family` (a sparse op with or without num_segments, a
// fourth input), allocates output 0 and lays out the lists; `r` gives the gradients'
// weights.
absl::StatusOr<SegmentLists> PrepareSegments(OpKernelContext& ctx, SegmentFamily family,
                                             SegmentReduction r, Tensor** out);

// How an op's lists combine: as its reduction, but the sparse ops' gradients sum weighted
// rows whatever their forward op (r then gives only the weights).
constexpr SegmentReduction CombineOf(SegmentFamily family, SegmentReduction r) {
  return family == SegmentFamily::kSparseGrad ? SegmentReduction::kSum : r;
}

// The value of a segment without entries: 1 for a product, the type's lowest (highest)
// value for an unsorted max (min), else 0 (TensorFlow's).
template <typename T>
T EmptySegmentValue(SegmentReduction r, bool unsorted) {
  if (r == SegmentReduction::kProd) return T(1);
  if (unsorted && r == SegmentReduction::kMax) return std::numeric_limits<T>::lowest();
  if (unsorted && r == SegmentReduction::kMin) return std::numeric_limits<T>::max();
  return T(0);
}

}  // namespace rill
