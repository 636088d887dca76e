// CPU kernels of the tf.sparse ops whose result is sparse or a reduction
// (ops/sparse_tensor_ops.h): SparseReduceSum/Max and their Sparse forms, SparseAdd and
// SparseAddGrad, SparseReorder and SparseReshape. Entries are grouped by sorting a copy of
// their index rows (row-major order, equal rows kept in order), so inputs need not be in
// canonical order; in canonical order the results are TensorFlow's.
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "rill/core/checked_math.h"
#include "rill/core/sparse_tensor.h"

namespace rill::cpu {
namespace {

// Index rows of `rank` columns in a buffer of their own, viewed as a sparse operand.
struct Rows {
  std::vector<int64_t> data;
  SparseOperand view(int64_t nnz, int64_t rank) const {
    SparseOperand op;
    op.indices = data.data();
    op.nnz = nnz;
    op.rank = rank;
    return op;
  }
};

// Copies `rows` of `from` (in that order) to the int64 output `out` [rows.size(), rank].
absl::Status EmitRows(OpKernelContext& ctx, int out, const SparseOperand& from,
                      const std::vector<int64_t>& rows) {
  Tensor* t;
  RILL_RETURN_IF_ERROR(
      ctx.allocate_output(out, TensorShape({static_cast<int64_t>(rows.size()), from.rank}), &t));
  int64_t* o = t->base<int64_t>();
  for (size_t i = 0; i < rows.size(); ++i) {
    std::copy(from.row(rows[i]), from.row(rows[i]) + from.rank, o + i * from.rank);
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status EmitValues(OpKernelContext& ctx, int out, const std::vector<T>& v) {
  Tensor* t;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(out, TensorShape({static_cast<int64_t>(v.size())}), &t));
  std::copy(v.begin(), v.end(), t->base<T>());
  return absl::OkStatus();
}

// A reduction's plan: each entry's index in the reduced shape, and that shape.
struct Reduction {
  Rows rows;  // [nnz, out_rank]
  int64_t out_rank = 0;
  std::vector<int64_t> out_dims;
};

absl::StatusOr<Reduction> PlanReduction(OpKernelContext& ctx, const SparseOperand& sp,
                                        bool keep_dims) {
  RILL_ASSIGN_OR_RETURN(const std::vector<bool> reduced, ReducedAxes(ctx.input(3), sp.rank));
  Reduction r;
  for (int64_t d = 0; d < sp.rank; ++d) {
    if (!reduced[d] || keep_dims) r.out_dims.push_back(reduced[d] ? 1 : sp.dims[d]);
  }
  r.out_rank = static_cast<int64_t>(r.out_dims.size());
  r.rows.data.reserve(static_cast<size_t>(sp.nnz * r.out_rank));
  for (int64_t i = 0; i < sp.nnz; ++i) {
    for (int64_t d = 0; d < sp.rank; ++d) {
      if (!reduced[d]) r.rows.data.push_back(sp.row(i)[d]);
      if (reduced[d] && keep_dims) r.rows.data.push_back(0);
    }
  }
  return r;
}

template <typename T, bool kMax>
T Combine(T acc, T v) {
  if constexpr (kMax) return v > acc || v != v ? v : acc;  // a NaN wins, as Max's
  return acc + v;
}

// SparseReduceSum/Max (kSparse false: a dense result, 0 where no entry lands) and their
// Sparse forms (the groups that hold entries, in row-major order).
template <typename T, bool kMax, bool kSparse>
class SparseReduceOp : public OpKernel {
 public:
  explicit SparseReduceOp(OpKernelConstruction& c)
      : OpKernel(c), keep_dims_(c.node().attr<bool>("keep_dims")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparseOperand sp, SparseOperandOf(ctx, 0, 1, 2, "input"));
    RILL_ASSIGN_OR_RETURN(const Reduction r, PlanReduction(ctx, sp, keep_dims_));
    const T* v = ctx.input(1).base<T>();
    const SparseOperand out = r.rows.view(sp.nnz, r.out_rank);
    if constexpr (!kSparse) {
      RILL_ASSIGN_OR_RETURN(const TensorShape shape, TensorShape::Build(r.out_dims));
      Tensor* t;
      RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &t));
      T* o = t->base<T>();
      std::fill(o, o + t->NumElements(), T(0));
      std::vector<bool> seen(kMax ? t->NumElements() : 0, false);
      for (int64_t i = 0; i < sp.nnz; ++i) {
        int64_t at = 0;
        for (int64_t d = 0; d < r.out_rank; ++d) at = at * r.out_dims[d] + out.row(i)[d];
        if (kMax && !seen[at]) {
          o[at] = v[i];
          seen[at] = true;
        } else {
          o[at] = Combine<T, kMax>(o[at], v[i]);
        }
      }
      return absl::OkStatus();
    }
    const std::vector<int64_t> order = out.SortedOrder();
    std::vector<int64_t> firsts;
    std::vector<T> values;
    for (size_t k = 0; k < order.size(); ++k) {
      const int64_t i = order[k];
      if (k > 0 && out.Same(i, out, order[k - 1])) {
        values.back() = Combine<T, kMax>(values.back(), v[i]);
      } else {
        firsts.push_back(i);
        values.push_back(v[i]);
      }
    }
    RILL_RETURN_IF_ERROR(EmitRows(ctx, 0, out, firsts));
    RILL_RETURN_IF_ERROR(EmitValues(ctx, 1, values));
    return EmitValues(ctx, 2, r.out_dims);
  }

