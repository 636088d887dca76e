// Gradients of the square-matrix ops, TensorFlow's (linalg_grad.py) for real matrices:
//  - MatrixInverse: with C = inv(A), dA = -C^T g C^T (adjoint: -C g^T C).
//  - MatrixDeterminant: dA = g det(A) inv(A)^T; LogMatrixDeterminant: dA = g inv(A)^T (the
//    sign has none). Both need A invertible, as TensorFlow's.
//  - MatrixSolve: with X the solution, dB = solve(A^T, g) and dA = -dB X^T (adjoint:
//    dB = solve(A, g), dA = -X dB^T).
//  - MatrixTriangularSolve: MatrixSolve's, with dA kept to the triangle that was read.
//  - Cholesky: with L the factor, P = the lower triangle of L^T g with its diagonal halved,
//    dA = L^-T (P + P^T) L^-1 / 2 (symmetric: A's two triangles share the gradient).
//  - SelfAdjointEigV2: below.
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/linalg_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/rearrange_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;
using grad::Out;

bool Adjoint(const Operation& op) { return op.node()->attr<bool>("adjoint"); }

// g of shape [...] as [..., 1, 1]: a factor per matrix of the batch.
Output PerMatrix(const Scope& s, const Output& g) {
  return ExpandDims(s, ExpandDims(s, g, -1), -1);
}

absl::Status InverseGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const bool adjoint = Adjoint(op);
  const Output c = Out(op);
  Output inner = BatchMatMulV2(s, g[0], c, BatchMatMulV2::AdjX(adjoint).AdjY(!adjoint));
  out->push_back(Neg(s, BatchMatMulV2(s, c, inner, BatchMatMulV2::AdjX(!adjoint))));
  return absl::OkStatus();
}

absl::Status DeterminantGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output inverse_t = MatrixInverse(s, In(op, 0), MatrixInverse::Adjoint(true));
  out->push_back(Mul(s, PerMatrix(s, Mul(s, g[0], Out(op))), inverse_t));
  return absl::OkStatus();
}

absl::Status LogDeterminantGrad(const Scope& s, const Operation& op, const GradOut& g,
                                GradOut* out) {
  Output inverse_t = MatrixInverse(s, In(op, 0), MatrixInverse::Adjoint(true));
  out->push_back(Mul(s, PerMatrix(s, g[1]), inverse_t));
  return absl::OkStatus();
}

absl::Status SolveGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const bool adjoint = Adjoint(op);
  const Output x = Out(op);
  Output grad_rhs = MatrixSolve(s, In(op, 0), g[0], MatrixSolve::Adjoint(!adjoint));
  Output grad_matrix = adjoint ? BatchMatMulV2(s, x, grad_rhs, BatchMatMulV2::AdjY(true))
                               : BatchMatMulV2(s, grad_rhs, x, BatchMatMulV2::AdjY(true));
  out->push_back(Neg(s, grad_matrix));
  out->push_back(grad_rhs);
  return absl::OkStatus();
}

// The band of x that the triangle (lower or upper) keeps, diagonal included.
Output Triangle(const Scope& s, const Output& x, bool lower) {
  const Output all = Const(s, int64_t{-1}), none = Const(s, int64_t{0});
  return lower ? MatrixBandPart(s, x, all, none) : MatrixBandPart(s, x, none, all);
}

absl::Status TriangularSolveGrad(const Scope& s, const Operation& op, const GradOut& g,
                                 GradOut* out) {
  const bool adjoint = Adjoint(op), lower = op.node()->attr<bool>("lower");
  const Output x = Out(op);
  Output grad_rhs = MatrixTriangularSolve(s, In(op, 0), g[0],
                                          MatrixTriangularSolve::Lower(lower).Adjoint(!adjoint));
  Output grad_matrix = adjoint ? BatchMatMulV2(s, x, grad_rhs, BatchMatMulV2::AdjY(true))
                               : BatchMatMulV2(s, grad_rhs, x, BatchMatMulV2::AdjY(true));
  out->push_back(Neg(s, Triangle(s, grad_matrix, lower)));
  out->push_back(grad_rhs);
  return absl::OkStatus();
}

