// TensorFlow's segment reductions with their C++ names: rows of data reduced into the
// segments their ids name (core/segment.h says how each family reads its ids).
//   SegmentSum, SegmentMean, SegmentProd, SegmentMax, SegmentMin (data, segment_ids): ids
//     sorted, one per row of data; output rows = last id + 1; a segment without rows is 0.
//   UnsortedSegmentSum, ...Prod, ...Max, ...Min (data, segment_ids, num_segments): ids of any
//     order whose shape is a prefix of data's; a negative id drops its row; an empty segment
//     is 0, 1, the dtype's lowest and its highest value.
//   SparseSegmentSum, ...Mean, ...SqrtN (data, indices, segment_ids), and ...WithNumSegments
//     (the same and num_segments): data row indices[j] into segment segment_ids[j], ids
//     sorted; SqrtN divides a segment's sum by the square root of its row count.
//   SparseSegmentSumGrad, ...MeanGrad, ...SqrtNGrad (grad, indices, segment_ids,
//     output_dim0): the sparse ops' gradients, an output of output_dim0 rows.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

#define RILL_DECLARE_SEGMENT_OP(Name, ...)             \
  class Name : public OpWrapper {                      \
   public:                                             \
    Name(const Scope& scope, Input data, __VA_ARGS__); \
  };

RILL_DECLARE_SEGMENT_OP(SegmentSum, Input segment_ids)
RILL_DECLARE_SEGMENT_OP(SegmentMean, Input segment_ids)
RILL_DECLARE_SEGMENT_OP(SegmentProd, Input segment_ids)
RILL_DECLARE_SEGMENT_OP(SegmentMax, Input segment_ids)
RILL_DECLARE_SEGMENT_OP(SegmentMin, Input segment_ids)
RILL_DECLARE_SEGMENT_OP(UnsortedSegmentSum, Input segment_ids, Input num_segments)
RILL_DECLARE_SEGMENT_OP(UnsortedSegmentProd, Input segment_ids, Input num_segments)
RILL_DECLARE_SEGMENT_OP(UnsortedSegmentMax, Input segment_ids, Input num_segments)
RILL_DECLARE_SEGMENT_OP(UnsortedSegmentMin, Input segment_ids, Input num_segments)
RILL_DECLARE_SEGMENT_OP(SparseSegmentSum, Input indices, Input segment_ids)
RILL_DECLARE_SEGMENT_OP(SparseSegmentMean, Input indices, Input segment_ids)
RILL_DECLARE_SEGMENT_OP(SparseSegmentSqrtN, Input indices, Input segment_ids)
RILL_DECLARE_SEGMENT_OP(SparseSegmentSumWithNumSegments, Input indices, Input segment_ids,
                        Input num_segments)
RILL_DECLARE_SEGMENT_OP(SparseSegmentMeanWithNumSegments, Input indices, Input segment_ids,
                        Input num_segments)
RILL_DECLARE_SEGMENT_OP(SparseSegmentSqrtNWithNumSegments, Input indices, Input segment_ids,
                        Input num_segments)
// `data` is the gradient of the sparse op's output here (TensorFlow calls it grad).
RILL_DECLARE_SEGMENT_OP(SparseSegmentSumGrad, Input indices, Input segment_ids, Input output_dim0)
RILL_DECLARE_SEGMENT_OP(SparseSegmentMeanGrad, Input indices, Input segment_ids, Input output_dim0)
RILL_DECLARE_SEGMENT_OP(SparseSegmentSqrtNGrad, Input indices, Input segment_ids, Input output_dim0)

#undef RILL_DECLARE_SEGMENT_OP

}  // namespace rill::ops
