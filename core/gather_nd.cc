#include "rill/core/gather_nd.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "absl/strings/str_join.h"
#include "rill/core/kernel_util.h"
#include "rill/core/limits.h"
#include "rill/core/shape_inference.h"
#include "rill/core/variable.h"

namespace rill {
namespace {

// Equal dims, a -1 (unknown) matching anything.
bool SameDims(absl::Span<const int64_t> a, absl::Span<const int64_t> b) {
  if (a.size() != b.size()) return false;
  for (size_t d = 0; d < a.size(); ++d) {
    if (a[d] >= 0 && b[d] >= 0 && a[d] != b[d]) return false;
  }
  return true;
}

absl::Status CheckTuples(absl::Span<const int64_t> indices, size_t rank, const char* of) {
  if (indices.empty()) return errors::InvalidArgument("indices must have rank >= 1, got []");
  const int64_t k = indices.back();
  if (k >= 0 && static_cast<size_t>(k) > rank) {
    return errors::InvalidArgument("index tuples of ", k, " entries (indices ",
                                   shape_util::Str(indices), ") for ", of, " of rank ", rank);
  }
  return absl::OkStatus();
}

// "indices[i,j] = [a, b] does not index into <into> [dims]: ...", TensorFlow's words for
// tuple `r` (whose place in indices' leading dims is i,j) with entry `e` out of range.
absl::Status TupleOutside(const Tensor& indices, absl::Span<const int64_t> v, int64_t r, int64_t e,
                          absl::Span<const int64_t> dims, const char* into) {
  const int64_t k = indices.dim_size(indices.dims() - 1);
  std::vector<int64_t> place(static_cast<size_t>(indices.dims() - 1));
  for (int64_t d = indices.dims() - 2, rest = r; d >= 0; --d) {
    place[static_cast<size_t>(d)] = rest % indices.dim_size(static_cast<int>(d));
    rest /= indices.dim_size(static_cast<int>(d));
  }
  std::vector<int64_t> tuple(v.begin() + r * k, v.begin() + (r + 1) * k);
  return errors::InvalidArgument("indices[", absl::StrJoin(place, ","), "] = [",
                                 absl::StrJoin(tuple, ", "), "] does not index into ", into, " ",
                                 shape_util::Str(dims), ": entry ", e, ", ", tuple[e],
                                 ", is outside [0, ", dims[e], ")");
}

// Each tuple of `indices` [rows, K] as a slice number of `dims`' first K dims (`into`
// names them in errors: "param shape", "shape").
absl::StatusOr<NdGeometry> Flatten(const Tensor& indices, absl::Span<const int64_t> dims,
                                   const char* into, Tensor* flat) {
  const int64_t k = indices.dim_size(indices.dims() - 1);
  NdGeometry g;
  g.rows = 1;  // one tuple per position of indices[:-1] (an empty tuple when K is 0)
  for (int d = 0; d + 1 < indices.dims(); ++d) g.rows *= indices.dim_size(d);
  g.slices = 1;
  for (int64_t d = 0; d < k; ++d) g.slices *= dims[d];
  for (size_t d = k; d < dims.size(); ++d) g.inner *= dims[d];
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::AllIntValues(indices, "indices"));
  *flat = Tensor(DT_INT64, TensorShape({g.rows}));
  int64_t* out = flat->base<int64_t>();
  for (int64_t r = 0; r < g.rows; ++r) {
    int64_t at = 0;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t i = v[r * k + j];
      if (i < 0 || i >= dims[j]) return TupleOutside(indices, v, r, j, dims, into);
      at = at * dims[j] + i;
    }
    out[r] = at;
  }
  return g;
}

// Each index of `indices` (any shape) as a row of `dims`' first dim, TensorFlow's words
// when one is outside it (the position is indices' flat one, as TensorFlow's).
absl::StatusOr<NdGeometry> FlattenRows(const Tensor& indices, absl::Span<const int64_t> dims,
                                       Tensor* flat) {
  NdGeometry g;
  g.rows = indices.NumElements();
  g.slices = dims[0];
  for (size_t d = 1; d < dims.size(); ++d) g.inner *= dims[d];
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::AllIntValues(indices, "indices"));
  *flat = Tensor(DT_INT64, TensorShape({g.rows}));
  int64_t* out = flat->base<int64_t>();
  for (int64_t r = 0; r < g.rows; ++r) {
    if (v[r] < 0 || v[r] >= dims[0]) {
      return errors::InvalidArgument("indices[", r, "] = ", v[r], " is not in [0, ", dims[0],
                                     "): a row of params.shape ", shape_util::Str(dims));
    }
    out[r] = v[r];
  }
  return g;
}

}  // namespace

absl::StatusOr<shape_util::Dims> GatherNdDims(absl::Span<const int64_t> params,
                                              absl::Span<const int64_t> indices) {
  RILL_RETURN_IF_ERROR(CheckTuples(indices, params.size(), "params"));
  const int64_t k = indices.back();
  if (k < 0) return errors::Internal("GatherNdDims needs the tuple length, indices' last dim");
  shape_util::Dims out(indices.begin(), indices.end() - 1);
  out.insert(out.end(), params.begin() + k, params.end());
  if (out.size() > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("the result of gathering ", shape_util::Str(params), " by ",
                                   shape_util::Str(indices), " has rank ", out.size(), "; at most ",
                                   kMaxTensorRank, " is supported");
  }
  return out;
}

