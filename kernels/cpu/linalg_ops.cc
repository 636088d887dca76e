// CPU kernels of the linear algebra ops (ops/linalg_ops.h). Each square matrix of the batch
// is factored by Eigen's LU with partial pivoting, as TensorFlow's CPU kernels do. The
// determinant is formed from the factors' signs and the sum of their logs (TensorFlow's
// way too), so that a product of large or small pivots does not overflow on the way to a
// representable result. A matrix is invertible when no pivot is zero (or NaN). Cholesky is
// Eigen's LLT over the lower triangle; triangular solves substitute in place and refuse a
// zero on the diagonal first.
#include <algorithm>
#include <cmath>
#include <limits>

#include "Eigen/Cholesky"
#include "Eigen/Eigenvalues"
#include "Eigen/LU"
#include "Eigen/QR"
#include "Eigen/SVD"
#include "rill/core/kernel.h"

namespace rill::cpu {
namespace {

template <typename T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using Lu = Eigen::PartialPivLU<Matrix<T>>;

// The batch that `t` holds: how many matrices, of how many rows and columns.
struct Batch {
  int64_t count = 1, rows = 0, cols = 0;
};

absl::StatusOr<Batch> MatricesOf(const Tensor& t, const char* what) {
  if (t.dims() < 2) {
    return errors::InvalidArgument(what, " must be at least rank 2, got shape ",
                                   t.shape().DebugString());
  }
  Batch b;
  for (int d = 0; d + 2 < t.dims(); ++d) b.count *= t.dim_size(d);
  b.rows = t.dim_size(t.dims() - 2);
  b.cols = t.dim_size(t.dims() - 1);
  return b;
}

absl::StatusOr<Batch> SquareOf(const Tensor& t, const char* what) {
  RILL_ASSIGN_OR_RETURN(Batch b, MatricesOf(t, what));
  if (b.rows != b.cols) {
    return errors::InvalidArgument(what, " must hold square matrices, got shape ",
                                   t.shape().DebugString());
  }
  return b;
}

// A solve's operands: matrices a [..., M, M] and rhs [..., M, K] with a's batch dims (as
// MatrixSolve's), checked, and its output allocated.
struct SolvePlan {
  Batch a, rhs;
  Tensor* out = nullptr;
  bool empty() const { return a.rows == 0 || rhs.cols == 0; }
};

absl::StatusOr<SolvePlan> PrepareSolve(OpKernelContext& ctx) {
  const Tensor &a = ctx.input(0), &rhs = ctx.input(1);
  SolvePlan s;
  RILL_ASSIGN_OR_RETURN(s.a, SquareOf(a, "matrix"));
  RILL_ASSIGN_OR_RETURN(s.rhs, MatricesOf(rhs, "rhs"));
  TensorShape want = a.shape();
  want.set_dim(want.dims() - 1, s.rhs.cols);
  if (rhs.shape() != want) {
    return errors::InvalidArgument("rhs of shape ", rhs.shape().DebugString(),
                                   " does not fit matrices of shape ", a.shape().DebugString(),
                                   " (needs ", want.DebugString(), ")");
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, rhs.shape(), &s.out));
  return s;
}

// Matrix i of the batch (or its transpose), factored.
template <typename T>
Lu<T> Factor(const Tensor& t, const Batch& b, int64_t i, bool transpose) {
  Eigen::Map<const Matrix<T>> m(t.base<T>() + i * b.rows * b.cols, b.rows, b.cols);
  return transpose ? Lu<T>(m.transpose()) : Lu<T>(m);
}

template <typename T>
absl::Status Invertible(const Lu<T>& lu, const Tensor& t, int64_t i) {
  if (lu.matrixLU().diagonal().cwiseAbs().minCoeff() > T(0)) return absl::OkStatus();
  return errors::InvalidArgument("matrix ", i, " of the input of shape ", t.shape().DebugString(),
                                 " is not invertible (its LU factorization has a zero pivot)");
}

// sign(det) and log|det| from the factors.
template <typename T>
void SignAndLogAbs(const Lu<T>& lu, T* sign, T* log_abs) {
  T s = static_cast<T>(lu.permutationP().determinant()), sum = 0;
  for (Eigen::Index k = 0; k < lu.matrixLU().rows(); ++k) {
    const T u = lu.matrixLU()(k, k);
    if (u == T(0)) {
      *sign = 0;
      *log_abs = -std::numeric_limits<T>::infinity();
      return;
    }
    if (u < T(0)) s = -s;
    sum += std::log(std::abs(u));  // NaN stays NaN
  }
  *sign = s;
  *log_abs = sum;
}

// MatrixDeterminant (one output) and LogMatrixDeterminant (sign, log|det|).
template <typename T, bool kLog>
class DeterminantOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Batch b, SquareOf(x, "input"));
    const TensorShape batch(x.shape().dim_sizes().subspan(0, x.dims() - 2));
    Tensor *first, *second = nullptr;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, batch, &first));
    if (kLog) RILL_RETURN_IF_ERROR(ctx.allocate_output(1, batch, &second));
    for (int64_t i = 0; i < b.count; ++i) {
      T sign = 1, log_abs = 0;  // an empty matrix's determinant is 1
      if (b.rows > 0) SignAndLogAbs(Factor<T>(x, b, i, false), &sign, &log_abs);
      if (kLog) {
        first->base<T>()[i] = sign;
        second->base<T>()[i] = log_abs;
      } else {
        first->base<T>()[i] = sign * std::exp(log_abs);
      }
    }
    return absl::OkStatus();
  }
};

