// Gradients of the segment reductions, TensorFlow's (dense: rill has no IndexedSlices).
//  - A sum gathers the incoming rows back to the rows they came from (zero for a row an
//    unsorted op dropped by a negative id).
//  - A max or min sends a segment's gradient to the rows equal to its result, split evenly
//    among ties.
//  - A product sends each row the product of its segment's other rows: the product over
//    the row where it has no zero, the product of the nonzero rows to a segment's only
//    zero, nothing to a segment with two zeros.
//  - SegmentMean and the sparse ops: their Grad ops (one segment per row for SegmentMean).
#include "rill/core/segment_row.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/segment_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;
using grad::Out;

// Data's first dim as an int32 scalar (the Grad ops' output_dim0).
Output Rows(const Scope& s, const Output& data) {
  return Reshape(s, Slice(s, Shape(s, data), {0}, {1}), grad::IntVector(s, {}));
}

// What the sorted and unsorted ops share in their gradients: summing or multiplying into
// the op's segments, and gathering segment rows back to the data rows they came from.
class Segments {
 public:
  Segments(const Scope& s, const Operation& op) : s_(s), op_(op) {
    sorted_ = op.node()->num_inputs() == 2;
    if (sorted_) return;
    // Dropped rows (negative ids) gather segment 0, then are masked to zero. The mask has
    // ids' shape followed by ones, to broadcast over each row.
    const Output ids = In(op, 1);
    Output zero = Cast(s, Const(s, 0), ids.type());
    clipped_ = Maximum(s, ids, zero);
    Output ids_rank = Reshape(s, Size(s, Shape(s, ids)), {1});
    Output row_ones = OnesLike(s, Slice(s, Shape(s, In(op, 0)), ids_rank, {-1}));
    mask_ = Reshape(s, GreaterEqual(s, ids, zero), Concat(s, {Shape(s, ids), row_ones}, 0));
  }
  Output Sum(const Output& x) const {
    if (sorted_) return SegmentSum(s_, x, In(op_, 1));
    return UnsortedSegmentSum(s_, x, In(op_, 1), In(op_, 2));
  }
  Output Prod(const Output& x) const {
    if (sorted_) return SegmentProd(s_, x, In(op_, 1));
    return UnsortedSegmentProd(s_, x, In(op_, 1), In(op_, 2));
  }
  // x's segment rows at the data rows, zero at dropped rows.
  Output Gather(const Output& x) const {
    if (sorted_) return ops::Gather(s_, x, In(op_, 1));
    Output g = ops::Gather(s_, x, clipped_);
    return SelectV2(s_, mask_, g, ZerosLike(s_, g));
  }
  // The data rows equal to their segment's result y (and kept, for an unsorted op).
  Output Selected(const Output& data, const Output& y) const {
    Output equal = Equal(s_, data, Gather(y));
    return sorted_ ? equal : LogicalAnd(s_, equal, mask_);
  }

 private:
  const Scope& s_;
  const Operation& op_;
  bool sorted_;
  Output clipped_, mask_;
};

void NoIdGrads(const Operation& op, GradOut* out) {
  for (int i = 1; i < op.node()->num_inputs(); ++i) out->push_back(Output());
}

absl::Status SumGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Segments(s, op).Gather(g[0]));
  NoIdGrads(op, out);
  return s.status();
}

absl::Status MinOrMaxGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Segments seg(s, op);
  const Output data = In(op, 0);
  Output selected = seg.Selected(data, Out(op));
  Output ties = seg.Sum(Cast(s, selected, data.type()));
  Output shared = seg.Gather(Div(s, g[0], ties));
  out->push_back(SelectV2(s, selected, shared, ZerosLike(s, shared)));
  NoIdGrads(op, out);
  return s.status();
}

absl::Status ProdGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Segments seg(s, op);
  const Output data = In(op, 0);
  Output is_zero = Equal(s, data, ZerosLike(s, data));
  Output zeros = seg.Sum(Cast(s, is_zero, DT_INT32));
  Output live = SelectV2(s, Greater(s, zeros, Const(s, 1)), ZerosLike(s, g[0]), g[0]);
  Output nonzero = SelectV2(s, is_zero, OnesLike(s, data), data);
  Output others = Div(s, seg.Gather(Out(op)), nonzero);
  Output partial = SelectV2(s, is_zero, seg.Gather(seg.Prod(nonzero)), others);
  out->push_back(Mul(s, seg.Gather(live), partial));
  NoIdGrads(op, out);
  return s.status();
}

absl::Status SegmentMeanGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output data = In(op, 0), rows = Rows(s, data);
  out->push_back(
      SparseSegmentMeanGrad(s, g[0], Range(s, Const(s, 0), rows, Const(s, 1)), In(op, 1), rows));
  out->push_back(Output());
  return s.status();
}

template <SegmentReduction R>
absl::Status SparseGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output rows = Rows(s, In(op, 0)), indices = In(op, 1), ids = In(op, 2);
  if (R == SegmentReduction::kSum) {
    out->push_back(SparseSegmentSumGrad(s, g[0], indices, ids, rows));
  } else if (R == SegmentReduction::kMean) {
    out->push_back(SparseSegmentMeanGrad(s, g[0], indices, ids, rows));
  } else {
    out->push_back(SparseSegmentSqrtNGrad(s, g[0], indices, ids, rows));
  }
  NoIdGrads(op, out);
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("SegmentSum", SumGrad);
RILL_REGISTER_GRADIENT("UnsortedSegmentSum", SumGrad);
RILL_REGISTER_GRADIENT("SegmentMax", MinOrMaxGrad);
RILL_REGISTER_GRADIENT("SegmentMin", MinOrMaxGrad);
RILL_REGISTER_GRADIENT("UnsortedSegmentMax", MinOrMaxGrad);
RILL_REGISTER_GRADIENT("UnsortedSegmentMin", MinOrMaxGrad);
RILL_REGISTER_GRADIENT("SegmentProd", ProdGrad);
RILL_REGISTER_GRADIENT("UnsortedSegmentProd", ProdGrad);
RILL_REGISTER_GRADIENT("SegmentMean", SegmentMeanGrad);
RILL_REGISTER_GRADIENT("SparseSegmentSum", SparseGrad<SegmentReduction::kSum>);
RILL_REGISTER_GRADIENT("SparseSegmentSumWithNumSegments", SparseGrad<SegmentReduction::kSum>);
RILL_REGISTER_GRADIENT("SparseSegmentMean", SparseGrad<SegmentReduction::kMean>);
RILL_REGISTER_GRADIENT("SparseSegmentMeanWithNumSegments", SparseGrad<SegmentReduction::kMean>);
RILL_REGISTER_GRADIENT("SparseSegmentSqrtN", SparseGrad<SegmentReduction::kSqrtN>);
RILL_REGISTER_GRADIENT("SparseSegmentSqrtNWithNumSegments", SparseGrad<SegmentReduction::kSqrtN>);
// As TensorFlow's: the gradient ops have no gradient of their own.
RILL_REGISTER_NO_GRADIENT("SparseSegmentSumGrad");
RILL_REGISTER_NO_GRADIENT("SparseSegmentMeanGrad");
RILL_REGISTER_NO_GRADIENT("SparseSegmentSqrtNGrad");

}  // namespace rill::ops
