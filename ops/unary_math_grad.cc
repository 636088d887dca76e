// Gradients of the float math ops of core/unary_math.h, composed from other ops as
// TensorFlow defines them; Floor, Ceil and Round are not differentiable (a step function's
// gradient is zero almost everywhere; TensorFlow returns none).
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"

namespace rill::ops {
namespace {

using grad::In;
using grad::Out;
using grad::Scalar;
using grad::T;
using GradOut = std::vector<Output>;

// d rsqrt(x) = -y^3 / 2
absl::Status RsqrtGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output y = Out(op);
  out->push_back(Mul(s, g[0], Mul(s, Mul(s, y, Square(s, y)), Scalar(s, -0.5, T(op)))));
  return s.status();
}
// d (1/x) = -y^2
absl::Status ReciprocalGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Neg(s, Mul(s, g[0], Square(s, Out(op)))));
  return s.status();
}
absl::Status SinGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Cos(s, In(op, 0))));
  return s.status();
}
absl::Status CosGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Neg(s, Mul(s, g[0], Sin(s, In(op, 0)))));
  return s.status();
}
// d erf(x) = 2 / sqrt(pi) * e^(-x^2)
absl::Status ErfGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  constexpr double kTwoOverSqrtPi = 1.1283791670955126;
  Output e = Exp(s, Neg(s, Square(s, In(op, 0))));
  out->push_back(Mul(s, g[0], Mul(s, e, Scalar(s, kTwoOverSqrtPi, T(op)))));
  return s.status();
}
// d softplus(x) = sigmoid(x)
absl::Status SoftplusGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Sigmoid(s, In(op, 0))));
  return s.status();
}

RILL_REGISTER_GRADIENT("Rsqrt", RsqrtGrad);
RILL_REGISTER_GRADIENT("Reciprocal", ReciprocalGrad);
RILL_REGISTER_GRADIENT("Sin", SinGrad);
RILL_REGISTER_GRADIENT("Cos", CosGrad);
RILL_REGISTER_GRADIENT("Erf", ErfGrad);
RILL_REGISTER_GRADIENT("Softplus", SoftplusGrad);
RILL_REGISTER_NO_GRADIENT("Floor");
RILL_REGISTER_NO_GRADIENT("Ceil");
RILL_REGISTER_NO_GRADIENT("Round");

}  // namespace
}  // namespace rill::ops
