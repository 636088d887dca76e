// Sparse operands' checks (core/sparse_tensor.h).
#include "rill/core/sparse_tensor.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_join.h"

namespace rill {
namespace {

// The shape `s` of input `name` has rank `want` (when its rank is known).
absl::Status RankIs(const PartialTensorShape& s, int want, const std::string& name) {
  if (s.unknown_rank() || s.dims() == want) return absl::OkStatus();
  return errors::InvalidArgument(name, " must be a ", want == 2 ? "matrix" : "vector",
                                 ", got shape ", s.DebugString());
}

// Known sizes `a` and `b` (-1: unknown) agree.
absl::Status SizesAgree(int64_t a, int64_t b, const std::string& what) {
  if (a < 0 || b < 0 || a == b) return absl::OkStatus();
  return errors::InvalidArgument(what, ": ", a, " vs. ", b);
}

// Input `part` ("indices", "values", "shape") of the operand `what` ("a": "a_indices"; "":
// "indices").
std::string NameOf(const std::string& what, const char* part) {
  return what.empty() ? part : what + "_" + part;
}

int64_t DimOf(const PartialTensorShape& s, int d) {
  return s.unknown_rank() || s.dims() <= d ? -1 : s.dim_size(d);
}

}  // namespace

absl::StatusOr<int64_t> SparseSplitAxis(int64_t split_dim, int64_t rank) {
  if (split_dim < -rank || split_dim >= rank) {
    return errors::InvalidArgument("split_dim ", split_dim, " is out of range [", -rank, ", ", rank,
                                   ")");
  }
  return split_dim < 0 ? split_dim + rank : split_dim;
}

std::string DimsString(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

absl::Status CheckSparseShapes(const InferenceContext& c, int indices, int values, int shape,
                               const std::string& what, int64_t* rank) {
  const PartialTensorShape &ind = c.input_shape(indices), &sh = c.input_shape(shape);
  RILL_RETURN_IF_ERROR(RankIs(ind, 2, what + "_indices"));
  RILL_RETURN_IF_ERROR(RankIs(sh, 1, what + "_shape"));
  if (values >= 0) {
    const PartialTensorShape& val = c.input_shape(values);
    RILL_RETURN_IF_ERROR(RankIs(val, 1, what + "_values"));
    RILL_RETURN_IF_ERROR(SizesAgree(DimOf(ind, 0), DimOf(val, 0),
                                    what + "_indices and " + what + "_values differ in entries"));
  }
  RILL_RETURN_IF_ERROR(SizesAgree(DimOf(ind, 1), DimOf(sh, 0),
                                  what + "_indices' columns and " + what + "_shape's rank differ"));
  *rank = DimOf(ind, 1) >= 0 ? DimOf(ind, 1) : DimOf(sh, 0);
  return absl::OkStatus();
}

bool SparseOperand::Less(int64_t i, const SparseOperand& other, int64_t j) const {
  const int64_t *a = row(i), *b = other.row(j);
  return std::lexicographical_compare(a, a + rank, b, b + rank);
}

bool SparseOperand::Same(int64_t i, const SparseOperand& other, int64_t j) const {
  return std::equal(row(i), row(i) + rank, other.row(j));
}

std::vector<int64_t> SparseOperand::SortedOrder() const {
  std::vector<int64_t> order(nnz);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [this](int64_t i, int64_t j) { return Less(i, *this, j); });
  return order;
}

SparseOperand IndexRows(const Tensor& matrix) {
  SparseOperand op;
  op.indices = matrix.base<int64_t>();
  op.nnz = matrix.dim_size(0);
  op.rank = matrix.dim_size(1);
  return op;
}

RowFinder::RowFinder(SparseOperand rows) : rows_(std::move(rows)), order_(rows_.SortedOrder()) {}

int64_t RowFinder::Find(const int64_t* key) const {
  const int64_t rank = rows_.rank;
  const auto at =
      std::lower_bound(order_.begin(), order_.end(), key, [&](int64_t o, const int64_t* k) {
        return std::lexicographical_compare(rows_.row(o), rows_.row(o) + rank, k, k + rank);
      });
  return at != order_.end() && std::equal(key, key + rank, rows_.row(*at)) ? *at : -1;
}

std::string SparseOperand::RowString(int64_t i) const {
  return DimsString(absl::MakeConstSpan(row(i), rank));
}

Tensor AsInt64(const Tensor& t) {
  if (t.dtype() == DT_INT64) return t;
  Tensor out(DT_INT64, t.shape());
  const int32_t* from = t.base<int32_t>();
  int64_t* to = out.base<int64_t>();
  for (int64_t i = 0; i < t.NumElements(); ++i) to[i] = from[i];
  return out;
}

absl::StatusOr<SparseOperand> SparseOperandOf(const OpKernelContext& ctx, int indices, int values,
                                              int shape, const std::string& what) {
  return SparseOperandFrom(ctx.input(indices), values >= 0 ? &ctx.input(values) : nullptr,
                           ctx.input(shape), what);
}

absl::StatusOr<SparseOperand> SparseOperandFrom(const Tensor& ind, const Tensor* values,
                                                const Tensor& sh, const std::string& what) {
  if (ind.dims() != 2) {
    return errors::InvalidArgument(NameOf(what, "indices"), " must be a matrix, got shape ",
                                   ind.shape().DebugString());
  }
  if (sh.dims() != 1) {
    return errors::InvalidArgument(NameOf(what, "shape"), " must be a vector, got shape ",
                                   sh.shape().DebugString());
  }
  SparseOperand op;
  op.indices = ind.base<int64_t>();
  op.nnz = ind.dim_size(0);
  op.rank = ind.dim_size(1);
  op.dims.assign(sh.base<int64_t>(), sh.base<int64_t>() + sh.NumElements());
  if (values != nullptr) {
    const Tensor& val = *values;
    if (val.dims() != 1 || val.dim_size(0) != op.nnz) {
      return errors::InvalidArgument(NameOf(what, "values"), " must be a vector of ", op.nnz,
                                     " entries (one per index row), got shape ",
                                     val.shape().DebugString());
    }
  }
  if (op.rank != static_cast<int64_t>(op.dims.size())) {
    return errors::InvalidArgument(NameOf(what, "indices"), " has rows of ", op.rank, " and ",
                                   NameOf(what, "shape"), " ", DimsString(op.dims), " has rank ",
                                   op.dims.size());
  }
  for (int64_t d : op.dims) {
    if (d < 0) {
      return errors::InvalidArgument(NameOf(what, "shape"), " ", DimsString(op.dims),
                                     " has a negative dimension");
    }
  }
  for (int64_t i = 0; i < op.nnz; ++i) {
    for (int64_t d = 0; d < op.rank; ++d) {
      const int64_t v = op.row(i)[d];
      if (v < 0 || v >= op.dims[d]) {
        return errors::InvalidArgument(NameOf(what, "indices"), "[", i, "] = ", op.RowString(i),
                                       " is out of bounds: need 0 <= index < ",
                                       DimsString(op.dims));
      }
    }
  }
  return op;
}

absl::StatusOr<SparsePair> SparsePairOf(const OpKernelContext& ctx) {
  SparsePair p;
  RILL_ASSIGN_OR_RETURN(p.a, SparseOperandOf(ctx, 0, 1, 2, "a"));
  RILL_ASSIGN_OR_RETURN(p.b, SparseOperandOf(ctx, 3, 4, 5, "b"));
  if (p.a.dims != p.b.dims) {
    return errors::InvalidArgument("the operands differ in dense shape: a_shape ",
                                   DimsString(p.a.dims), " vs. b_shape ", DimsString(p.b.dims));
  }
  return p;
}

absl::StatusOr<std::vector<bool>> ReducedAxes(const Tensor& axes, int64_t rank) {
  if (axes.dims() > 1) {
    return errors::InvalidArgument("reduction_axes must be a scalar or a vector, got shape ",
                                   axes.shape().DebugString());
  }
  std::vector<bool> reduced(rank, false);
  const int32_t* a = axes.base<int32_t>();
  for (int64_t i = 0; i < axes.NumElements(); ++i) {
    if (a[i] < -rank || a[i] >= rank) {
      return errors::InvalidArgument("reduction_axes[", i, "] = ", a[i],
                                     " is out of range for a sparse tensor of rank ", rank,
                                     ": need -", rank, " <= axis < ", rank);
    }
    reduced[a[i] < 0 ? a[i] + rank : a[i]] = true;
  }
  return reduced;
}

}  // namespace rill