absl::Status CholeskyGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output l = Out(op);
  const Output eye = MatrixBandPart(s, OnesLike(s, l), Const(s, int64_t{0}), Const(s, int64_t{0}));
  const Output l_inv = MatrixTriangularSolve(s, l, eye);
  const Output middle = BatchMatMulV2(s, l, g[0], BatchMatMulV2::AdjX(true));
  const Output diag = MatrixBandPart(s, middle, Const(s, int64_t{0}), Const(s, int64_t{0}));
  const Output half = Cast(s, Const(s, 0.5), l.type());
  const Output p = Sub(s, Triangle(s, middle, true), Mul(s, half, diag));
  // (P + P^T) L^-1, with P^T L^-1 as one product.
  const Output sym =
      Add(s, BatchMatMulV2(s, p, l_inv), BatchMatMulV2(s, p, l_inv, BatchMatMulV2::AdjX(true)));
  const Output grad = BatchMatMulV2(s, l_inv, sym, BatchMatMulV2::AdjX(true));
  out->push_back(Mul(s, half, grad));
  return absl::OkStatus();
}

// SelfAdjointEigV2, TensorFlow's: with F_ij = 1 / (e_j - e_i) off the diagonal (0 on it;
// the reciprocal kept finite where eigenvalues coincide), the symmetric matrix's gradient
// is G = V (diag(g_e) + F * (V^T g_v)) V^T, and the input's is G + G^T on the lower triangle
// with its diagonal halved (the op reads the lower triangle alone). Without compute_v, V
// is computed again and g_v is none.
absl::Status SelfAdjointEigGrad(const Scope& s, const Operation& op, const GradOut& g,
                                GradOut* out) {
  const bool compute_v = op.node()->attr<bool>("compute_v");
  const Output e = Out(op, 0);
  const Output v = compute_v ? Out(op, 1) : SelfAdjointEigV2(s, In(op, 0)).v;
  Output inner = MatrixDiag(s, g[0]);
  if (compute_v) {
    const Output diff = Sub(s, ExpandDims(s, e, -2), ExpandDims(s, e, -1));
    const Output f =
        MatrixSetDiag(s, Div(s, diff, Add(s, Square(s, diff), grad::Scalar(s, 1e-20, e.type()))),
                      ZerosLike(s, e));
    inner = Add(s, inner, Mul(s, f, BatchMatMulV2(s, v, g[1], BatchMatMulV2::AdjX(true))));
  }
  // G + G^T = V inner V^T + V inner^T V^T.
  const Output sym =
      Add(s, BatchMatMulV2(s, v, BatchMatMulV2(s, inner, v, BatchMatMulV2::AdjY(true))),
          BatchMatMulV2(s, v, BatchMatMulV2(s, inner, v, BatchMatMulV2::AdjX(true).AdjY(true))));
  const Output lower = Triangle(s, sym, true);
  out->push_back(
      MatrixSetDiag(s, lower, Mul(s, grad::Scalar(s, 0.5, e.type()), MatrixDiagPart(s, lower))));
  return s.status();
}

RILL_REGISTER_GRADIENT("MatrixInverse", InverseGrad);
RILL_REGISTER_GRADIENT("SelfAdjointEigV2", SelfAdjointEigGrad);
RILL_REGISTER_GRADIENT("MatrixTriangularSolve", TriangularSolveGrad);
RILL_REGISTER_GRADIENT("Cholesky", CholeskyGrad);
RILL_REGISTER_GRADIENT("MatrixDeterminant", DeterminantGrad);
RILL_REGISTER_GRADIENT("LogMatrixDeterminant", LogDeterminantGrad);
RILL_REGISTER_GRADIENT("MatrixSolve", SolveGrad);

}  // namespace
}  // namespace rill::ops