 private:
  bool keep_dims_;
};

template <typename T>
T Magnitude(T x) {
  return x < T(0) ? T(0) - x : x;
}

// a's and b's entries merged in row-major order; an index held more than once is one entry
// of the sum, kept when |sum| >= thresh (TensorFlow's rule for an index both hold).
template <typename T>
class SparseAddOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparsePair pair, SparsePairOf(ctx));
    const SparseOperand &a = pair.a, &b = pair.b;
    if (ctx.input(6).dims() != 0) {
      return errors::InvalidArgument("thresh must be a scalar, got shape ",
                                     ctx.input(6).shape().DebugString());
    }
    const T thresh = *ctx.input(6).base<T>();
    const T *av = ctx.input(1).base<T>(), *bv = ctx.input(4).base<T>();
    // All entries as (operand, row), sorted: a's and b's sorted orders merged.
    const std::vector<int64_t> ao = a.SortedOrder(), bo = b.SortedOrder();
    std::vector<std::pair<const SparseOperand*, int64_t>> all;
    all.reserve(ao.size() + bo.size());
    size_t i = 0, j = 0;
    while (i < ao.size() || j < bo.size()) {
      const bool take_b = i == ao.size() || (j < bo.size() && b.Less(bo[j], a, ao[i]));
      all.emplace_back(take_b ? &b : &a, take_b ? bo[j++] : ao[i++]);
    }
    Rows rows;
    std::vector<T> values;
    for (size_t k = 0; k < all.size();) {
      size_t end = k + 1;
      T sum = (all[k].first == &a ? av : bv)[all[k].second];
      while (end < all.size() &&
             all[end].first->Same(all[end].second, *all[k].first, all[k].second)) {
        sum += (all[end].first == &a ? av : bv)[all[end].second];
        ++end;
      }
      if (end == k + 1 || thresh <= Magnitude(sum)) {
        const int64_t* row = all[k].first->row(all[k].second);
        rows.data.insert(rows.data.end(), row, row + a.rank);
        values.push_back(sum);
      }
      k = end;
    }
    const int64_t n = static_cast<int64_t>(values.size());
    std::vector<int64_t> every(n);
    for (int64_t e = 0; e < n; ++e) every[e] = e;
    RILL_RETURN_IF_ERROR(EmitRows(ctx, 0, rows.view(n, a.rank), every));
    RILL_RETURN_IF_ERROR(EmitValues(ctx, 1, values));
    return EmitValues(ctx, 2, a.dims);
  }
};

// Index rows of input `i` (a matrix of int64), as a view checked against `rank` (-1: any).
absl::StatusOr<SparseOperand> RowsOf(const OpKernelContext& ctx, int i, const char* name,
                                     int64_t rank) {
  const Tensor& t = ctx.input(i);
  if (t.dims() != 2 || (rank >= 0 && t.dim_size(1) != rank)) {
    return errors::InvalidArgument(name, " must be a matrix of index rows",
                                   rank >= 0 ? absl::StrCat(" of ", rank, " columns") : "",
                                   ", got shape ", t.shape().DebugString());
  }
  return IndexRows(t);
}

// Each entry of a and b gets the gradient of the sum's entry at its index (found by a
// binary search of the sum's sorted rows), or 0 where the sum dropped it.
template <typename T>
class SparseAddGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparseOperand sum, RowsOf(ctx, 3, "sum_indices", -1));
    RILL_ASSIGN_OR_RETURN(const SparseOperand a, RowsOf(ctx, 1, "a_indices", sum.rank));
    RILL_ASSIGN_OR_RETURN(const SparseOperand b, RowsOf(ctx, 2, "b_indices", sum.rank));
    const Tensor& g = ctx.input(0);
    if (g.dims() != 1 || g.dim_size(0) != sum.nnz) {
      return errors::InvalidArgument("backprop_val_grad must be a vector of ", sum.nnz,
                                     " entries (one per sum_indices row), got shape ",
                                     g.shape().DebugString());
    }
    const RowFinder finder(sum);
    int out = 0;
    for (const SparseOperand* x : {&a, &b}) {
      Tensor* t;
      RILL_RETURN_IF_ERROR(ctx.allocate_output(out++, TensorShape({x->nnz}), &t));
      for (int64_t i = 0; i < x->nnz; ++i) {
        const int64_t at = finder.Find(x->row(i));
        t->base<T>()[i] = at >= 0 ? g.base<T>()[at] : T(0);
      }
    }
    return absl::OkStatus();
  }
};

