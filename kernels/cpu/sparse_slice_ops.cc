// CPU kernels of SparseSoftmax, SparseSlice, SparseSliceGrad, SparseConcat and
// SparseSparseMaximum/Minimum
// (ops/sparse_tensor_ops.h). Groups of entries come from sorting a copy of their rows, so
// inputs need not be in canonical order; in that order the results are TensorFlow's.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rill/core/checked_math.h"
#include "rill/core/sparse_tensor.h"

namespace rill::cpu {
namespace {

// Softmax over each group of entries that share all but the last index.
template <typename T>
class SparseSoftmaxOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparseOperand sp, SparseOperandOf(ctx, 0, 1, 2, "sp"));
    if (sp.rank < 2) {
      return errors::InvalidArgument(
          "SparseSoftmax needs a sparse tensor of rank >= 2, got sp_shape ", DimsString(sp.dims));
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({sp.nnz}), &out));
    const T* v = ctx.input(1).base<T>();
    T* o = out->base<T>();
    const int64_t lead = sp.rank - 1;  // the indices a group shares
    std::vector<int64_t> order(sp.nnz);
    for (int64_t i = 0; i < sp.nnz; ++i) order[i] = i;
    const auto before = [&](int64_t i, int64_t j) {
      return std::lexicographical_compare(sp.row(i), sp.row(i) + lead, sp.row(j), sp.row(j) + lead);
    };
    std::stable_sort(order.begin(), order.end(), before);
    for (size_t k = 0; k < order.size();) {
      size_t end = k + 1;
      while (end < order.size() && !before(order[k], order[end])) ++end;
      T top = v[order[k]];
      for (size_t e = k; e < end; ++e) top = std::max(top, v[order[e]]);
      T sum = 0;
      for (size_t e = k; e < end; ++e) sum += (o[order[e]] = std::exp(v[order[e]] - top));
      for (size_t e = k; e < end; ++e) o[order[e]] /= sum;
      k = end;
    }
    return absl::OkStatus();
  }
};

absl::StatusOr<std::vector<int64_t>> BoundOf(const Tensor& t, int64_t rank, const char* name) {
  if (t.dims() != 1 || t.dim_size(0) != rank) {
    return errors::InvalidArgument(name, " must be a vector of ", rank,
                                   " entries (the sparse rank), got shape ",
                                   t.shape().DebugString());
  }
  std::vector<int64_t> v(t.base<int64_t>(), t.base<int64_t>() + rank);
  for (int64_t x : v) {
    if (x < 0) return errors::InvalidArgument(name, " ", DimsString(v), " has a negative entry");
  }
  return v;
}

// The entries inside [start, start + size), in input order.
class SparseSliceOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparseOperand sp, SparseOperandOf(ctx, 0, 1, 2, "input"));
    RILL_ASSIGN_OR_RETURN(const std::vector<int64_t> start,
                          BoundOf(ctx.input(3), sp.rank, "start"));
    RILL_ASSIGN_OR_RETURN(const std::vector<int64_t> size, BoundOf(ctx.input(4), sp.rank, "size"));
    std::vector<int64_t> end(sp.rank), shape(sp.rank);
    for (int64_t d = 0; d < sp.rank; ++d) {
      end[d] =
          std::min(sp.dims[d], start[d] > sp.dims[d] - size[d] ? sp.dims[d] : start[d] + size[d]);
      shape[d] = std::max<int64_t>(end[d] - start[d], 0);
    }
    std::vector<int64_t> kept;
    for (int64_t i = 0; i < sp.nnz; ++i) {
      bool in = true;
      for (int64_t d = 0; d < sp.rank && in; ++d)
        in = sp.row(i)[d] >= start[d] && sp.row(i)[d] < end[d];
      if (in) kept.push_back(i);
    }
    const int64_t n = static_cast<int64_t>(kept.size());
    Tensor *indices, *values, *out_shape;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({n, sp.rank}), &indices));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape({n}), &values));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(2, TensorShape({sp.rank}), &out_shape));
    const size_t bytes = static_cast<size_t>(DataTypeSize(values->dtype()));
    for (int64_t k = 0; k < n; ++k) {
      for (int64_t d = 0; d < sp.rank; ++d) {
        indices->base<int64_t>()[k * sp.rank + d] = sp.row(kept[k])[d] - start[d];
      }
      std::memcpy(static_cast<char*>(values->data()) + k * bytes,
                  static_cast<const char*>(ctx.input(1).data()) + kept[k] * bytes, bytes);
    }
    std::copy(shape.begin(), shape.end(), out_shape->base<int64_t>());
    return absl::OkStatus();
  }
};

