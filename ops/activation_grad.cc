// Gradients of Relu6, Elu, Selu and LeakyRelu as TensorFlow defines them, through their
// gradient ops, and those ops' own gradients (second order).
#include "rill/ops/activation_ops.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill::ops {
namespace {

using grad::In;
using grad::Out;
using grad::T;
using GradOut = std::vector<Output>;

LeakyRelu::Attrs AlphaOf(const Operation& op) {
  return LeakyRelu::Alpha(op.node()->attr<float>("alpha"));
}

absl::Status Relu6GradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Relu6Grad(s, g[0], In(op, 0)));
  return s.status();
}
absl::Status EluGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(EluGrad(s, g[0], Out(op)));
  return s.status();
}
absl::Status SeluGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(SeluGrad(s, g[0], Out(op)));
  return s.status();
}
absl::Status LeakyReluGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(LeakyReluGrad(s, g[0], In(op, 0), AlphaOf(op)));
  return s.status();
}

// Second order. Relu6Grad(dy, x) and LeakyReluGrad(dy, x) are dy times a mask of x's
// regions: d/d dy is the same mask, d/dx is 0.
absl::Status Relu6GradGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Relu6Grad(s, g[0], In(op, 1)));
  out->push_back(ZerosLike(s, In(op, 1)));
  return s.status();
}
absl::Status LeakyReluGradGrad(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  out->push_back(LeakyReluGrad(s, g[0], In(op, 1), AlphaOf(op)));
  out->push_back(ZerosLike(s, In(op, 1)));
  return s.status();
}
// EluGrad(dy, y) = y < 0 ? dy * (y + c) : dy * k (SeluGrad: c = scale * alpha, k = scale):
// d/d dy is the op itself on g; d/dy = y < 0 ? g * dy : 0.
template <typename GradOp>
absl::Status ExpGradGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output dy = In(op, 0), y = In(op, 1);
  out->push_back(GradOp(s, g[0], y));
  Output negative = Cast(s, Less(s, y, grad::Scalar(s, 0, T(op))), T(op));
  out->push_back(Mul(s, Mul(s, g[0], dy), negative));
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("Relu6", Relu6GradFn);
RILL_REGISTER_GRADIENT("Elu", EluGradFn);
RILL_REGISTER_GRADIENT("Selu", SeluGradFn);
RILL_REGISTER_GRADIENT("LeakyRelu", LeakyReluGradFn);
RILL_REGISTER_GRADIENT("Relu6Grad", Relu6GradGrad);
RILL_REGISTER_GRADIENT("LeakyReluGrad", LeakyReluGradGrad);
RILL_REGISTER_GRADIENT("EluGrad", ExpGradGrad<EluGrad>);
RILL_REGISTER_GRADIENT("SeluGrad", ExpGradGrad<SeluGrad>);

}  // namespace rill::ops