// The entries in row-major order; values move by their size in bytes (any dtype).
class SparseReorderOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparseOperand sp, SparseOperandOf(ctx, 0, 1, 2, "input"));
    const std::vector<int64_t> order = sp.SortedOrder();
    RILL_RETURN_IF_ERROR(EmitRows(ctx, 0, sp, order));
    const Tensor& values = ctx.input(1);
    Tensor* t;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, values.shape(), &t));
    const size_t size = static_cast<size_t>(DataTypeSize(values.dtype()));
    const char* from = static_cast<const char*>(values.data());
    char* to = static_cast<char*>(t->data());
    for (size_t k = 0; k < order.size(); ++k) {
      std::memcpy(to + k * size, from + static_cast<size_t>(order[k]) * size, size);
    }
    return absl::OkStatus();
  }
};

// new_shape with its -1 (if any) inferred, for `count` elements.
absl::StatusOr<std::vector<int64_t>> NewShape(const Tensor& t, int64_t count,
                                              const std::vector<int64_t>& from) {
  if (t.dims() != 1) {
    return errors::InvalidArgument("new_shape must be a vector, got shape ",
                                   t.shape().DebugString());
  }
  std::vector<int64_t> dims(t.base<int64_t>(), t.base<int64_t>() + t.NumElements());
  int64_t known = 1, unknown = -1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == -1 && unknown < 0) {
      unknown = static_cast<int64_t>(d);
      continue;
    }
    if (dims[d] < 0) {
      return errors::InvalidArgument("new_shape ", DimsString(dims),
                                     " may hold one -1 and no other negative size");
    }
    RILL_ASSIGN_OR_RETURN(known, checked::MulOr(known, dims[d], "new_shape's element count"));
  }
  if (unknown >= 0 && known > 0 && count % known == 0) dims[unknown] = count / known;
  if (unknown >= 0 && known == 0 && count == 0) dims[unknown] = 0;  // TensorFlow's choice
  if ((unknown >= 0 && dims[unknown] < 0) || (unknown < 0 && known != count)) {
    return errors::InvalidArgument("cannot reshape a sparse tensor of dense shape ",
                                   DimsString(from), " (", count, " elements) to ",
                                   DimsString(dims));
  }
  return dims;
}

class SparseReshapeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparseOperand sp, SparseOperandOf(ctx, 0, -1, 1, "input"));
    int64_t count = 1;
    for (int64_t d : sp.dims) {
      RILL_ASSIGN_OR_RETURN(count, checked::MulOr(count, d, "input_shape's element count"));
    }
    RILL_ASSIGN_OR_RETURN(const std::vector<int64_t> dims, NewShape(ctx.input(2), count, sp.dims));
    const int64_t rank = static_cast<int64_t>(dims.size());
    Tensor* t;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({sp.nnz, rank}), &t));
    int64_t* o = t->base<int64_t>();
    for (int64_t i = 0; i < sp.nnz; ++i) {
      int64_t at = 0;  // < count: every index is inside input_shape
      for (int64_t d = 0; d < sp.rank; ++d) at = at * sp.dims[d] + sp.row(i)[d];
      for (int64_t d = rank - 1; d >= 0; --d) {
        o[i * rank + d] = at % dims[d];
        at /= dims[d];
      }
    }
    return EmitValues(ctx, 1, dims);
  }
};

#define RILL_REG_SPARSE_REDUCE(T, unused)                                                       \
  RILL_REGISTER_KERNEL("SparseReduceSum", DEVICE_CPU, "T", DataTypeToEnum<T>::value,            \
                       SparseReduceOp<T, false, false>);                                        \
  RILL_REGISTER_KERNEL("SparseReduceMax", DEVICE_CPU, "T", DataTypeToEnum<T>::value,            \
                       SparseReduceOp<T, true, false>);                                         \
  RILL_REGISTER_KERNEL("SparseReduceSumSparse", DEVICE_CPU, "T", DataTypeToEnum<T>::value,      \
                       SparseReduceOp<T, false, true>);                                         \
  RILL_REGISTER_KERNEL("SparseReduceMaxSparse", DEVICE_CPU, "T", DataTypeToEnum<T>::value,      \
                       SparseReduceOp<T, true, true>);                                          \
  RILL_REGISTER_KERNEL("SparseAdd", DEVICE_CPU, "T", DataTypeToEnum<T>::value, SparseAddOp<T>); \
  RILL_REGISTER_KERNEL("SparseAddGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,              \
                       SparseAddGradOp<T>);
RILL_FOR_SIGNED_TYPES(RILL_REG_SPARSE_REDUCE, 0)
#undef RILL_REG_SPARSE_REDUCE
RILL_REGISTER_KERNEL("SparseReorder", DEVICE_CPU, "", DT_INVALID, SparseReorderOp);
RILL_REGISTER_KERNEL("SparseReshape", DEVICE_CPU, "", DT_INVALID, SparseReshapeOp);

}  // namespace
}  // namespace rill::cpu