// Each input entry takes the gradient of the output entry at its index minus start (a
// binary search of the output's sorted rows), or 0.
template <typename T>
class SparseSliceGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &g = ctx.input(0), &in = ctx.input(1), &out_rows = ctx.input(3);
    if (in.dims() != 2 || out_rows.dims() != 2 || out_rows.dim_size(1) != in.dim_size(1) ||
        g.dims() != 1 || g.dim_size(0) != out_rows.dim_size(0)) {
      return errors::InvalidArgument(
          "SparseSliceGrad needs input_indices [N, R], output_indices [M, R] and "
          "backprop_val_grad [M], got ",
          in.shape().DebugString(), ", ", out_rows.shape().DebugString(), " and ",
          g.shape().DebugString());
    }
    const int64_t rank = in.dim_size(1);
    RILL_ASSIGN_OR_RETURN(const std::vector<int64_t> start,
                          BoundOf(ctx.input(2), rank, "input_start"));
    const RowFinder finder(IndexRows(out_rows));
    Tensor* grad;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({in.dim_size(0)}), &grad));
    std::vector<int64_t> shifted(rank);
    for (int64_t i = 0; i < in.dim_size(0); ++i) {
      for (int64_t d = 0; d < rank; ++d) shifted[d] = in.base<int64_t>()[i * rank + d] - start[d];
      const int64_t at = finder.Find(shifted.data());
      grad->base<T>()[i] = at >= 0 ? g.base<T>()[at] : T(0);
    }
    return absl::OkStatus();
  }
};

// The joined dense shape of `ins` along dim d, and each input's offset along it: every
// input's shape must equal the first's but at d.
absl::Status JoinedShape(const std::vector<SparseOperand>& ins, int64_t d,
                         std::vector<int64_t>* shape, std::vector<int64_t>* offsets) {
  *shape = ins[0].dims;
  (*shape)[d] = 0;
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].rank != ins[0].rank) {
      return errors::InvalidArgument("SparseConcat's inputs differ in rank: ", ins[0].rank, " vs. ",
                                     ins[i].rank, " (input ", i, ")");
    }
    std::vector<int64_t> other = ins[i].dims, first = ins[0].dims;
    other[d] = first[d] = 0;
    if (other != first) {
      return errors::InvalidArgument("input", i, "_shape ", DimsString(ins[i].dims),
                                     " does not match input0_shape ", DimsString(ins[0].dims),
                                     " but along concat_dim ", d);
    }
    offsets->push_back((*shape)[d]);
    RILL_ASSIGN_OR_RETURN((*shape)[d],
                          checked::AddOr((*shape)[d], ins[i].dims[d], "the joined size"));
  }
  return absl::OkStatus();
}