absl::Status CheckScatterNd(absl::Span<const int64_t> indices, absl::Span<const int64_t> updates,
                            absl::Span<const int64_t> shape) {
  RILL_RETURN_IF_ERROR(CheckTuples(indices, shape.size(), "shape"));
  const int64_t k = indices.back();
  if (k < 0) return absl::OkStatus();
  shape_util::Dims want(indices.begin(), indices.end() - 1);
  want.insert(want.end(), shape.begin() + k, shape.end());
  if (!SameDims(want, updates)) {
    return errors::InvalidArgument("updates must have shape ", shape_util::Str(want),
                                   " (indices[:-1] + shape[K:]), got ", shape_util::Str(updates));
  }
  return absl::OkStatus();
}

absl::Status CheckScatterRows(absl::Span<const int64_t> indices, absl::Span<const int64_t> updates,
                              absl::Span<const int64_t> var) {
  if (var.empty()) {
    return errors::InvalidArgument("the variable must have rank >= 1 to scatter rows into, got []");
  }
  if (updates.empty()) return absl::OkStatus();  // one value for every indexed element
  shape_util::Dims want(indices.begin(), indices.end());
  want.insert(want.end(), var.begin() + 1, var.end());
  if (!SameDims(want, updates)) {
    return errors::InvalidArgument(
        "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got "
        "updates.shape ",
        shape_util::Str(updates), ", indices.shape ", shape_util::Str(indices), ", params.shape ",
        shape_util::Str(var), ": updates must have shape ", shape_util::Str(want), " or []");
  }
  return absl::OkStatus();
}

absl::StatusOr<NdGeometry> PrepareGatherNd(OpKernelContext& ctx, Tensor** out, Tensor* flat) {
  const auto params = ctx.input(0).shape().dim_sizes();
  const Tensor& indices = ctx.input(1);
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, GatherNdDims(params, indices.shape().dim_sizes()));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  return Flatten(indices, params, "param shape", flat);
}

absl::StatusOr<NdGeometry> PrepareScatterNd(OpKernelContext& ctx, Tensor** out, Tensor* flat) {
  const Tensor& indices = ctx.input(0);
  const Tensor& shape_t = ctx.input(2);
  if (shape_t.dims() != 1) {
    return errors::InvalidArgument("shape must be a vector, got shape ",
                                   shape_t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(TensorShape shape, shape_fns::ShapeFromTensor(shape_t, "shape"));
  RILL_RETURN_IF_ERROR(CheckScatterNd(indices.shape().dim_sizes(), ctx.input(1).shape().dim_sizes(),
                                      shape.dim_sizes()));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  return Flatten(indices, shape.dim_sizes(), "shape", flat);
}

absl::StatusOr<NdGeometry> PrepareTensorScatter(OpKernelContext& ctx, Tensor** out, Tensor* flat) {
  const Tensor& tensor = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  RILL_RETURN_IF_ERROR(CheckScatterNd(indices.shape().dim_sizes(), ctx.input(2).shape().dim_sizes(),
                                      tensor.shape().dim_sizes()));
  RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, tensor.shape(), out));
  return Flatten(indices, tensor.shape().dim_sizes(), "shape", flat);
}

absl::StatusOr<NdGeometry> PrepareVariableScatter(const Tensor& var, const Tensor& indices,
                                                  const Tensor& updates, bool nd, Tensor* flat) {
  if (nd) {
    RILL_RETURN_IF_ERROR(CheckScatterNd(indices.shape().dim_sizes(), updates.shape().dim_sizes(),
                                        var.shape().dim_sizes()));
    return Flatten(indices, var.shape().dim_sizes(), "shape", flat);
  }
  RILL_RETURN_IF_ERROR(CheckScatterRows(indices.shape().dim_sizes(), updates.shape().dim_sizes(),
                                        var.shape().dim_sizes()));
  return FlattenRows(indices, var.shape().dim_sizes(), flat);
}

absl::StatusOr<NdGeometry> PrepareVariableScatter(OpKernelContext& ctx, Var& var, bool nd,
                                                  Tensor* flat) {
  const Tensor& cur = var.value();
  if (!cur.IsInitialized()) {
    return errors::FailedPrecondition("Attempting to use uninitialized value ", var.name());
  }
  absl::StatusOr<NdGeometry> g = PrepareVariableScatter(cur, ctx.input(1), ctx.input(2), nd, flat);
  if (!g.ok()) {
    return errors::Annotate(g.status(),
                            absl::StrCat(ctx.node().DebugName(), " on variable '", var.name(),
                                         "' of shape ", cur.shape().DebugString(), ": "));
  }
  return g;
}

ScatterGroups GroupRowsBySlice(const Tensor& flat) {
  const int64_t rows = flat.NumElements();
  const int64_t* at = flat.base<int64_t>();
  std::vector<int64_t> order(rows);
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [at](int64_t a, int64_t b) { return at[a] < at[b]; });
  std::vector<int64_t> starts, targets;
  for (int64_t j = 0; j < rows; ++j) {
    if (j == 0 || at[order[j]] != at[order[j - 1]]) {
      starts.push_back(j);
      targets.push_back(at[order[j]]);
    }
  }
  starts.push_back(rows);
  ScatterGroups g;
  g.groups = static_cast<int64_t>(targets.size());
  auto vec = [](const std::vector<int64_t>& v) {
    Tensor t(DT_INT64, TensorShape({static_cast<int64_t>(v.size())}));
    std::copy(v.begin(), v.end(), t.base<int64_t>());
    return t;
  };
  g.order = vec(order);
  g.starts = vec(starts);
  g.targets = vec(targets);
  return g;
}

}  // namespace rill
