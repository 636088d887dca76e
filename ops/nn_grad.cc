// Gradients of the nn family: activations (fused gradient ops), softmax, and the losses.
#include "rill/ops/array_ops.h"
#include "rill/ops/conv_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;
using grad::Out;
using grad::T;

absl::Status ReluGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(ReluGrad(s, g[0], In(op, 0)));
  return s.status();
}
absl::Status SigmoidGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(SigmoidGrad(s, Out(op), g[0]));
  return s.status();
}
absl::Status TanhGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(TanhGrad(s, Out(op), g[0]));
  return s.status();
}

// Second order. ReluGrad(g, x) = g * (x > 0): d/dg is the same mask, d/dx is 0.
absl::Status ReluGradGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(ReluGrad(s, g[0], In(op, 1)));
  out->push_back(ZerosLike(s, In(op, 1)));
  return s.status();
}
// SigmoidGrad(y, dy) = dy * y * (1 - y)
absl::Status SigmoidGradGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output y = In(op, 0), dy = In(op, 1);
  Output one_minus_2y = Sub(s, grad::Scalar(s, 1, T(op)), Mul(s, grad::Scalar(s, 2, T(op)), y));
  out->push_back(Mul(s, g[0], Mul(s, dy, one_minus_2y)));
  out->push_back(SigmoidGrad(s, y, g[0]));
  return s.status();
}
// TanhGrad(y, dy) = dy * (1 - y^2)
absl::Status TanhGradGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output y = In(op, 0), dy = In(op, 1);
  out->push_back(Mul(s, g[0], Mul(s, dy, Mul(s, grad::Scalar(s, -2, T(op)), y))));
  out->push_back(TanhGrad(s, y, g[0]));
  return s.status();
}

// y = softmax(x): dx = (dy - sum(dy * y, last axis)) * y
absl::Status SoftmaxGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output y = Out(op);
  Output dot = Sum(s, Mul(s, g[0], y), -1, Sum::KeepDims(true));
  out->push_back(Mul(s, Sub(s, g[0], dot), y));
  return s.status();
}
// y = log_softmax(x): dx = dy - exp(y) * sum(dy, last axis)
absl::Status LogSoftmaxGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output total = Sum(s, g[0], -1, Sum::KeepDims(true));
  out->push_back(Sub(s, g[0], Mul(s, Exp(s, Out(op)), total)));
  return s.status();
}

// The backprop output is itself a gradient; differentiating through the Keras loss's
// (second order) is refused rather than answered wrongly.
absl::Status NoBackpropGrad(const Operation& op, const GradOut& g) {
  const Node* n = g[1].node();
  if (n != nullptr && n->type_string() != "ZerosLike") {
    return errors::InvalidArgument("cannot differentiate through output 1 (backprop) of ",
                                   op.node()->DebugName(),
                                   "; use output 0 (loss) or compute the softmax separately");
  }
  return absl::OkStatus();
}

// Whether a gradient reaches output 1 (backprop = softmax(logits) - labels).
bool HasBackpropGrad(const GradOut& g) {
  const Node* n = g[1].node();
  return n != nullptr && n->type_string() != "ZerosLike";
}

// backprop = softmax(logits) * sum(labels) - labels (softmax - labels for a distribution);
// a gradient gg reaching it (second order) adds, per row with p = softmax(logits) and
// dot = sum(gg * p), sum(labels) * (gg - dot) * p to the logits and dot - gg to the labels.
struct BackpropTerms {
  Output logits, labels;
};
BackpropTerms XentBackpropGrad(const Scope& s, const Operation& op, const Output& gg) {
  Output p = Softmax(s, In(op, 0));
  Output dot = Sum(s, Mul(s, gg, p), -1, Sum::KeepDims(true));
  Output mass = Sum(s, In(op, 1), -1, Sum::KeepDims(true));
  return {Mul(s, mass, Mul(s, Sub(s, gg, dot), p)), Sub(s, dot, gg)};
}

