#include "rill/core/segment.h"

#include <algorithm>
#include <cmath>

#include "rill/core/gather.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

using shape_util::Dims;
using shape_util::Str;
using Values = absl::InlinedVector<int64_t, 8>;  // shape_fns::AllIntValues's

Values Iota(size_t n) {
  Values v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int64_t>(i);
  return v;
}

absl::Status CheckSorted(absl::Span<const int64_t> ids) {
  for (size_t j = 0; j < ids.size(); ++j) {
    if (ids[j] < 0) {
      return errors::InvalidArgument("segment_ids[", j, "] = ", ids[j], " must be >= 0");
    }
    if (j > 0 && ids[j] < ids[j - 1]) {
      return errors::InvalidArgument("segment_ids must be sorted: segment_ids[", j, "] = ", ids[j],
                                     " follows segment_ids[", j - 1, "] = ", ids[j - 1]);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ScalarInput(const Tensor& t, const char* what) {
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, got shape ", t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::IntValues(t, what));
  if (v[0] < 0) return errors::InvalidArgument(what, " must be >= 0, got ", v[0]);
  return v[0];
}

// Entry j (data row src[j]) joins segment keys[j]; a negative key drops it. A counting
// sort: each segment's entries keep their order.
absl::Status Group(const Values& keys, const Values& src, SegmentLists* l) {
  l->offsets = Tensor(DT_INT64, TensorShape({l->segments + 1}));
  if (!l->offsets.IsInitialized()) {
    return errors::ResourceExhausted("out of memory for the row lists of ", l->segments,
                                     " segments");
  }
  int64_t* o = l->offsets.base<int64_t>();
  std::fill(o, o + l->segments + 1, 0);
  for (int64_t k : keys) {
    if (k >= 0) ++o[k + 1];
  }
  for (int64_t s = 0; s < l->segments; ++s) o[s + 1] += o[s];  // o[s]: where s starts
  l->rows.resize(static_cast<size_t>(o[l->segments]));
  for (size_t j = 0; j < keys.size(); ++j) {
    if (keys[j] >= 0) l->rows[o[keys[j]]++] = src[j];  // o[s] moves to where s ends
  }
  for (int64_t s = l->segments; s > 0; --s) o[s] = o[s - 1];  // back to the starts
  o[0] = 0;
  return absl::OkStatus();
}

// Allocates the output ([segments] + the data's dims from `first_inner` on) and groups the
// entries, unless the output is empty.
absl::StatusOr<SegmentLists> Lay(OpKernelContext& ctx, const Tensor& data, int first_inner,
                                 int64_t segments, const Values& keys, const Values& src,
                                 Tensor** out) {
  const auto d = data.shape().dim_sizes();
  Dims dims = {segments};
  dims.insert(dims.end(), d.begin() + first_inner, d.end());
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  SegmentLists l;
  l.segments = segments;
  for (size_t i = first_inner; i < d.size(); ++i) l.inner *= d[i];
  if ((*out)->NumElements() > 0) RILL_RETURN_IF_ERROR(Group(keys, src, &l));
  return l;
}

absl::StatusOr<SegmentLists> LaySortedSegments(OpKernelContext& ctx, Tensor** out) {
  const Tensor &data = ctx.input(0), &ids_t = ctx.input(1);
  RILL_RETURN_IF_ERROR(
      SortedSegmentDims(data.shape().dim_sizes(), ids_t.shape().dim_sizes(), 0).status());
  RILL_ASSIGN_OR_RETURN(const Values ids, shape_fns::AllIntValues(ids_t, "segment_ids"));
  RILL_ASSIGN_OR_RETURN(int64_t segments, SortedSegmentCount(ids));
  return Lay(ctx, data, 1, segments, ids, Iota(ids.size()), out);
}

absl::StatusOr<SegmentLists> LayUnsortedSegments(OpKernelContext& ctx, Tensor** out) {
  const Tensor &data = ctx.input(0), &ids_t = ctx.input(1);
  RILL_ASSIGN_OR_RETURN(int64_t segments, ScalarInput(ctx.input(2), "num_segments"));
  RILL_RETURN_IF_ERROR(
      SegmentSumDims(data.shape().dim_sizes(), ids_t.shape().dim_sizes(), segments).status());
  RILL_ASSIGN_OR_RETURN(const Values ids, shape_fns::AllIntValues(ids_t, "segment_ids"));
  RILL_RETURN_IF_ERROR(CheckSegmentIndices(ids, segments, true, "segment_ids"));
  return Lay(ctx, data, ids_t.dims(), segments, ids, Iota(ids.size()), out);
}

absl::StatusOr<SegmentLists> LaySparseSegments(OpKernelContext& ctx, Tensor** out) {
  const Tensor &data = ctx.input(0), &indices_t = ctx.input(1), &ids_t = ctx.input(2);
  RILL_RETURN_IF_ERROR(SparseSegmentDims(data.shape().dim_sizes(), indices_t.shape().dim_sizes(),
                                         ids_t.shape().dim_sizes(), 0)
                           .status());
  RILL_ASSIGN_OR_RETURN(const Values indices, shape_fns::AllIntValues(indices_t, "indices"));
  RILL_ASSIGN_OR_RETURN(const Values ids, shape_fns::AllIntValues(ids_t, "segment_ids"));
  RILL_RETURN_IF_ERROR(CheckSegmentIndices(indices, data.dim_size(0), false, "indices"));
  RILL_ASSIGN_OR_RETURN(int64_t segments, SortedSegmentCount(ids));
  if (ctx.num_inputs() == 4) {
    RILL_ASSIGN_OR_RETURN(int64_t n, ScalarInput(ctx.input(3), "num_segments"));
    if (segments > n) {
      return errors::InvalidArgument("segment_ids[", ids.size() - 1, "] = ", segments - 1,
                                     " is not below num_segments ", n);
    }
    segments = n;
  }
  return Lay(ctx, data, 1, segments, ids, indices, out);
}

absl::StatusOr<SegmentLists> LaySparseSegmentGrad(OpKernelContext& ctx, SegmentReduction r,
                                                  Tensor** out) {
  const Tensor &grad = ctx.input(0), &indices_t = ctx.input(1), &ids_t = ctx.input(2);
  RILL_ASSIGN_OR_RETURN(int64_t rows, ScalarInput(ctx.input(3), "output_dim0"));
  RILL_RETURN_IF_ERROR(SparseSegmentDims(grad.shape().dim_sizes(), indices_t.shape().dim_sizes(),
                                         ids_t.shape().dim_sizes(), rows)
                           .status());
  RILL_ASSIGN_OR_RETURN(const Values indices, shape_fns::AllIntValues(indices_t, "indices"));
  RILL_ASSIGN_OR_RETURN(const Values ids, shape_fns::AllIntValues(ids_t, "segment_ids"));
  RILL_RETURN_IF_ERROR(CheckSegmentIndices(ids, grad.dim_size(0), false, "segment_ids"));
  RILL_RETURN_IF_ERROR(CheckSegmentIndices(indices, rows, false, "indices"));
  RILL_ASSIGN_OR_RETURN(SegmentLists l, Lay(ctx, grad, 1, rows, indices, ids, out));
  if (r == SegmentReduction::kSum || !l.offsets.IsInitialized()) return l;
  // Entry k carries grad row rows[k], whose segment had n entries in the forward op.
  Values count(static_cast<size_t>(grad.dim_size(0)), 0);
  for (int64_t id : ids) ++count[id];
  l.weights.resize(l.rows.size());
  for (size_t k = 0; k < l.rows.size(); ++k) {
    const double n = static_cast<double>(count[l.rows[k]]);
    l.weights[k] = r == SegmentReduction::kMean ? 1 / n : 1 / std::sqrt(n);
  }
  return l;
}

}  // namespace

absl::StatusOr<Dims> SortedSegmentDims(absl::Span<const int64_t> data,
                                       absl::Span<const int64_t> ids, int64_t segments) {
  if (data.empty()) return errors::InvalidArgument("data must have rank >= 1, got a scalar");
  if (ids.size() != 1) {
    return errors::InvalidArgument("segment_ids must be a vector, got shape ", Str(ids));
  }
  if (ids[0] >= 0 && data[0] >= 0 && ids[0] != data[0]) {
    return errors::InvalidArgument("segment_ids ", Str(ids), " must hold one id per row of data ",
                                   Str(data));
  }
  Dims out = {segments};
  out.insert(out.end(), data.begin() + 1, data.end());
  return out;
}

absl::StatusOr<Dims> SparseSegmentDims(absl::Span<const int64_t> data,
                                       absl::Span<const int64_t> indices,
                                       absl::Span<const int64_t> ids, int64_t segments) {
  if (data.empty()) return errors::InvalidArgument("data must have rank >= 1, got a scalar");
  if (indices.size() != 1 || ids.size() != 1) {
    return errors::InvalidArgument("indices ", Str(indices), " and segment_ids ", Str(ids),
                                   " must be vectors");
  }
  if (indices[0] >= 0 && ids[0] >= 0 && indices[0] != ids[0]) {
    return errors::InvalidArgument("segment_ids ", Str(ids), " must name a segment per index ",
                                   Str(indices));
  }
  Dims out = {segments};
  out.insert(out.end(), data.begin() + 1, data.end());
  return out;
}

absl::Status CheckSegmentIndices(absl::Span<const int64_t> v, int64_t limit, bool drop_negative,
                                 const char* what) {
  for (size_t j = 0; j < v.size(); ++j) {
    if (v[j] >= limit || (!drop_negative && v[j] < 0)) {
      return errors::InvalidArgument(what, "[", j, "] = ", v[j], " is not in [0, ", limit, ")");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> SortedSegmentCount(absl::Span<const int64_t> ids) {
  RILL_RETURN_IF_ERROR(CheckSorted(ids));
  return ids.empty() ? 0 : ids.back() + 1;
}

absl::StatusOr<SegmentLists> PrepareSegments(OpKernelContext& ctx, SegmentFamily family,
                                             SegmentReduction r, Tensor** out) {
  switch (family) {
    case SegmentFamily::kSorted:
      return LaySortedSegments(ctx, out);
    case SegmentFamily::kUnsorted:
      return LayUnsortedSegments(ctx, out);
    case SegmentFamily::kSparse:
      return LaySparseSegments(ctx, out);
    case SegmentFamily::kSparseGrad:
      return LaySparseSegmentGrad(ctx, r, out);
  }
  return errors::Internal("unknown segment family");
}

}  // namespace rill
