// Gradients of the square-matrix ops, TensorFlow's (linalg_grad.py) for real matrices:
//  - MatrixInverse: with C = inv(A), dA = -C^T g C^T (adjoint: -C g^T C).
//  - MatrixDeterminant: dA = g det(A) inv(A)^T; LogMatrixDeterminant: dA = g inv(A)^T (the
//    sign has none). Both need A invertible, as TensorFlow's.
//  - MatrixSolve: with X the solution, dB = solve(A^T, g) and dA = -dB X^T (adjoint:
//    dB = solve(A, g), dA = -X dB^T).
//  - MatrixTriangularSolve: MatrixSolve's, with dA kept to the triangle that was read.
//  - Cholesky: with L the factor, P = the lower triangle of L^T g with its diagonal halved,
//    dA = L^-T (P + P^T) L^-1 / 2 (symmetric: A's two triangles share the gradient).
//  - SelfAdjointEigV2, Qr, Svd: below.
#include <algorithm>

#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/linalg_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/rearrange_ops.h"
#include "rill/ops/strided_slice_ops.h"

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

// 1 / x, kept finite where x is 0 (x / (x^2 + 1e-20), TensorFlow's choice): where
// eigenvalues or singular values coincide, or a singular value is 0.
Output SafeReciprocal(const Scope& s, const Output& x) {
  return Div(s, x, Add(s, Square(s, x), grad::Scalar(s, 1e-20, x.type())));
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
    const Output f = MatrixSetDiag(s, SafeReciprocal(s, diff), ZerosLike(s, e));
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

// k = min(M, N) of the matrices `a` [..., M, N], as an int32 vector [1]: a constant when
// both are known at construction.
Output MinDimVector(const Scope& s, const Output& a) {
  const PartialTensorShape& p = a.shape();
  if (!p.unknown_rank() && p.dims() >= 2 && p.dim_size(p.dims() - 2) >= 0 &&
      p.dim_size(p.dims() - 1) >= 0) {
    return grad::IntVector(s, {std::min(p.dim_size(p.dims() - 2), p.dim_size(p.dims() - 1))});
  }
  const Output last_two =
      StridedSlice(s, Shape(s, a), grad::IntVector(s, {-2}), grad::IntVector(s, {0}),
                   grad::IntVector(s, {1}), StridedSlice::EndMask(1));
  return Min(s, last_two, Const(s, 0), Min::KeepDims(true));
}

// x[..., :, :k] (`head`) or x[..., :, k:], for k a vector [1].
Output Columns(const Scope& s, const Output& x, const Output& k, bool head) {
  const Output at = Concat(s, {grad::IntVector(s, {0, 0}), k}, 0);
  const Output zero = grad::IntVector(s, {0, 0, 0});
  return StridedSlice(s, x, head ? zero : at, head ? at : zero, grad::IntVector(s, {1, 1, 1}),
                      StridedSlice::EllipsisMask(1).BeginMask(head ? 6 : 2).EndMask(head ? 2 : 6));
}

// x[..., :k, :].
Output HeadRows(const Scope& s, const Output& x, const Output& k) {
  const Output at = Concat(s, {grad::IntVector(s, {0}), k, grad::IntVector(s, {0})}, 0);
  return StridedSlice(s, x, grad::IntVector(s, {0, 0, 0}), at, grad::IntVector(s, {1, 1, 1}),
                      StridedSlice::EllipsisMask(1).BeginMask(6).EndMask(4));
}

// The gradient g1 of a matrix's first k orthonormal columns x1, with that of the columns
// that complete them to a square matrix, x2 (which full_matrices returns), folded in. x2
// spans the complement of x1 and is unique only up to a rotation within it (a sign when it
// is one column): x2 is taken to move only as orthogonality to x1 requires, dx2 =
// -x1 dx1^T x2, so g1 - x2 g2^T x1 (TensorFlow's rule, which it applies only to one column).
Output FoldComplement(const Scope& s, const Output& x1, const Output& x2, const Output& g1,
                      const Output& g2) {
  return Sub(s, g1, BatchMatMulV2(s, x2, BatchMatMulV2(s, g2, x1, BatchMatMulV2::AdjX(true))));
}

// Qr's gradient for q [..., M, K] and r [..., K, K] (M >= K): with qdq = q^T gq,
// L = the lower triangle of (qdq - qdq^T) + (r gr^T - gr r^T),
// dA = q (gr + L r^-T) + (gq - q qdq) r^-T. TensorFlow's formula.
Output QrSquareOrDeepGrad(const Scope& s, const Output& q, const Output& r, const Output& gq,
                          const Output& gr) {
  const Output qdq = BatchMatMulV2(s, q, gq, BatchMatMulV2::AdjX(true));
  const Output qdq_anti = Sub(s, qdq, BatchMatMulV2(s, gq, q, BatchMatMulV2::AdjX(true)));
  const Output rdr_anti = Sub(s, BatchMatMulV2(s, r, gr, BatchMatMulV2::AdjY(true)),
                              BatchMatMulV2(s, gr, r, BatchMatMulV2::AdjY(true)));
  const Output lower = Triangle(s, Add(s, qdq_anti, rdr_anti), true);
  const Output eye = MatrixBandPart(s, OnesLike(s, r), Const(s, int64_t{0}), Const(s, int64_t{0}));
  const Output r_inv_t =
      MatrixTriangularSolve(s, r, eye, MatrixTriangularSolve::Lower(false).Adjoint(true));
  return Add(s, BatchMatMulV2(s, q, Add(s, gr, BatchMatMulV2(s, lower, r_inv_t))),
             BatchMatMulV2(s, Sub(s, gq, BatchMatMulV2(s, q, qdq)), r_inv_t));
}

// Qr: with k = min(M, N), q's first k columns q1 and r's first k rows r1 = [u, w] (u k x k)
// factor A = [x, y] as x = q1 u and y = q1 w. So dy = q1 gw, and x's gradient is the
// square-or-deep one with gq1 + y gw^T (w = q1^T y). A deep A has no y, a thin Qr no q2.
absl::Status QrGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output a = In(op, 0), q = Out(op, 0), r = Out(op, 1);
  const Output k = MinDimVector(s, a);
  const Output q1 = Columns(s, q, k, true);
  const Output gq1 = FoldComplement(s, q1, Columns(s, q, k, false), Columns(s, g[0], k, true),
                                    Columns(s, g[0], k, false));
  const Output r1 = HeadRows(s, r, k), gr1 = HeadRows(s, g[1], k);
  const Output gw = Columns(s, gr1, k, false);
  const Output gx =
      Add(s, gq1, BatchMatMulV2(s, Columns(s, a, k, false), gw, BatchMatMulV2::AdjY(true)));
  const Output dx =
      QrSquareOrDeepGrad(s, q1, Columns(s, r1, k, true), gx, Columns(s, gr1, k, true));
  out->push_back(Concat(s, {dx, BatchMatMulV2(s, q1, gw)}, -1));
  return s.status();
}

