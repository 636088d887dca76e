// The segment reductions: schemas, shape functions (core/segment.h's checks, shared with the
// kernels, on constant ids too) and wrappers. Kernels: kernels/{cpu,cuda}/segment_ops.cc
// (UnsortedSegmentSum's: gather_ops.cc).
#include "rill/ops/segment_ops.h"

#include "rill/core/gather.h"
#include "rill/core/segment.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

void SetUnknown(InferenceContext& c) { c.set_output(0, PartialTensorShape()); }

// A count input's value when it is a constant (checked >= 0), else -1.
absl::StatusOr<int64_t> ConstCount(const InferenceContext& c, int i, const char* what) {
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, i, what));
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::ConstInts(c, i, what));
  if (!v) return -1;
  if ((*v)[0] < 0) return errors::InvalidArgument(what, " must be >= 0, got ", (*v)[0]);
  return (*v)[0];
}

// Constant sorted ids (input i) give the segment count; else -1.
absl::StatusOr<int64_t> SortedCount(const InferenceContext& c, int i) {
  RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, i, "segment_ids"));
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::ConstInts(c, i, "segment_ids"));
  if (!v) return -1;
  return SortedSegmentCount(*v);
}

// Input i's values checked against `limit` when both are known at construction.
absl::Status CheckConstIndices(const InferenceContext& c, int i, int64_t limit, bool drop_negative,
                               const char* what) {
  const Tensor* t = c.input_tensor(i);
  if (t == nullptr || limit < 0) return absl::OkStatus();
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::AllIntValues(*t, what));
  return CheckSegmentIndices(v, limit, drop_negative, what);
}

// A vector input's dims, or one unknown dim when even its rank is unknown.
shape_util::Dims VectorDims(const PartialTensorShape& s) {
  const auto d = s.dim_sizes();
  return s.unknown_rank() ? shape_util::Dims{-1} : shape_util::Dims(d.begin(), d.end());
}

// Dim 0 of input i, -1 when unknown.
int64_t Dim0(const InferenceContext& c, int i) {
  const PartialTensorShape& s = c.input_shape(i);
  return s.unknown_rank() || s.dims() == 0 ? -1 : s.dim_size(0);
}

absl::Status SortedShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(int64_t segments, SortedCount(c, 1));
  const PartialTensorShape &d = c.input_shape(0), &ids = c.input_shape(1);
  if (d.unknown_rank()) {
    SetUnknown(c);
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out, SortedSegmentDims(d.dim_sizes(), VectorDims(ids), segments));
  c.set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

absl::Status UnsortedShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(int64_t segments, ConstCount(c, 2, "num_segments"));
  RILL_RETURN_IF_ERROR(CheckConstIndices(c, 1, segments, true, "segment_ids"));
  const PartialTensorShape &d = c.input_shape(0), &ids = c.input_shape(1);
  if (d.unknown_rank() || ids.unknown_rank()) {
    SetUnknown(c);
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out, SegmentSumDims(d.dim_sizes(), ids.dim_sizes(), segments));
  c.set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

// The sparse ops (a fourth input: num_segments) and their gradients (a fourth input:
// output_dim0, the output's row count).
absl::Status SparseShape(InferenceContext& c, bool grad) {
  const char* count_name = grad ? "output_dim0" : "num_segments";
  RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, 1, "indices"));
  RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, 2, "segment_ids"));
  int64_t segments = -1;
  if (grad) {  // ids name rows of grad, in any order; indices rows of the output
    RILL_ASSIGN_OR_RETURN(segments, ConstCount(c, 3, count_name));
    RILL_RETURN_IF_ERROR(CheckConstIndices(c, 2, Dim0(c, 0), false, "segment_ids"));
    RILL_RETURN_IF_ERROR(CheckConstIndices(c, 1, segments, false, "indices"));
  } else {
    RILL_ASSIGN_OR_RETURN(segments, SortedCount(c, 2));
    RILL_RETURN_IF_ERROR(CheckConstIndices(c, 1, Dim0(c, 0), false, "indices"));
  }
  if (!grad && c.num_inputs() == 4) {
    RILL_ASSIGN_OR_RETURN(int64_t n, ConstCount(c, 3, count_name));
    if (n >= 0 && segments > n) {
      return errors::InvalidArgument("segment_ids hold id ", segments - 1, ", not below ",
                                     count_name, " ", n);
    }
    segments = n;
  }
  const PartialTensorShape &d = c.input_shape(0), &i = c.input_shape(1), &ids = c.input_shape(2);
  if (d.unknown_rank()) {
    SetUnknown(c);
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out,
                        SparseSegmentDims(d.dim_sizes(), VectorDims(i), VectorDims(ids), segments));
  c.set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

void Sorted(OpDefBuilder& b) {
  b.Input("data", "T")
      .Input("segment_ids", "Tindices")
      .Output("output", "T")
      .TypeAttr("Tindices", kIndexTypes)
      .SetShapeFn(SortedShape);
}

void Unsorted(OpDefBuilder& b) {
  b.Input("data", "T")
      .Input("segment_ids", "Tindices")
      .Input("num_segments", "Tnumsegments")
      .Output("output", "T")
      .TypeAttr("Tindices", kIndexTypes)
      .TypeAttr("Tnumsegments", kIndexTypes, DT_INT32)
      .SetShapeFn(UnsortedShape);
}

