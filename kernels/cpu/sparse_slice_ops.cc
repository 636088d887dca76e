// CPU kernels of SparseSoftmax, SparseSlice, SparseSliceGrad and SparseSparseMaximum/Minimum
// (ops/sparse_tensor_ops.h). Groups of entries come from sorting a copy of their rows, so
// inputs need not be in canonical order; in that order the results are TensorFlow's.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

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
    SparseOperand outs;
    outs.indices = out_rows.base<int64_t>();
    outs.nnz = out_rows.dim_size(0);
    outs.rank = rank;
    const std::vector<int64_t> order = outs.SortedOrder();
    Tensor* grad;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({in.dim_size(0)}), &grad));
    std::vector<int64_t> shifted(rank);
    for (int64_t i = 0; i < in.dim_size(0); ++i) {
      for (int64_t d = 0; d < rank; ++d) shifted[d] = in.base<int64_t>()[i * rank + d] - start[d];
      const auto less = [&](int64_t o, const std::vector<int64_t>& key) {
        return std::lexicographical_compare(outs.row(o), outs.row(o) + rank, key.begin(),
                                            key.end());
      };
      const auto at = std::lower_bound(order.begin(), order.end(), shifted, less);
      const bool found =
          at != order.end() && std::equal(shifted.begin(), shifted.end(), outs.row(*at));
      grad->base<T>()[i] = found ? g.base<T>()[*at] : T(0);
    }
    return absl::OkStatus();
  }
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
