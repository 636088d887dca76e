// Gradients of the square-matrix ops, TensorFlow's (linalg_grad.py) for real matrices:
//  - MatrixInverse: with C = inv(A), dA = -C^T g C^T (adjoint: -C g^T C).
//  - MatrixDeterminant: dA = g det(A) inv(A)^T; LogMatrixDeterminant: dA = g inv(A)^T (the
//    sign has none). Both need A invertible, as TensorFlow's.
//  - MatrixSolve: with X the solution, dB = solve(A^T, g) and dA = -dB X^T (adjoint:
//    dB = solve(A, g), dA = -X dB^T).
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/linalg_ops.h"
#include "rill/ops/math_ops.h"

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

RILL_REGISTER_GRADIENT("MatrixInverse", InverseGrad);
RILL_REGISTER_GRADIENT("MatrixDeterminant", DeterminantGrad);
RILL_REGISTER_GRADIENT("LogMatrixDeterminant", LogDeterminantGrad);
RILL_REGISTER_GRADIENT("MatrixSolve", SolveGrad);

}  // namespace
}  // namespace rill::ops
