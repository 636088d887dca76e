// CPU kernels of SparseFillEmptyRows and SparseFillEmptyRowsGrad (ops/sparse_tensor_ops.h).
// The per-row counts are a tensor sized by dense_shape[0], allocated after the outputs of
// that size, so a huge row count is a ResourceExhausted Status, never a thrown bad_alloc.
#include <cstring>
#include <vector>

#include "rill/core/sparse_tensor.h"

namespace rill::cpu {
namespace {

absl::Status Rank(const Tensor& t, int rank, const char* name) {
  if (t.dims() == rank) return absl::OkStatus();
  static const char* kinds[] = {"a scalar", "a vector", "a matrix"};
  return errors::InvalidArgument(name, " must be ", kinds[rank],
                                 ", saw: ", t.shape().DebugString());
}

// TensorFlow's checks, in its order and words, then every index in range.
absl::StatusOr<SparseOperand> FillOperand(const OpKernelContext& ctx) {
  const Tensor &indices = ctx.input(0), &values = ctx.input(1), &shape = ctx.input(2);
  RILL_RETURN_IF_ERROR(Rank(shape, 1, "dense_shape"));
  RILL_RETURN_IF_ERROR(Rank(ctx.input(3), 0, "default_value"));
  RILL_RETURN_IF_ERROR(Rank(indices, 2, "indices"));
  RILL_RETURN_IF_ERROR(Rank(values, 1, "values"));
  if (values.dim_size(0) != indices.dim_size(0)) {
    return errors::InvalidArgument("The length of `values` (", values.dim_size(0),
                                   ") must match the first dimension of `indices` (",
                                   indices.dim_size(0), ").");
  }
  if (shape.dim_size(0) != indices.dim_size(1)) {
    return errors::InvalidArgument("The length of `dense_shape` (", shape.dim_size(0),
                                   ") must match the second dimension of `indices` (",
                                   indices.dim_size(1), ").");
  }
  if (shape.dim_size(0) == 0) {
    return errors::InvalidArgument("dense_shape must have at least one dimension (the rows)");
  }
  return SparseOperandFrom(indices, &values, shape, "");
}

// Entries grouped by row (input order within a row), an entry [row, 0, ...] of
// default_value for each empty row.
class SparseFillEmptyRowsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparseOperand sp, FillOperand(ctx));
    const int64_t rows = sp.dims[0];
    Tensor* empty;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(2, TensorShape({rows}), &empty));
    RILL_ASSIGN_OR_RETURN(Tensor starts, Tensor::Create(DT_INT64, TensorShape({rows})));
    int64_t* start = starts.base<int64_t>();  // each row's first output position
    std::memset(start, 0, static_cast<size_t>(rows) * sizeof(int64_t));
    for (int64_t i = 0; i < sp.nnz; ++i) ++start[sp.row(i)[0]];
    int64_t total = 0;
    for (int64_t r = 0; r < rows; ++r) {
      empty->base<bool>()[r] = start[r] == 0;
      const int64_t count = start[r] == 0 ? 1 : start[r];
      start[r] = total;
      total += count;
    }
    Tensor *indices, *values, *reverse;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({total, sp.rank}), &indices));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape({total}), &values));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(3, TensorShape({sp.nnz}), &reverse));
    const size_t size = static_cast<size_t>(DataTypeSize(values->dtype()));
    const char* in_values = static_cast<const char*>(ctx.input(1).data());
    char* out_values = static_cast<char*>(values->data());
    int64_t* out_indices = indices->base<int64_t>();
    for (int64_t i = 0; i < sp.nnz; ++i) {
      const int64_t at = start[sp.row(i)[0]]++;
      std::memcpy(out_indices + at * sp.rank, sp.row(i), sp.rank * sizeof(int64_t));
      std::memcpy(out_values + at * size, in_values + i * size, size);
      reverse->base<int64_t>()[i] = at;
    }
    for (int64_t r = 0; r < rows; ++r) {
      if (!empty->base<bool>()[r]) continue;
      const int64_t at = start[r];
      std::memset(out_indices + at * sp.rank, 0, sp.rank * sizeof(int64_t));
      out_indices[at * sp.rank] = r;
      std::memcpy(out_values + at * size, ctx.input(3).data(), size);
    }
    return absl::OkStatus();
  }
};

// d_values[i] = grad_values[reverse_index_map[i]]; d_default_value sums the rest.
template <typename T>
class SparseFillEmptyRowsGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &map = ctx.input(0), &grad = ctx.input(1);
    RILL_RETURN_IF_ERROR(Rank(map, 1, "reverse_index_map"));
    RILL_RETURN_IF_ERROR(Rank(grad, 1, "grad_values"));
    const int64_t n = map.dim_size(0), m = grad.dim_size(0);
    Tensor *d_values, *d_default;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({n}), &d_values));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape({}), &d_default));
    std::vector<bool> taken(static_cast<size_t>(m), false);
    const T* g = grad.base<T>();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = map.base<int64_t>()[i];
      if (at < 0 || at >= m) {
        return errors::InvalidArgument("reverse_index_map[", i, "] = ", at, " is not in [0, ", m,
                                       ") (grad_values has ", m, " entries)");
      }
      d_values->base<T>()[i] = g[at];
      taken[static_cast<size_t>(at)] = true;
    }
    T rest = 0;
    for (int64_t j = 0; j < m; ++j) {
      if (!taken[static_cast<size_t>(j)]) rest += g[j];
    }
    *d_default->base<T>() = rest;
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("SparseFillEmptyRows", DEVICE_CPU, "", DT_INVALID, SparseFillEmptyRowsOp);
#define RILL_REG_FILL_GRAD(T, unused)                                                        \
  RILL_REGISTER_KERNEL("SparseFillEmptyRowsGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       SparseFillEmptyRowsGradOp<T>);
RILL_FOR_SIGNED_TYPES(RILL_REG_FILL_GRAD, 0)
#undef RILL_REG_FILL_GRAD

}  // namespace
}  // namespace rill::cpu