// Svd, for A = U S V^T with U [..., M, K], V [..., N, K] (the first K columns when
// full_matrices: the rest fold in as FoldComplement says) and F_ij = 1 / (s_j^2 - s_i^2)
// off the diagonal: dA = U (diag(gs) + (F * (U^T gU - gU^T U)) S + S (F * (V^T gV - gV^T
// V))) V^T + (I - U U^T) gU S^-1 V^T + U S^-1 gV^T (I - V V^T). One of the last two terms
// vanishes (U or V is square). Without compute_uv, dA = U diag(gs) V^T.
absl::Status SvdGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output a = In(op, 0), sv = Out(op, 0);
  const auto row = [&](const Output& x) { return ExpandDims(s, x, -2); };
  if (!op.node()->attr<bool>("compute_uv")) {
    const Svd thin(s, a);
    out->push_back(BatchMatMulV2(s, Mul(s, thin.u, row(g[0])), thin.v, BatchMatMulV2::AdjY(true)));
    return s.status();
  }
  Output u = Out(op, 1), v = Out(op, 2), gu = g[1], gv = g[2];
  if (op.node()->attr<bool>("full_matrices")) {
    const Output k = MinDimVector(s, a);
    const Output u1 = Columns(s, u, k, true), v1 = Columns(s, v, k, true);
    gu = FoldComplement(s, u1, Columns(s, u, k, false), Columns(s, gu, k, true),
                        Columns(s, gu, k, false));
    gv = FoldComplement(s, v1, Columns(s, v, k, false), Columns(s, gv, k, true),
                        Columns(s, gv, k, false));
    u = u1;
    v = v1;
  }
  const Output s2 = Square(s, sv);
  const Output f =
      MatrixSetDiag(s, SafeReciprocal(s, Sub(s, row(s2), ExpandDims(s, s2, -1))), ZerosLike(s, sv));
  const Output ugu = BatchMatMulV2(s, u, gu, BatchMatMulV2::AdjX(true));
  const Output vgv = BatchMatMulV2(s, v, gv, BatchMatMulV2::AdjX(true));
  const Output fu = Mul(s, f, Sub(s, ugu, BatchMatMulV2(s, gu, u, BatchMatMulV2::AdjX(true))));
  const Output fv = Mul(s, f, Sub(s, vgv, BatchMatMulV2(s, gv, v, BatchMatMulV2::AdjX(true))));
  const Output inner =
      Add(s, MatrixDiag(s, g[0]), Add(s, Mul(s, fu, row(sv)), Mul(s, ExpandDims(s, sv, -1), fv)));
  const Output s_inv = row(SafeReciprocal(s, sv));
  const Output beside_u = Mul(s, Sub(s, gu, BatchMatMulV2(s, u, ugu)), s_inv);
  const Output beside_v = Sub(s, gv, BatchMatMulV2(s, v, vgv));
  const Output core = Add(s, BatchMatMulV2(s, u, inner), beside_u);
  out->push_back(Add(s, BatchMatMulV2(s, core, v, BatchMatMulV2::AdjY(true)),
                     BatchMatMulV2(s, Mul(s, u, s_inv), beside_v, BatchMatMulV2::AdjY(true))));
  return s.status();
}

RILL_REGISTER_GRADIENT("Qr", QrGrad);
RILL_REGISTER_GRADIENT("Svd", SvdGrad);
RILL_REGISTER_GRADIENT("MatrixInverse", InverseGrad);
RILL_REGISTER_GRADIENT("SelfAdjointEigV2", SelfAdjointEigGrad);
RILL_REGISTER_GRADIENT("MatrixTriangularSolve", TriangularSolveGrad);
RILL_REGISTER_GRADIENT("Cholesky", CholeskyGrad);
RILL_REGISTER_GRADIENT("MatrixDeterminant", DeterminantGrad);
RILL_REGISTER_GRADIENT("LogMatrixDeterminant", LogDeterminantGrad);
RILL_REGISTER_GRADIENT("MatrixSolve", SolveGrad);

}  // namespace
}  // namespace rill::ops
