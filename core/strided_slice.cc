#include "rill/core/strided_slice.h"

#include "absl/strings/str_join.h"
#include "rill/core/graph.h"
#include "rill/core/kernel_util.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

bool Bit(int64_t mask, size_t i) { return i < 63 && ((mask >> i) & 1); }

// One dense dim's share of the spec.
struct DenseDim {
  int64_t begin = 0, end = 0, stride = 1;
  bool begin_all = true, end_all = true, shrink = false;
};

// The count of indices begin, begin + stride, ... short of end (stride != 0).
int64_t Count(int64_t begin, int64_t end, int64_t stride) {
  const int64_t len = stride > 0 ? end - begin : begin - end;
  if (len <= 0) return 0;
  const uint64_t step =
      stride > 0 ? static_cast<uint64_t>(stride) : uint64_t{0} - static_cast<uint64_t>(stride);
  return static_cast<int64_t>((static_cast<uint64_t>(len) - 1) / step + 1);
}

// Resolves one dim of size d (-1: unknown) into (begin, size); shrink checks the index.
absl::Status ResolveDim(const DenseDim& s, int64_t d, int dim, int64_t* begin, int64_t* size) {
  if (s.shrink) {
    const int64_t b = s.begin < 0 && d >= 0 ? s.begin + d : s.begin;
    if (d >= 0 && (b < 0 || b >= d)) {
      return errors::InvalidArgument("slice index ", s.begin, " of dimension ", dim,
                                     " is out of bounds for size ", d);
    }
    *begin = b;
    *size = 1;
    return absl::OkStatus();
  }
  if (d < 0) {
    *begin = 0;
    *size = -1;
    return absl::OkStatus();
  }
  const bool up = s.stride > 0;
  const int64_t lo = up ? 0 : -1, hi = up ? d : d - 1;
  auto place = [&](int64_t v, bool all, bool is_begin) {
    if (all && is_begin) return up ? int64_t{0} : d - 1;
    if (all) return up ? d : int64_t{-1};
    if (v < 0) v += d;
    return v < lo ? lo : (v > hi ? hi : v);
  };
  *begin = place(s.begin, s.begin_all, true);
  const int64_t e = place(s.end, s.end_all, false);
  *size = Count(*begin, e, s.stride);
  return absl::OkStatus();
}

// The sparse spec as one entry per input dim (the ellipsis expanded, dims past the spec
// taken whole), and the output's order: -2 for a new axis, k for dense dim k (kept unless
// shrunk).
absl::Status Densify(absl::Span<const int64_t> in, absl::Span<const int64_t> begin,
                     absl::Span<const int64_t> end, absl::Span<const int64_t> strides,
                     const StridedSliceMasks& m, std::vector<DenseDim>* dense_out,
                     std::vector<int>* order_out) {
  const size_t n = strides.size();
  const int rank = static_cast<int>(in.size());
  std::vector<DenseDim>& dense = *dense_out;
  std::vector<int>& order = *order_out;
  auto full = [&] {
    order.push_back(static_cast<int>(dense.size()));
    dense.push_back(DenseDim());
  };
  bool ellipsis_seen = false;
  for (size_t i = 0; i < n; ++i) {
    if (Bit(m.ellipsis, i)) {
      ellipsis_seen = true;
      size_t rest = 0;  // dims the entries after the ellipsis take
      for (size_t k = i + 1; k < n; ++k) rest += !Bit(m.new_axis, k);
      const int64_t expand = rank - static_cast<int64_t>(dense.size()) - static_cast<int64_t>(rest);
      for (int64_t e = 0; e < expand; ++e) full();
      continue;
    }
    if (Bit(m.new_axis, i)) {
      order.push_back(-2);
      continue;
    }
    if (strides[i] == 0) return errors::InvalidArgument("strides[", i, "] must not be 0");
    if (static_cast<int>(dense.size()) >= rank) {
      return errors::InvalidArgument("the slice spec has more entries than the input ",
                                     shape_util::Str(in), " has dims");
    }
    order.push_back(static_cast<int>(dense.size()));
    dense.push_back(
        {begin[i], end[i], strides[i], Bit(m.begin, i), Bit(m.end, i), Bit(m.shrink_axis, i)});
  }
  if (!ellipsis_seen) {
    while (static_cast<int>(dense.size()) < rank) full();
  }
  if (static_cast<int>(dense.size()) != rank) {
    return errors::InvalidArgument("the slice spec has more entries than the input ",
                                   shape_util::Str(in), " has dims");
  }
  return absl::OkStatus();
}

}  // namespace

StridedSliceMasks StridedSliceMasksOf(const Node& node) {
  return {node.attr<int64_t>("begin_mask"), node.attr<int64_t>("end_mask"),
          node.attr<int64_t>("ellipsis_mask"), node.attr<int64_t>("new_axis_mask"),
          node.attr<int64_t>("shrink_axis_mask")};
}