template <typename T>
class InverseOp : public OpKernel {
 public:
  explicit InverseOp(OpKernelConstruction& c)
      : OpKernel(c), adjoint_(c.node().attr<bool>("adjoint")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Batch b, SquareOf(x, "input"));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    if (b.rows == 0) return absl::OkStatus();
    for (int64_t i = 0; i < b.count; ++i) {
      const Lu<T> lu = Factor<T>(x, b, i, adjoint_);
      RILL_RETURN_IF_ERROR(Invertible(lu, x, i));
      Eigen::Map<Matrix<T>>(out->base<T>() + i * b.rows * b.rows, b.rows, b.rows) = lu.inverse();
    }
    return absl::OkStatus();
  }

 private:
  bool adjoint_;
};

template <typename T>
class SolveOp : public OpKernel {
 public:
  explicit SolveOp(OpKernelConstruction& c)
      : OpKernel(c), adjoint_(c.node().attr<bool>("adjoint")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &a = ctx.input(0), &rhs = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(SolvePlan g, PrepareSolve(ctx));
    if (g.empty()) return absl::OkStatus();
    const Batch &b = g.a, &r = g.rhs;
    Tensor* out = g.out;
    for (int64_t i = 0; i < b.count; ++i) {
      const Lu<T> lu = Factor<T>(a, b, i, adjoint_);
      RILL_RETURN_IF_ERROR(Invertible(lu, a, i));
      const int64_t at = i * r.rows * r.cols;
      Eigen::Map<Matrix<T>>(out->base<T>() + at, r.rows, r.cols) =
          lu.solve(Eigen::Map<const Matrix<T>>(rhs.base<T>() + at, r.rows, r.cols));
    }
    return absl::OkStatus();
  }

 private:
  bool adjoint_;
};

template <typename T>
class CholeskyOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Batch b, SquareOf(x, "input"));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    const int64_t size = b.rows * b.rows;
    for (int64_t i = 0; i < b.count && b.rows > 0; ++i) {
      Eigen::LLT<Matrix<T>, Eigen::Lower> llt(
          Eigen::Map<const Matrix<T>>(x.base<T>() + i * size, b.rows, b.rows));
      if (llt.info() != Eigen::Success) {
        return errors::InvalidArgument("Cholesky decomposition was not successful: matrix ", i,
                                       " of the input of shape ", x.shape().DebugString(),
                                       " is not positive definite");
      }
      Eigen::Map<Matrix<T>>(out->base<T>() + i * size, b.rows, b.rows) = llt.matrixL();
    }
    return absl::OkStatus();
  }
};

// Eigen's self-adjoint solver on each matrix's lower triangle: eigenvalues ascending, the
// eigenvectors as columns.
template <typename T>
class SelfAdjointEigOp : public OpKernel {
 public:
  explicit SelfAdjointEigOp(OpKernelConstruction& c)
      : OpKernel(c), compute_v_(c.node().attr<bool>("compute_v")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Batch b, SquareOf(x, "input"));
    TensorShape e_shape = x.shape();
    e_shape.RemoveDim(e_shape.dims() - 1);
    Tensor *e, *v;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, e_shape, &e));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, compute_v_ ? x.shape() : TensorShape({0}), &v));
    const int64_t size = b.rows * b.rows;
    for (int64_t i = 0; i < b.count && b.rows > 0; ++i) {
      Eigen::SelfAdjointEigenSolver<Matrix<T>> solver(
          Eigen::Map<const Matrix<T>>(x.base<T>() + i * size, b.rows, b.rows),
          compute_v_ ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
      if (solver.info() != Eigen::Success) {
        return errors::InvalidArgument(
            "self-adjoint eigen decomposition was not successful: "
            "matrix ",
            i, " of the input of shape ", x.shape().DebugString(),
            " did not converge (a NaN or infinity in it?)");
      }
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(e->base<T>() + i * b.rows, b.rows) =
          solver.eigenvalues();
      if (compute_v_) {
        Eigen::Map<Matrix<T>>(v->base<T>() + i * size, b.rows, b.rows) = solver.eigenvectors();
      }
    }
    return absl::OkStatus();
  }

 private:
  bool compute_v_;
};