// The sparse ops' first three inputs, and their gradients' (the first named "grad").
template <bool kGrad>
void SparseInputs(OpDefBuilder& b) {
  b.Input(kGrad ? "grad" : "data", "T")
      .Input("indices", "Tidx")
      .Input("segment_ids", "Tsegmentids")
      .Output("output", "T")
      .TypeAttr("Tidx", kIndexTypes, DT_INT32)
      .TypeAttr("Tsegmentids", kIndexTypes, DT_INT32);
}

// TensorFlow's sparse_gradient asks for an IndexedSlices gradient; rill's gradients are
// dense, the same values, so the attr is accepted for graphs that set it.
void Sparse(OpDefBuilder& b) {
  b.Apply(SparseInputs<false>)
      .Attr("sparse_gradient", AttrKind::kBool, false)
      .SetShapeFn([](InferenceContext& c) { return SparseShape(c, false); });
}

void SparseWithNumSegments(OpDefBuilder& b) {
  b.Apply(Sparse)
      .Input("num_segments", "Tnumsegments")
      .TypeAttr("Tnumsegments", kIndexTypes, DT_INT32);
}

void SparseGrad(OpDefBuilder& b) {
  b.Apply(SparseInputs<true>).Input("output_dim0", DT_INT32).SetShapeFn([](InferenceContext& c) {
    return SparseShape(c, true);
  });
}

}  // namespace

RILL_REGISTER_OP("SegmentSum").Apply(Sorted).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("SegmentMean").Apply(Sorted).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("SegmentProd").Apply(Sorted).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("SegmentMax").Apply(Sorted).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("SegmentMin").Apply(Sorted).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("UnsortedSegmentSum").Apply(Unsorted).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("UnsortedSegmentProd").Apply(Unsorted).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("UnsortedSegmentMax").Apply(Unsorted).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("UnsortedSegmentMin").Apply(Unsorted).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("SparseSegmentSum").Apply(Sparse).TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("SparseSegmentMean").Apply(Sparse).TypeAttr("T", kFloatTypes);
RILL_REGISTER_OP("SparseSegmentSqrtN").Apply(Sparse).TypeAttr("T", kFloatTypes);
RILL_REGISTER_OP("SparseSegmentSumWithNumSegments")
    .Apply(SparseWithNumSegments)
    .TypeAttr("T", kNumberTypes);
RILL_REGISTER_OP("SparseSegmentMeanWithNumSegments")
    .Apply(SparseWithNumSegments)
    .TypeAttr("T", kFloatTypes);
RILL_REGISTER_OP("SparseSegmentSqrtNWithNumSegments")
    .Apply(SparseWithNumSegments)
    .TypeAttr("T", kFloatTypes);
RILL_REGISTER_OP("SparseSegmentSumGrad").Apply(SparseGrad).TypeAttr("T", kFloatTypes);
RILL_REGISTER_OP("SparseSegmentMeanGrad").Apply(SparseGrad).TypeAttr("T", kFloatTypes);
RILL_REGISTER_OP("SparseSegmentSqrtNGrad").Apply(SparseGrad).TypeAttr("T", kFloatTypes);

namespace ops {

using internal::NodeBuilder;

#define RILL_DEFINE_SEGMENT_OP2(Name)                              \
  Name::Name(const Scope& scope, Input data, Input a) {            \
    NodeBuilder(scope, #Name).Input(data).Input(a).Finalize(this); \
  }
#define RILL_DEFINE_SEGMENT_OP3(Name)                                       \
  Name::Name(const Scope& scope, Input data, Input a, Input b) {            \
    NodeBuilder(scope, #Name).Input(data).Input(a).Input(b).Finalize(this); \
  }
#define RILL_DEFINE_SEGMENT_OP4(Name)                                                \
  Name::Name(const Scope& scope, Input data, Input a, Input b, Input c) {            \
    NodeBuilder(scope, #Name).Input(data).Input(a).Input(b).Input(c).Finalize(this); \
  }

RILL_DEFINE_SEGMENT_OP2(SegmentSum)
RILL_DEFINE_SEGMENT_OP2(SegmentMean)
RILL_DEFINE_SEGMENT_OP2(SegmentProd)
RILL_DEFINE_SEGMENT_OP2(SegmentMax)
RILL_DEFINE_SEGMENT_OP2(SegmentMin)
RILL_DEFINE_SEGMENT_OP3(UnsortedSegmentSum)
RILL_DEFINE_SEGMENT_OP3(UnsortedSegmentProd)
RILL_DEFINE_SEGMENT_OP3(UnsortedSegmentMax)
RILL_DEFINE_SEGMENT_OP3(UnsortedSegmentMin)
RILL_DEFINE_SEGMENT_OP3(SparseSegmentSum)
RILL_DEFINE_SEGMENT_OP3(SparseSegmentMean)
RILL_DEFINE_SEGMENT_OP3(SparseSegmentSqrtN)
RILL_DEFINE_SEGMENT_OP4(SparseSegmentSumWithNumSegments)
RILL_DEFINE_SEGMENT_OP4(SparseSegmentMeanWithNumSegments)
RILL_DEFINE_SEGMENT_OP4(SparseSegmentSqrtNWithNumSegments)
RILL_DEFINE_SEGMENT_OP4(SparseSegmentSumGrad)
RILL_DEFINE_SEGMENT_OP4(SparseSegmentMeanGrad)
RILL_DEFINE_SEGMENT_OP4(SparseSegmentSqrtNGrad)

}  // namespace ops
}  // namespace rill
