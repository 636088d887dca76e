// CPU kernels of the tf.sparse ops that meet a dense operand (ops/sparse_tensor_ops.h):
// SparseDenseCwiseAdd/Mul/Div, SparseTensorDenseAdd and SparseTensorDenseMatMul. Every
// index is checked against the dense shape first (core/sparse_tensor.h), so each offset
// computed from one lies inside the tensor it reads or writes.
#include <cstring>
#include <vector>

#include "rill/core/binary_math.h"
#include "rill/core/sparse_tensor.h"

namespace rill::cpu {
namespace {

enum class SparseCwise { kAdd, kMul, kDiv };

// Per sparse dim, the stride of the dense operand's element it reads (0 where the dense
// operand broadcasts or lacks the dim): dense's dims align with the sparse shape's last
// ones, each equal to it or 1.
absl::StatusOr<std::vector<int64_t>> DenseStrides(const SparseOperand& sp, const Tensor& dense) {
  const int64_t rank = dense.dims();
  const auto refuse = [&] {
    return errors::InvalidArgument(
        "SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible shapes: ",
        dense.shape().DebugString(), " vs. ", DimsString(sp.dims));
  };
  if (rank > sp.rank) return refuse();
  std::vector<int64_t> strides(sp.rank, 0);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    const int64_t size = dense.dim_size(static_cast<int>(d)), at = sp.rank - rank + d;
    if (size != 1 && size != sp.dims[at]) return refuse();
    strides[at] = size == 1 ? 0 : stride;
    stride *= size;
  }
  return strides;
}

template <typename T, SparseCwise kOp>
class SparseDenseCwiseOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const SparseOperand sp, SparseOperandOf(ctx, 0, 1, 2, "sp"));
    const Tensor& dense = ctx.input(3);
    RILL_ASSIGN_OR_RETURN(const std::vector<int64_t> strides, DenseStrides(sp, dense));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({sp.nnz}), &out));
    const T *x = ctx.input(1).base<T>(), *y = dense.base<T>();
    T* o = out->base<T>();
    for (int64_t i = 0; i < sp.nnz; ++i) {
      int64_t at = 0;
      for (int64_t d = 0; d < sp.rank; ++d) at += sp.row(i)[d] * strides[d];
      if constexpr (kOp == SparseCwise::kAdd) o[i] = x[i] + y[at];
      if constexpr (kOp == SparseCwise::kMul) o[i] = x[i] * y[at];
      if constexpr (kOp == SparseCwise::kDiv) {
        if constexpr (std::is_integral_v<T>) {
          if (y[at] == T(0)) {
            return errors::InvalidArgument(
                "integer division by zero: the dense value at sp_indices[", i,
                "] = ", sp.RowString(i), " is 0");
          }
          o[i] = TruncateDivOf(x[i], y[at]);
        } else {
          o[i] = x[i] / y[at];
        }
      }
    }
    return absl::OkStatus();
  }
};

// The sparse operand of SparseTensorDenseAdd and SparseTensorDenseMatMul, whose indices
// (and for the add, dense shape) may be int32: kept as int64 copies while it is used.
struct WideSparse {
  Tensor indices, shape;
  SparseOperand op;
};

absl::StatusOr<WideSparse> WideSparseOf(const OpKernelContext& ctx) {
  WideSparse w;
  w.indices = AsInt64(ctx.input(0));
  w.shape = AsInt64(ctx.input(2));
  RILL_ASSIGN_OR_RETURN(w.op, SparseOperandFrom(w.indices, &ctx.input(1), w.shape, "a"));
  return w;
}