// `x`'s batch dims with a matrix of rows x cols (cols alone when rows < 0).
TensorShape BatchOf(const TensorShape& x, int64_t rows, int64_t cols) {
  TensorShape out(x.dim_sizes().subspan(0, x.dims() - 2));
  if (rows >= 0) out.AddDim(rows);
  out.AddDim(cols);
  return out;
}

// Eigen's Householder QR of each matrix: q = the first columns of the product of its
// reflections, r = the upper triangle of the factored matrix.
template <typename T>
class QrOp : public OpKernel {
 public:
  explicit QrOp(OpKernelConstruction& c)
      : OpKernel(c), full_(c.node().attr<bool>("full_matrices")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Batch b, MatricesOf(x, "input"));
    const int64_t k = full_ ? b.rows : std::min(b.rows, b.cols);
    Tensor *q, *r;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, BatchOf(x.shape(), b.rows, k), &q));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, BatchOf(x.shape(), k, b.cols), &r));
    for (int64_t i = 0; i < b.count; ++i) {
      Eigen::Map<Matrix<T>> q_i(q->base<T>() + i * b.rows * k, b.rows, k);
      Eigen::Map<Matrix<T>> r_i(r->base<T>() + i * k * b.cols, k, b.cols);
      if (b.rows == 0 || b.cols == 0) {  // q is the identity's first columns; r is zeros
        q_i.setIdentity();
        r_i.setZero();
        continue;
      }
      Eigen::HouseholderQR<Matrix<T>> qr(
          Eigen::Map<const Matrix<T>>(x.base<T>() + i * b.rows * b.cols, b.rows, b.cols));
      q_i = qr.householderQ() * Matrix<T>::Identity(b.rows, k);
      r_i = qr.matrixQR().topRows(k).template triangularView<Eigen::Upper>();
    }
    return absl::OkStatus();
  }

 private:
  bool full_;
};

// Eigen's Jacobi SVD of each matrix, singular values descending. A matrix with a NaN or
// infinity gets NaN outputs (Eigen refuses it), as TensorFlow's.
template <typename T>
class SvdOp : public OpKernel {
 public:
  explicit SvdOp(OpKernelConstruction& c)
      : OpKernel(c),
        compute_uv_(c.node().attr<bool>("compute_uv")),
        full_(c.node().attr<bool>("full_matrices")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Batch b, MatricesOf(x, "input"));
    const int64_t p = std::min(b.rows, b.cols);
    const int64_t uc = full_ ? b.rows : p, vc = full_ ? b.cols : p;
    Tensor *s, *u, *v;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, BatchOf(x.shape(), -1, p), &s));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(
        1, compute_uv_ ? BatchOf(x.shape(), b.rows, uc) : TensorShape({0}), &u));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(
        2, compute_uv_ ? BatchOf(x.shape(), b.cols, vc) : TensorShape({0}), &v));
    for (int64_t i = 0; i < b.count; ++i) {
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>> s_i(s->base<T>() + i * p, p);
      if (!compute_uv_) {
        Decompose(x, b, i, &s_i, nullptr, nullptr);
        continue;
      }
      Eigen::Map<Matrix<T>> u_i(u->base<T>() + i * b.rows * uc, b.rows, uc);
      Eigen::Map<Matrix<T>> v_i(v->base<T>() + i * b.cols * vc, b.cols, vc);
      Decompose(x, b, i, &s_i, &u_i, &v_i);
    }
    return absl::OkStatus();
  }

 private:
  void Decompose(const Tensor& x, const Batch& b, int64_t i,
                 Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>* s, Eigen::Map<Matrix<T>>* u,
                 Eigen::Map<Matrix<T>>* v) const {
    if (b.rows == 0 || b.cols == 0) {  // no singular values; u and v the identity's columns
      if (u != nullptr) u->setIdentity();
      if (v != nullptr) v->setIdentity();
      return;
    }
    const unsigned options = u == nullptr ? 0
                             : full_      ? Eigen::ComputeFullU | Eigen::ComputeFullV
                                          : Eigen::ComputeThinU | Eigen::ComputeThinV;
    Eigen::JacobiSVD<Matrix<T>> svd(
        Eigen::Map<const Matrix<T>>(x.base<T>() + i * b.rows * b.cols, b.rows, b.cols), options);
    if (svd.info() != Eigen::Success) {
      const T nan = std::numeric_limits<T>::quiet_NaN();
      s->setConstant(nan);
      if (u != nullptr) u->setConstant(nan);
      if (v != nullptr) v->setConstant(nan);
      return;
    }
    *s = svd.singularValues();
    if (u != nullptr) *u = svd.matrixU();
    if (v != nullptr) *v = svd.matrixV();
  }

  bool compute_uv_, full_;
};