// logits: dloss * backprop; labels: dloss * -log_softmax(logits); plus the backprop terms.
absl::Status SoftmaxXentGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output dl = ExpandDims(s, g[0], 1);
  Output logits = Mul(s, dl, Out(op, 1));
  Output labels = Mul(s, dl, Neg(s, LogSoftmax(s, In(op, 0))));
  if (HasBackpropGrad(g)) {
    const BackpropTerms t = XentBackpropGrad(s, op, g[1]);
    logits = Add(s, logits, t.logits);
    labels = Add(s, labels, t.labels);
  }
  out->push_back(logits);
  out->push_back(labels);
  return s.status();
}
// Sparse: backprop = softmax - onehot(label); the logits get (gg - dot) * p.
absl::Status SparseSoftmaxXentGrad(const Scope& s, const Operation& op, const GradOut& g,
                                   GradOut* out) {
  Output logits = Mul(s, ExpandDims(s, g[0], 1), Out(op, 1));
  if (HasBackpropGrad(g)) {
    Output p = Softmax(s, In(op, 0));
    Output dot = Sum(s, Mul(s, g[1], p), -1, Sum::KeepDims(true));
    logits = Add(s, logits, Mul(s, Sub(s, g[1], dot), p));
  }
  out->push_back(logits);
  out->push_back(Output());
  return s.status();
}
// The labels of a Keras loss are data: no gradient flows to them.
absl::Status CategoricalCrossentropyGrad(const Scope& s, const Operation& op, const GradOut& g,
                                         GradOut* out) {
  RILL_RETURN_IF_ERROR(NoBackpropGrad(op, g));
  out->push_back(Mul(s, ExpandDims(s, g[0], 1), Out(op, 1)));
  out->push_back(Output());
  return s.status();
}
// d/dx = sigmoid(x) - z, d/dz = -x
absl::Status SigmoidXentGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), z = In(op, 1);
  out->push_back(Mul(s, g[0], Sub(s, Sigmoid(s, x), z)));
  out->push_back(Mul(s, g[0], Neg(s, x)));
  return s.status();
}

// The mask is the derivative; no gradient flows into the mask output itself.
absl::Status DropoutGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, g[0], Out(op, 1)));
  return s.status();
}

std::string Activation(const Operation& op) { return op.node()->attr<std::string>("activation"); }
absl::Status BiasActivationGradFn(const Scope& s, const Operation& op, const GradOut& g,
                                  GradOut* out) {
  BiasActivationGrad d(s, g[0], Out(op), Activation(op));
  out->push_back(d.backprops);
  out->push_back(d.bias_backprop);
  return s.status();
}
// Second order. Both outputs are linear in dy: with gz = g_backprops + g_bias (the bias's
// gradient broadcast over the rows), d/d(dy) is gz times the activation's derivative, and
// d/dy is gz * dy times the derivative's derivative in y (relu: 0; sigmoid, y(1 - y): 1 - 2y;
// tanh, 1 - y^2: -2y).
absl::Status BiasActivationGradGrad(const Scope& s, const Operation& op, const GradOut& g,
                                    GradOut* out) {
  const std::string a = Activation(op);
  Output dy = In(op, 0), y = In(op, 1);
  Output gz = BiasAdd(s, g[0], g[1]);
  if (a == "relu") {
    out->push_back(ReluGrad(s, gz, y));
    out->push_back(Output());
  } else if (a == "sigmoid") {
    out->push_back(SigmoidGrad(s, y, gz));
    out->push_back(Mul(s, Mul(s, gz, dy),
                       Sub(s, grad::Scalar(s, 1, T(op)), Mul(s, grad::Scalar(s, 2, T(op)), y))));
  } else {
    out->push_back(TanhGrad(s, y, gz));
    out->push_back(Mul(s, Mul(s, gz, dy), Mul(s, grad::Scalar(s, -2, T(op)), y)));
  }
  return s.status();
}

// L2Loss = sum(t^2) / 2: dt = t * g.
absl::Status L2LossGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Mul(s, In(op, 0), g[0]));
  return s.status();
}

RILL_REGISTER_GRADIENT("Dropout", DropoutGrad);
RILL_REGISTER_GRADIENT("Relu", ReluGradFn);
RILL_REGISTER_GRADIENT("L2Loss", L2LossGrad);
RILL_REGISTER_GRADIENT("Sigmoid", SigmoidGradFn);
RILL_REGISTER_GRADIENT("Tanh", TanhGradFn);
RILL_REGISTER_GRADIENT("ReluGrad", ReluGradGrad);
RILL_REGISTER_GRADIENT("SigmoidGrad", SigmoidGradGrad);
RILL_REGISTER_GRADIENT("TanhGrad", TanhGradGrad);
RILL_REGISTER_GRADIENT("Softmax", SoftmaxGrad);
RILL_REGISTER_GRADIENT("LogSoftmax", LogSoftmaxGrad);
RILL_REGISTER_GRADIENT("SoftmaxCrossEntropyWithLogits", SoftmaxXentGrad);
RILL_REGISTER_GRADIENT("SparseSoftmaxCrossEntropyWithLogits", SparseSoftmaxXentGrad);
RILL_REGISTER_GRADIENT("SigmoidCrossEntropyWithLogits", SigmoidXentGrad);
RILL_REGISTER_GRADIENT("_CategoricalCrossentropy", CategoricalCrossentropyGrad);
RILL_REGISTER_GRADIENT("_BiasActivation", BiasActivationGradFn);
RILL_REGISTER_GRADIENT("_BiasActivationGrad", BiasActivationGradGrad);
RILL_REGISTER_NO_GRADIENT("_Accuracy");  // a count of hits, like ArgMax and Equal

}  // namespace
}  // namespace rill::ops
