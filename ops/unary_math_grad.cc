// Gradients of the float math ops of core/unary_math.h, composed from other ops as
// TensorFlow defines them; Floor, Ceil, Round and Rint are not differentiable (a step function's
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
// d erfc(x) = -2 / sqrt(pi) * e^(-x^2)
absl::Status ErfcGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  constexpr double kMinusTwoOverSqrtPi = -1.1283791670955126;
  Output e = Exp(s, Neg(s, Square(s, In(op, 0))));
  out->push_back(Mul(s, g[0], Mul(s, e, Scalar(s, kMinusTwoOverSqrtPi, T(op)))));
  return s.status();
}
// d softplus(x) = sigmoid(x)
absl::Status SoftplusGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Sigmoid(s, In(op, 0))));
  return s.status();
}

// d softsign(x) = 1 / (1 + |x|)^2
absl::Status SoftsignGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output denom = Add(s, Scalar(s, 1, T(op)), Abs(s, In(op, 0)));
  out->push_back(Div(s, g[0], Square(s, denom)));
  return s.status();
}

// d lgamma = digamma, d digamma = polygamma(1, x) (TensorFlow's).
absl::Status LgammaGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Digamma(s, In(op, 0))));
  return s.status();
}
absl::Status DigammaGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Polygamma(s, Scalar(s, 1, T(op)), In(op, 0))));
  return s.status();
}

// The rest as TensorFlow's math_grad: d expm1 = e^x, d log1p = 1 / (1 + x),
// d sinh = cosh, d cosh = sinh, d tan = 1 / cos^2, d asin = 1 / sqrt(1 - x^2),
// d acos = -1 / sqrt(1 - x^2), d atan = 1 / (1 + x^2), d asinh = 1 / cosh(y),
// d acosh = 1 / sinh(y), d atanh = 1 / (1 - x^2).
Output One(const Scope& s, const Operation& op) { return Scalar(s, 1, T(op)); }
absl::Status Expm1Grad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Exp(s, In(op, 0))));
  return s.status();
}
absl::Status Log1pGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Reciprocal(s, Add(s, One(s, op), In(op, 0)))));
  return s.status();
}
absl::Status SinhGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Cosh(s, In(op, 0))));
  return s.status();
}
absl::Status CoshGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Sinh(s, In(op, 0))));
  return s.status();
}
absl::Status TanGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Square(s, Reciprocal(s, Cos(s, In(op, 0))))));
  return s.status();
}
// 1 / sqrt(1 - x^2), negated for acos.
Output InvSqrtOneMinusSquare(const Scope& s, const Operation& op) {
  return Rsqrt(s, Sub(s, One(s, op), Square(s, In(op, 0))));
}
absl::Status AsinGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], InvSqrtOneMinusSquare(s, op)));
  return s.status();
}
absl::Status AcosGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Neg(s, Mul(s, g[0], InvSqrtOneMinusSquare(s, op))));
  return s.status();
}
absl::Status AtanGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Reciprocal(s, Add(s, One(s, op), Square(s, In(op, 0))))));
  return s.status();
}
absl::Status AsinhGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Reciprocal(s, Cosh(s, Out(op)))));
  return s.status();
}
absl::Status AcoshGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Reciprocal(s, Sinh(s, Out(op)))));
  return s.status();
}
absl::Status AtanhGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Reciprocal(s, Sub(s, One(s, op), Square(s, In(op, 0))))));
  return s.status();
}

RILL_REGISTER_GRADIENT("Expm1", Expm1Grad);
RILL_REGISTER_GRADIENT("Log1p", Log1pGrad);
RILL_REGISTER_GRADIENT("Sinh", SinhGrad);
RILL_REGISTER_GRADIENT("Cosh", CoshGrad);
RILL_REGISTER_GRADIENT("Tan", TanGrad);
RILL_REGISTER_GRADIENT("Asin", AsinGrad);
RILL_REGISTER_GRADIENT("Acos", AcosGrad);
RILL_REGISTER_GRADIENT("Atan", AtanGrad);
RILL_REGISTER_GRADIENT("Asinh", AsinhGrad);
RILL_REGISTER_GRADIENT("Acosh", AcoshGrad);
RILL_REGISTER_GRADIENT("Atanh", AtanhGrad);
RILL_REGISTER_GRADIENT("Rsqrt", RsqrtGrad);
RILL_REGISTER_GRADIENT("Reciprocal", ReciprocalGrad);
RILL_REGISTER_GRADIENT("Sin", SinGrad);
RILL_REGISTER_GRADIENT("Cos", CosGrad);
RILL_REGISTER_GRADIENT("Erf", ErfGrad);
RILL_REGISTER_GRADIENT("Erfc", ErfcGrad);
RILL_REGISTER_GRADIENT("Softplus", SoftplusGrad);
RILL_REGISTER_GRADIENT("Softsign", SoftsignGrad);
RILL_REGISTER_GRADIENT("Lgamma", LgammaGrad);
RILL_REGISTER_GRADIENT("Digamma", DigammaGrad);
RILL_REGISTER_NO_GRADIENT("Floor");
RILL_REGISTER_NO_GRADIENT("Ceil");
RILL_REGISTER_NO_GRADIENT("Round");
RILL_REGISTER_NO_GRADIENT("Rint");
// Predicates: bool results have no gradient.
RILL_REGISTER_NO_GRADIENT("IsNan");
RILL_REGISTER_NO_GRADIENT("IsInf");
RILL_REGISTER_NO_GRADIENT("IsFinite");

}  // namespace
}  // namespace rill::ops