// N sparse tensors joined along concat_dim: each one's indices offset by the sizes of the
// ones before it, then all entries in row-major order (a stable sort: equal indices keep
// the inputs' order); values move by their size in bytes (any dtype).
class SparseConcatOp : public OpKernel {
 public:
  explicit SparseConcatOp(OpKernelConstruction& c)
      : OpKernel(c), dim_(c.node().attr<int64_t>("concat_dim")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const int n = ctx.num_inputs() / 3;
    std::vector<SparseOperand> ins;
    for (int i = 0; i < n; ++i) {
      RILL_ASSIGN_OR_RETURN(SparseOperand op,
                            SparseOperandOf(ctx, i, n + i, 2 * n + i, absl::StrCat("input", i)));
      ins.push_back(std::move(op));
    }
    const int64_t rank = ins[0].rank;
    const int64_t d = dim_ < 0 ? dim_ + rank : dim_;
    if (d < 0 || d >= rank) {
      return errors::InvalidArgument("concat_dim ", dim_, " is out of range for rank ", rank);
    }
    std::vector<int64_t> shape, offsets;
    RILL_RETURN_IF_ERROR(JoinedShape(ins, d, &shape, &offsets));
    int64_t total = 0;
    for (const SparseOperand& op : ins) total += op.nnz;
    std::vector<int64_t> rows(static_cast<size_t>(total * rank));
    std::vector<std::pair<int, int64_t>> source;  // (input, entry) per joined entry
    for (int i = 0; i < n; ++i) {
      for (int64_t e = 0; e < ins[i].nnz; ++e) {
        int64_t* row = rows.data() + source.size() * rank;
        std::copy(ins[i].row(e), ins[i].row(e) + rank, row);
        row[d] += offsets[i];
        source.emplace_back(i, e);
      }
    }
    SparseOperand joined;
    joined.indices = rows.data();
    joined.nnz = total;
    joined.rank = rank;
    const std::vector<int64_t> order = joined.SortedOrder();
    Tensor *indices, *values, *out_shape;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({total, rank}), &indices));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape({total}), &values));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(2, TensorShape({rank}), &out_shape));
    const size_t bytes = static_cast<size_t>(DataTypeSize(values->dtype()));
    for (int64_t k = 0; k < total; ++k) {
      const int64_t at = order[k];
      std::copy(joined.row(at), joined.row(at) + rank, indices->base<int64_t>() + k * rank);
      const auto [i, e] = source[at];
      std::memcpy(static_cast<char*>(values->data()) + k * bytes,
                  static_cast<const char*>(ctx.input(n + i).data()) + e * bytes, bytes);
    }
    std::copy(shape.begin(), shape.end(), out_shape->base<int64_t>());
    return absl::OkStatus();
  }

 private:
  int64_t dim_;
};

// The union of a's and b's indices; at each, kMax ? max : min of the values there, with 0
// for an operand that holds none.
template <typename T, bool kMax>
class SparseSparseMinMaxOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparsePair pair, SparsePairOf(ctx));
    const SparseOperand &a = pair.a, &b = pair.b;
    const T *av = ctx.input(1).base<T>(), *bv = ctx.input(4).base<T>();
    const std::vector<int64_t> ao = a.SortedOrder(), bo = b.SortedOrder();
    std::vector<int64_t> rows;
    std::vector<T> values;
    const auto pick = [](T x, T y) { return kMax ? (x > y ? x : y) : (x < y ? x : y); };
    size_t i = 0, j = 0;
    while (i < ao.size() || j < bo.size()) {
      const bool take_a = j == bo.size() || (i < ao.size() && !b.Less(bo[j], a, ao[i]));
      const bool take_b = i == ao.size() || (j < bo.size() && !a.Less(ao[i], b, bo[j]));
      const int64_t* row = take_a ? a.row(ao[i]) : b.row(bo[j]);
      rows.insert(rows.end(), row, row + a.rank);
      T v = take_a ? av[ao[i]] : T(0);
      v = pick(v, take_b ? bv[bo[j]] : T(0));
      values.push_back(v);
      if (take_a) ++i;
      if (take_b) ++j;
    }
    const int64_t n = static_cast<int64_t>(values.size());
    Tensor *indices, *out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({n, a.rank}), &indices));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape({n}), &out));
    std::copy(rows.begin(), rows.end(), indices->base<int64_t>());
    std::copy(values.begin(), values.end(), out->base<T>());
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("SparseSlice", DEVICE_CPU, "", DT_INVALID, SparseSliceOp);
RILL_REGISTER_KERNEL("SparseConcat", DEVICE_CPU, "", DT_INVALID, SparseConcatOp);
RILL_REGISTER_KERNEL("SparseSoftmax", DEVICE_CPU, "T", DT_FLOAT, SparseSoftmaxOp<float>);
RILL_REGISTER_KERNEL("SparseSoftmax", DEVICE_CPU, "T", DT_DOUBLE, SparseSoftmaxOp<double>);
#define RILL_REG_SPARSE_SLICE(T, unused)                                                 \
  RILL_REGISTER_KERNEL("SparseSliceGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       SparseSliceGradOp<T>);                                            \
  RILL_REGISTER_KERNEL("SparseSparseMaximum", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       SparseSparseMinMaxOp<T, true>);                                   \
  RILL_REGISTER_KERNEL("SparseSparseMinimum", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       SparseSparseMinMaxOp<T, false>);
RILL_FOR_SIGNED_TYPES(RILL_REG_SPARSE_SLICE, 0)
#undef RILL_REG_SPARSE_SLICE

}  // namespace
}  // namespace rill::cpu
