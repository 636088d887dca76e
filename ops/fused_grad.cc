// The gradients of _FusedMatMul and _FusedConv2D. TensorFlow defines none (its fused ops
// exist only in optimized graphs); rill's remapper runs before differentiation too, and a
// program may build them, so each is differentiated as the ops it fuses:
// - a bias with Relu, Sigmoid or Tanh: one _BiasActivationGrad, then the base op's
//   gradient of its backprops;
// - a bias with Relu6, Elu, LeakyRelu or nothing: the activation's gradient op from the
//   output, BiasAddGrad, then the base op's gradient;
// - a batch norm: the product, FusedBatchNormV3 (inference) and the activation built again
//   and differentiated, so scale, offset and the input get their gradients and the mean
//   and variance none, as through the unfused ops.
#include "rill/core/fused_epilogue.h"
#include "rill/ops/activation_ops.h"
#include "rill/ops/batch_norm_ops.h"
#include "rill/ops/fused_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/nn_ops.h"

namespace rill::ops {
namespace {

// The fused node's product (MatMul or Conv2D of its first two inputs, with its attrs)
// built again.
Output Product(const Scope& s, const Operation& op, const std::string& base) {
  const OpDef* def = OpRegistry::Global()->LookUp(base);
  internal::NodeBuilder b(s, base);
  b.Input(grad::In(op, 0)).Input(grad::In(op, 1));
  for (const auto& [name, value] : op.node()->attrs()) {
    if (def->FindAttr(name) != nullptr) b.Attr(name, value);
  }
  const Operation p = b.Finalize();
  return p.node() == nullptr ? Output() : Output(p.node(), 0);
}

// The activation of `x` as the fused node applies it.
Output Activate(const Scope& s, const FusedEpilogue& e, const Output& x) {
  switch (e.kind) {
    case FusedEpilogue::Kind::kRelu:
      return Relu(s, x);
    case FusedEpilogue::Kind::kSigmoid:
      return Sigmoid(s, x);
    case FusedEpilogue::Kind::kTanh:
      return Tanh(s, x);
    case FusedEpilogue::Kind::kRelu6:
      return Relu6(s, x);
    case FusedEpilogue::Kind::kElu:
      return Elu(s, x);
    case FusedEpilogue::Kind::kLeakyRelu:
      return LeakyRelu(s, x, LeakyRelu::Alpha(e.leakyrelu_alpha));
    default:
      return x;
  }
}

// d loss / d z (z = product + bias) for an activation _BiasActivationGrad does not take,
// from the output y: Relu6's mask 0 < y < 6 is z's, EluGrad reads y, and LeakyRelu's mask
// y > 0 is z > 0 for alpha >= 0; for a negative alpha (y > 0 for z < 0 too) z is built
// again.
Output PointBackprop(const Scope& s, const Operation& op, const std::string& base,
                     const FusedEpilogue& e, const Output& dy) {
  const Output y = grad::Out(op);
  switch (e.kind) {
    case FusedEpilogue::Kind::kRelu6:
      return Relu6Grad(s, dy, y);
    case FusedEpilogue::Kind::kElu:
      return EluGrad(s, dy, y);
    case FusedEpilogue::Kind::kLeakyRelu: {
      const Output z =
          e.leakyrelu_alpha < 0 ? Output(BiasAdd(s, Product(s, op, base), grad::In(op, 2))) : y;
      return LeakyReluGrad(s, dy, z, LeakyReluGrad::Alpha(e.leakyrelu_alpha));
    }
    default:
      return dy;  // the bias alone
  }
}

absl::Status BatchNormGrad(const Scope& s, const Operation& op, const std::string& base,
                           const FusedEpilogue& e, const Output& dy, std::vector<Output>* out) {
  std::vector<Output> in;
  for (int i = 0; i < 6; ++i) in.push_back(grad::In(op, i));
  FusedBatchNormV3 bn(s, Product(s, op, base), in[2], in[3], in[4], in[5],
                      FusedBatchNormV3::IsTraining(false).Epsilon(e.epsilon));
  RILL_RETURN_IF_ERROR(s.status());
  return AddSymbolicGradients(s, {Activate(s, e, bn.y)}, in, {dy}, out);
}

absl::Status FusedProductGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                              std::vector<Output>* out, const std::string& base,
                              const absl::StatusOr<FusedEpilogue>& parsed) {
  RILL_RETURN_IF_ERROR(parsed.status());
  const FusedEpilogue& e = *parsed;
  if (e.batch_norm) return BatchNormGrad(s, op, base, e, g[0], out);
  Output dz, db;
  if (const std::optional<FusedActivation> a = e.bias_activation()) {
    const char* names[] = {"relu", "sigmoid", "tanh"};
    BiasActivationGrad d(s, g[0], grad::Out(op), names[static_cast<int>(*a)]);
    dz = d.backprops;
    db = d.bias_backprop;
  } else {
    dz = PointBackprop(s, op, base, e, g[0]);
    db = BiasAddGrad(s, dz);
  }
  const GradFunc* fn = GradOpRegistry::Global()->Lookup(base);
  if (fn == nullptr) return errors::Internal("no gradient registered for ", base);
  RILL_RETURN_IF_ERROR((*fn)(s, op, {dz}, out));
  out->resize(2);  // the base op's two; the bias's follows
  out->push_back(db);
  return s.status();
}

RILL_REGISTER_GRADIENT("_FusedMatMul", [](const Scope& s, const Operation& op,
                                          const std::vector<Output>& g, std::vector<Output>* out) {
  return FusedProductGrad(s, op, g, out, "MatMul", ParseFusedMatMulEpilogue(op.node()->attrs()));
});
RILL_REGISTER_GRADIENT("_FusedConv2D", [](const Scope& s, const Operation& op,
                                          const std::vector<Output>& g, std::vector<Output>* out) {
  return FusedProductGrad(s, op, g, out, "Conv2D", ParseFusedConv2DEpilogue(op.node()->attrs()));
});

}  // namespace
}  // namespace rill::ops