template <typename T>
class TriangularSolveOp : public OpKernel {
 public:
  explicit TriangularSolveOp(OpKernelConstruction& c)
      : OpKernel(c),
        lower_(c.node().attr<bool>("lower")),
        adjoint_(c.node().attr<bool>("adjoint")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &a = ctx.input(0), &rhs = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(SolvePlan g, PrepareSolve(ctx));
    if (g.empty()) return absl::OkStatus();
    const Batch &b = g.a, &r = g.rhs;
    Tensor* out = g.out;
    for (int64_t i = 0; i < b.count; ++i) {
      Eigen::Map<const Matrix<T>> m(a.base<T>() + i * b.rows * b.rows, b.rows, b.rows);
      if (!(m.diagonal().cwiseAbs().minCoeff() > T(0))) {
        return errors::InvalidArgument("matrix ", i, " of the input of shape ",
                                       a.shape().DebugString(),
                                       " is not invertible (a zero or NaN on its diagonal)");
      }
      const int64_t at = i * r.rows * r.cols;
      Eigen::Map<Matrix<T>> x(out->base<T>() + at, r.rows, r.cols);
      x = Eigen::Map<const Matrix<T>>(rhs.base<T>() + at, r.rows, r.cols);
      Substitute(m, &x);
    }
    return absl::OkStatus();
  }

 private:
  // x = op(triangle of m)^-1 x, in place.
  void Substitute(const Eigen::Map<const Matrix<T>>& m, Eigen::Map<Matrix<T>>* x) const {
    if (lower_ && !adjoint_) m.template triangularView<Eigen::Lower>().solveInPlace(*x);
    if (lower_ && adjoint_) m.template triangularView<Eigen::Lower>().transpose().solveInPlace(*x);
    if (!lower_ && !adjoint_) m.template triangularView<Eigen::Upper>().solveInPlace(*x);
    if (!lower_ && adjoint_) m.template triangularView<Eigen::Upper>().transpose().solveInPlace(*x);
  }

  bool lower_, adjoint_;
};

#define RILL_REG_LINALG(T)                                                                        \
  RILL_REGISTER_KERNEL("MatrixDeterminant", DEVICE_CPU, "T", DataTypeToEnum<T>::value,            \
                       DeterminantOp<T, false>);                                                  \
  RILL_REGISTER_KERNEL("LogMatrixDeterminant", DEVICE_CPU, "T", DataTypeToEnum<T>::value,         \
                       DeterminantOp<T, true>);                                                   \
  RILL_REGISTER_KERNEL("MatrixInverse", DEVICE_CPU, "T", DataTypeToEnum<T>::value, InverseOp<T>); \
  RILL_REGISTER_KERNEL("MatrixSolve", DEVICE_CPU, "T", DataTypeToEnum<T>::value, SolveOp<T>);     \
  RILL_REGISTER_KERNEL("Cholesky", DEVICE_CPU, "T", DataTypeToEnum<T>::value, CholeskyOp<T>);     \
  RILL_REGISTER_KERNEL("SelfAdjointEigV2", DEVICE_CPU, "T", DataTypeToEnum<T>::value,             \
                       SelfAdjointEigOp<T>);                                                      \
  RILL_REGISTER_KERNEL("Qr", DEVICE_CPU, "T", DataTypeToEnum<T>::value, QrOp<T>);                 \
  RILL_REGISTER_KERNEL("Svd", DEVICE_CPU, "T", DataTypeToEnum<T>::value, SvdOp<T>);               \
  RILL_REGISTER_KERNEL("MatrixTriangularSolve", DEVICE_CPU, "T", DataTypeToEnum<T>::value,        \
                       TriangularSolveOp<T>);
RILL_REG_LINALG(float)
RILL_REG_LINALG(double)
#undef RILL_REG_LINALG

}  // namespace
}  // namespace rill::cpu
