#include "rill/core/gather.h"

#include <cstring>

#include "absl/strings/str_join.h"
#include "rill/core/graph.h"
#include "rill/core/limits.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

using shape_util::Str;

int64_t Product(absl::Span<const int64_t> d, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to; ++i) n *= d[i];
  return n;
}

template <typename Index>
absl::Status CheckIndices(const Index* idx, int64_t count, int64_t limit, bool drop_negative,
                          const char* what) {
  for (int64_t i = 0; i < count; ++i) {
    if (idx[i] >= limit || (!drop_negative && idx[i] < 0)) {
      return errors::InvalidArgument(what, "[", i, "] = ", static_cast<int64_t>(idx[i]),
                                     " is not in [0, ", limit, ")");
    }
  }
  return absl::OkStatus();
}

int64_t IndexAt(const Tensor& t, int64_t i) {
  return t.dtype() == DT_INT32 ? t.base<int32_t>()[i] : t.base<int64_t>()[i];
}

}  // namespace

absl::Status CheckIndexValues(const Tensor& t, int64_t limit, bool drop_negative,
                              const char* what) {
  if (t.dtype() == DT_INT32) {
    return CheckIndices(t.base<int32_t>(), t.NumElements(), limit, drop_negative, what);
  }
  return CheckIndices(t.base<int64_t>(), t.NumElements(), limit, drop_negative, what);
}

absl::StatusOr<shape_util::Dims> GatherDims(absl::Span<const int64_t> params,
                                            absl::Span<const int64_t> indices, int64_t axis,
                                            int64_t batch_dims) {
  const int pr = static_cast<int>(params.size()), ir = static_cast<int>(indices.size());
  if (pr == 0) return errors::InvalidArgument("params must have rank >= 1, got a scalar");
  RILL_ASSIGN_OR_RETURN(int ax, shape_fns::CanonicalAxis(axis, pr, "axis"));
  const int64_t b = batch_dims < 0 ? batch_dims + ir : batch_dims;
  // TensorFlow's words, then the shapes.
  if (b < 0 || b > ir) {
    return errors::InvalidArgument("Expected batch_dims in the range [-", ir, ", ", ir,
                                   "], but got ", batch_dims, " (params ", Str(params),
                                   ", indices ", Str(indices), ")");
  }
  if (b > ax) {
    return errors::InvalidArgument("batch_dims (", batch_dims,
                                   ") must be less than or equal to axis (", ax, ") (params ",
                                   Str(params), ", indices ", Str(indices), ")");
  }
  for (int64_t d = 0; d < b; ++d) {
    if (params[d] >= 0 && indices[d] >= 0 && params[d] != indices[d]) {
      return errors::InvalidArgument("params ", Str(params), " and indices ", Str(indices),
                                     " differ in batch dimension ", d);
    }
  }
  shape_util::Dims out(params.begin(), params.begin() + ax);
  out.insert(out.end(), indices.begin() + b, indices.end());
  out.insert(out.end(), params.begin() + ax + 1, params.end());
  if (out.size() > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("gathering ", Str(indices), " from ", Str(params),
                                   " gives rank ", out.size(), "; at most ", kMaxTensorRank);
  }
  return out;
}

int64_t BatchDimsAttr(const OpKernelConstruction& c) {
  return c.node().type_string() == "GatherV2" ? c.node().attr<int64_t>("batch_dims") : 0;
}

absl::StatusOr<GatherGeometry> PrepareGather(OpKernelContext& ctx, int64_t batch_dims, Tensor** out,
                                             bool check_indices) {
  const Tensor& params = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  int64_t axis = 0;
  if (ctx.num_inputs() == 3) {
    if (ctx.input(2).dims() != 0) {
      return errors::InvalidArgument("axis must be a scalar, got shape ",
                                     ctx.input(2).shape().DebugString());
    }
    RILL_ASSIGN_OR_RETURN(auto a, shape_fns::IntValues(ctx.input(2), "axis"));
    axis = a[0];
  }
  const auto p = params.shape().dim_sizes(), i = indices.shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, GatherDims(p, i, axis, batch_dims));
  const int ax = static_cast<int>(axis < 0 ? axis + p.size() : axis);
  const size_t b = static_cast<size_t>(batch_dims < 0 ? batch_dims + i.size() : batch_dims);
  GatherGeometry g;
  g.batch = Product(p, 0, b);
  g.outer = Product(p, b, ax);
  g.n = p[ax];
  g.k = Product(i, b, i.size());
  g.inner = Product(p, ax + 1, p.size());
  if (check_indices) RILL_RETURN_IF_ERROR(CheckIndexValues(indices, g.n, false, "indices"));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  return g;
}

void RunGatherOnHost(const GatherGeometry& g, size_t es, const void* params, const Tensor& indices,
                     void* out) {
  const char* src = static_cast<const char*>(params);
  char* dst = static_cast<char*>(out);
  const size_t row = static_cast<size_t>(g.inner) * es;
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t o = 0; o < g.outer; ++o) {
      const char* block = src + ((b * g.outer + o) * g.n) * row;
      for (int64_t j = 0; j < g.k; ++j, dst += row) {
        std::memcpy(dst, block + IndexAt(indices, b * g.k + j) * row, row);
      }
    }
  }
}

absl::StatusOr<shape_util::Dims> SegmentSumDims(absl::Span<const int64_t> data,
                                                absl::Span<const int64_t> ids,
                                                int64_t num_segments) {
  if (num_segments < -1) {  // -1: not known at construction
    return errors::InvalidArgument("num_segments must be >= 0, got ", num_segments);
  }
  bool prefix = ids.size() <= data.size();
  for (size_t d = 0; prefix && d < ids.size(); ++d) {
    prefix = ids[d] < 0 || data[d] < 0 || ids[d] == data[d];
  }
  if (!prefix) {
    return errors::InvalidArgument("segment_ids ", Str(ids), " must be a prefix of data's shape ",
                                   Str(data));
  }
  shape_util::Dims out = {num_segments};
  out.insert(out.end(), data.begin() + ids.size(), data.end());
  return out;
}

absl::StatusOr<SegmentGeometry> PrepareSegmentSum(OpKernelContext& ctx, Tensor** out,
                                                  bool check_ids) {
  const Tensor &data = ctx.input(0), &ids = ctx.input(1), &num = ctx.input(2);
  if (num.dims() != 0) {
    return errors::InvalidArgument("num_segments must be a scalar, got shape ",
                                   num.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto n, shape_fns::IntValues(num, "num_segments"));
  if (n[0] < 0) return errors::InvalidArgument("num_segments must be >= 0, got ", n[0]);
  const auto d = data.shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, SegmentSumDims(d, ids.shape().dim_sizes(), n[0]));
  if (check_ids) RILL_RETURN_IF_ERROR(CheckIndexValues(ids, n[0], true, "segment_ids"));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  SegmentGeometry g;
  g.ids = ids.NumElements();
  g.inner = Product(d, ids.dims(), d.size());
  g.segments = n[0];
  return g;
}

}  // namespace rill