absl::StatusOr<ResolvedSlice> ResolveStridedSlice(absl::Span<const int64_t> in,
                                                  absl::Span<const int64_t> begin,
                                                  absl::Span<const int64_t> end,
                                                  absl::Span<const int64_t> strides,
                                                  const StridedSliceMasks& m) {
  const size_t n = strides.size();
  if (begin.size() != n || end.size() != n) {
    return errors::InvalidArgument("begin, end and strides must have one length; got ",
                                   begin.size(), ", ", end.size(), " and ", n);
  }
  const uint64_t ellipsis = static_cast<uint64_t>(m.ellipsis);  // no signed overflow below
  if (ellipsis & (ellipsis - 1)) {
    return errors::InvalidArgument("ellipsis_mask ", m.ellipsis, " has more than one bit set");
  }
  const int rank = static_cast<int>(in.size());
  std::vector<DenseDim> dense;
  std::vector<int> order;
  RILL_RETURN_IF_ERROR(Densify(in, begin, end, strides, m, &dense, &order));
  ResolvedSlice r;
  for (int d = 0; d < rank; ++d) {
    int64_t b, size;
    RILL_RETURN_IF_ERROR(ResolveDim(dense[d], in[d], d, &b, &size));
    r.begin.push_back(b);
    r.stride.push_back(dense[d].shrink ? 1 : dense[d].stride);
    r.size.push_back(size);
  }
  for (int k : order) {
    if (k == -2) {
      r.final_dims.push_back(1);
    } else if (!dense[k].shrink) {
      r.final_dims.push_back(r.size[k]);
    }
  }
  if (r.final_dims.size() > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("the slice would have rank ", r.final_dims.size());
  }
  return r;
}

namespace {

// The spec of a kernel's inputs (begin, end, strides at `first`) against `in`.
absl::StatusOr<ResolvedSlice> ResolveInputs(OpKernelContext& ctx, int first,
                                            absl::Span<const int64_t> in) {
  RILL_ASSIGN_OR_RETURN(auto b, IntVectorInput(ctx.input(first), "begin"));
  RILL_ASSIGN_OR_RETURN(auto e, IntVectorInput(ctx.input(first + 1), "end"));
  RILL_ASSIGN_OR_RETURN(auto s, IntVectorInput(ctx.input(first + 2), "strides"));
  return ResolveStridedSlice(in, b, e, s, StridedSliceMasksOf(ctx.node()));
}

// The copy between the full tensor `shape` (its side `full`) and the slice, contiguous.
StridedCopy SliceCopy(const TensorShape& shape, const ResolvedSlice& r, bool into_full) {
  StridedCopy c;
  c.rank = shape.dims();
  int64_t full_stride = 1, slice_stride = 1;
  for (int d = c.rank - 1; d >= 0; --d) {
    c.dims[d] = r.size[d];
    const int64_t strided = r.size[d] > 1 ? r.stride[d] * full_stride : 0;
    (into_full ? c.dst_strides : c.src_strides)[d] = strided;
    (into_full ? c.src_strides : c.dst_strides)[d] = slice_stride;
    (into_full ? c.dst_base : c.src_base) += r.begin[d] * full_stride;
    full_stride *= shape.dim_size(d);
    slice_stride *= r.size[d];
  }
  return c;
}

}  // namespace

absl::StatusOr<CopyJob> PrepareStridedSlice(OpKernelContext& ctx) {
  const TensorShape& in = ctx.input(0).shape();
  RILL_ASSIGN_OR_RETURN(ResolvedSlice r, ResolveInputs(ctx, 1, in.dim_sizes()));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(r.final_dims));
  CopyJob job;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &job.out));
  job.done = shape.num_elements() == 0;
  job.copy = SliceCopy(in, r, false);
  return job;
}

absl::StatusOr<CopyJob> PrepareStridedSliceGrad(OpKernelContext& ctx) {
  if (ctx.input(0).dims() != 1) return errors::InvalidArgument("shape must be a vector");
  RILL_ASSIGN_OR_RETURN(TensorShape shape, shape_fns::ShapeFromTensor(ctx.input(0), "shape"));
  RILL_ASSIGN_OR_RETURN(ResolvedSlice r, ResolveInputs(ctx, 1, shape.dim_sizes()));
  const Tensor& dy = ctx.input(4);
  if (dy.shape().dim_sizes() != absl::Span<const int64_t>(r.final_dims)) {
    return errors::InvalidArgument("dy has shape ", dy.shape().DebugString(), " but the slice of ",
                                   shape.DebugString(), " has shape ",
                                   shape_util::Str(r.final_dims));
  }
  CopyJob job;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &job.out));
  job.zero_fill = true;
  job.source = 4;
  job.copy = SliceCopy(shape, r, true);
  job.done = shape.num_elements() == 0;
  return job;
}

}  // namespace rill
