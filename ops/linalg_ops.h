// TensorFlow's linear algebra ops with their C++ names, over batches ([..., M, N]) of float
// and double matrices. The square-matrix ones ([..., M, M]) go through an LU factorization
// with partial pivoting (as TensorFlow's CPU kernels, with Eigen); the factorizations below
// are Eigen's too. rill has CPU kernels only (TensorFlow's GPU ones call cuSolver, which
// rill does not load): placed on a GPU, they run on the CPU.
//   MatrixDeterminant(input): the determinants, [...].
//   LogMatrixDeterminant(input): sign and log_abs_determinant, [...] each; a singular
//     matrix has sign 0 and log_abs_determinant -inf.
//   MatrixInverse(input, adjoint): the inverses (of the adjoints); a singular matrix is
//     InvalidArgument.
//   MatrixSolve(matrix, rhs, adjoint): X with matrix X = rhs (adjoint(matrix) X = rhs),
//     rhs [..., M, K] with matrix's batch dims.
//   Cholesky(input): L, lower triangular with L L^T = input, from input's lower triangle
//     (the upper one is not read); a matrix that is not positive definite is
//     InvalidArgument. Eigen's LLT, as TensorFlow's CPU kernel.
//   SelfAdjointEigV2(input, compute_v): e, the eigenvalues in ascending order [..., M], and
//     v, the eigenvectors as columns [..., M, M] ([0] without compute_v), of the symmetric
//     matrices whose lower triangle input holds (the upper one is not read); Eigen's
//     self-adjoint solver, as TensorFlow's CPU kernel (tf.linalg.eigh).
//   Qr(input, full_matrices): q and r with q r = input for input [..., M, N] (any M, N):
//     q's columns orthonormal, [..., M, P] and r upper triangular, [..., P, N], with
//     P = min(M, N); full_matrices makes q square, [..., M, M], and r [..., M, N]. Eigen's
//     Householder QR, as TensorFlow's CPU kernel (r's diagonal may be negative).
//   Svd(input, compute_uv, full_matrices): s, the singular values in descending order
//     [..., P], u [..., M, P] and v [..., N, P] with input = u diag(s) v^T (full_matrices:
//     u [..., M, M] and v [..., N, N]; without compute_uv both are [0]). Eigen's Jacobi SVD
//     (TensorFlow's BDCSVD is a Jacobi SVD below 16 columns and faster above; rill keeps
//     Jacobi, whose iteration has no internal asserts). A NaN or infinity in a matrix makes
//     its outputs NaN, as TensorFlow's.
//   MatrixTriangularSolve(matrix, rhs, lower, adjoint): X with matrix X = rhs, reading only
//     matrix's lower (or upper) triangle; rhs [..., M, K] with matrix's batch dims
//     (TensorFlow 2 also broadcasts batch dims; rill does not). A zero on the diagonal is
//     InvalidArgument, as TensorFlow's.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

class MatrixDeterminant : public OpWrapper {
 public:
  MatrixDeterminant(const Scope& scope, Input input);
};

class SelfAdjointEigV2 {
 public:
  struct Attrs {
    Attrs ComputeV(bool x) {
      Attrs r = *this;
      r.compute_v_ = x;
      return r;
    }
    bool compute_v_ = true;
  };
  SelfAdjointEigV2(const Scope& scope, Input input) : SelfAdjointEigV2(scope, input, Attrs()) {}
  SelfAdjointEigV2(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs ComputeV(bool x) { return Attrs().ComputeV(x); }
  Operation operation;
  Output e, v;
};

class Qr {
 public:
  struct Attrs {
    Attrs FullMatrices(bool x) const {
      Attrs r = *this;
      r.full_matrices_ = x;
      return r;
    }
    bool full_matrices_ = false;
  };
  Qr(const Scope& scope, Input input) : Qr(scope, input, Attrs()) {}
  Qr(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs FullMatrices(bool x) { return Attrs().FullMatrices(x); }
  Operation operation;
  Output q, r;
};

class Svd {
 public:
  struct Attrs {
    Attrs ComputeUv(bool x) const {
      Attrs r = *this;
      r.compute_uv_ = x;
      return r;
    }
    Attrs FullMatrices(bool x) const {
      Attrs r = *this;
      r.full_matrices_ = x;
      return r;
    }
    bool compute_uv_ = true;
    bool full_matrices_ = false;
  };
  Svd(const Scope& scope, Input input) : Svd(scope, input, Attrs()) {}
  Svd(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs ComputeUv(bool x) { return Attrs().ComputeUv(x); }
  static Attrs FullMatrices(bool x) { return Attrs().FullMatrices(x); }
  Operation operation;
  Output s, u, v;
};

class LogMatrixDeterminant {
 public:
  LogMatrixDeterminant(const Scope& scope, Input input);
  Operation operation;
  Output sign, log_abs_determinant;
};

// The Attrs of MatrixInverse and MatrixSolve: whether to use the adjoint (for real
// matrices, the transpose).
struct AdjointAttrs {
  AdjointAttrs Adjoint(bool v) const {
    AdjointAttrs r = *this;
    r.adjoint_ = v;
    return r;
  }
  bool adjoint_ = false;
};

class MatrixInverse : public OpWrapper {
 public:
  using Attrs = AdjointAttrs;
  MatrixInverse(const Scope& scope, Input input) : MatrixInverse(scope, input, Attrs()) {}
  MatrixInverse(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs Adjoint(bool v) { return Attrs().Adjoint(v); }
};

class MatrixSolve : public OpWrapper {
 public:
  using Attrs = AdjointAttrs;
  MatrixSolve(const Scope& scope, Input matrix, Input rhs)
      : MatrixSolve(scope, matrix, rhs, Attrs()) {}
  MatrixSolve(const Scope& scope, Input matrix, Input rhs, const Attrs& attrs);
  static Attrs Adjoint(bool v) { return Attrs().Adjoint(v); }
};

class Cholesky : public OpWrapper {
 public:
  Cholesky(const Scope& scope, Input input);
};

class MatrixTriangularSolve : public OpWrapper {
 public:
  struct Attrs {
    Attrs Lower(bool v) const {
      Attrs r = *this;
      r.lower_ = v;
      return r;
    }
    Attrs Adjoint(bool v) const {
      Attrs r = *this;
      r.adjoint_ = v;
      return r;
    }
    bool lower_ = true;
    bool adjoint_ = false;
  };
  MatrixTriangularSolve(const Scope& scope, Input matrix, Input rhs)
      : MatrixTriangularSolve(scope, matrix, rhs, Attrs()) {}
  MatrixTriangularSolve(const Scope& scope, Input matrix, Input rhs, const Attrs& attrs);
  static Attrs Lower(bool v) { return Attrs().Lower(v); }
  static Attrs Adjoint(bool v) { return Attrs().Adjoint(v); }
};

}  // namespace rill::ops