template <typename T>
class SparseTensorDenseAddOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const WideSparse a, WideSparseOf(ctx));
    const Tensor& b = ctx.input(3);
    if (b.shape().dim_sizes() != absl::MakeConstSpan(a.op.dims)) {
      return errors::InvalidArgument("b of shape ", b.shape().DebugString(),
                                     " does not match a_shape ", DimsString(a.op.dims));
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, b.shape(), &out));
    std::memcpy(out->data(), b.data(), b.TotalBytes());
    const T* v = ctx.input(1).base<T>();
    T* o = out->base<T>();
    for (int64_t i = 0; i < a.op.nnz; ++i) {
      int64_t at = 0;
      for (int64_t d = 0; d < a.op.rank; ++d) at = at * a.op.dims[d] + a.op.row(i)[d];
      o[at] += v[i];
    }
    return absl::OkStatus();
  }
};

template <typename T>
class SparseTensorDenseMatMulOp : public OpKernel {
 public:
  explicit SparseTensorDenseMatMulOp(OpKernelConstruction& c)
      : OpKernel(c),
        adjoint_a_(c.node().attr<bool>("adjoint_a")),
        adjoint_b_(c.node().attr<bool>("adjoint_b")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const WideSparse a, WideSparseOf(ctx));
    const Tensor& b = ctx.input(3);
    if (a.op.rank != 2) {
      return errors::InvalidArgument("a must be a sparse matrix: a_shape ", DimsString(a.op.dims),
                                     " has rank ", a.op.rank);
    }
    if (b.dims() != 2) {
      return errors::InvalidArgument("b must be a matrix, got shape ", b.shape().DebugString());
    }
    const int64_t m = a.op.dims[adjoint_a_ ? 1 : 0], k = a.op.dims[adjoint_a_ ? 0 : 1];
    const int64_t b_rows = b.dim_size(adjoint_b_ ? 1 : 0), n = b.dim_size(adjoint_b_ ? 0 : 1);
    if (k != b_rows) {
      return errors::InvalidArgument(
          "cannot multiply A and B: the inner dimensions do not match: ", k, " vs. ", b_rows,
          " (a_shape ", DimsString(a.op.dims), ", b ", b.shape().DebugString(), ")");
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape shape, TensorShape::Build({m, n}));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    T* o = out->base<T>();
    std::fill(o, o + out->NumElements(), T(0));
    const T *v = ctx.input(1).base<T>(), *y = b.base<T>();
    const int64_t b_cols = b.dim_size(1);
    for (int64_t e = 0; e < a.op.nnz; ++e) {
      const int64_t r = a.op.row(e)[adjoint_a_ ? 1 : 0], c = a.op.row(e)[adjoint_a_ ? 0 : 1];
      T* row = o + r * n;
      if (adjoint_b_) {
        for (int64_t j = 0; j < n; ++j) row[j] += v[e] * y[j * b_cols + c];
      } else {
        for (int64_t j = 0; j < n; ++j) row[j] += v[e] * y[c * b_cols + j];
      }
    }
    return absl::OkStatus();
  }

 private:
  bool adjoint_a_, adjoint_b_;
};

#define RILL_REG_SPARSE_DENSE(T, unused)                                                     \
  RILL_REGISTER_KERNEL("SparseDenseCwiseAdd", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       SparseDenseCwiseOp<T, SparseCwise::kAdd>);                            \
  RILL_REGISTER_KERNEL("SparseDenseCwiseMul", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       SparseDenseCwiseOp<T, SparseCwise::kMul>);                            \
  RILL_REGISTER_KERNEL("SparseDenseCwiseDiv", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       SparseDenseCwiseOp<T, SparseCwise::kDiv>);                            \
  RILL_REGISTER_KERNEL("SparseTensorDenseAdd", DEVICE_CPU, "T", DataTypeToEnum<T>::value,    \
                       SparseTensorDenseAddOp<T>);                                           \
  RILL_REGISTER_KERNEL("SparseTensorDenseMatMul", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       SparseTensorDenseMatMulOp<T>);
RILL_FOR_SIGNED_TYPES(RILL_REG_SPARSE_DENSE, 0)
#undef RILL_REG_SPARSE_DENSE

}  // namespace
}  // namespace rill::cpu
