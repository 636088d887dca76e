// BatchNormWithGlobalNormalization and its gradient op (ops/batch_norm_global_ops.h):
// schemas, shape function (core/batch_norm_global.h's checks), wrappers and gradients. The
// forward op's gradient is the gradient op, whose own is refused (TensorFlow has none).
#include "rill/ops/batch_norm_global_ops.h"

#include "rill/core/batch_norm_global.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

void GlobalNormAttrs(OpDefBuilder& b) {
  b.TypeAttr("T", kFloatTypes)
      .Attr("variance_epsilon", AttrKind::kFloat)
      .Attr("scale_after_normalization", AttrKind::kBool)
      .SetShapeFn(GlobalNormShape);
}

}  // namespace

RILL_REGISTER_OP("BatchNormWithGlobalNormalization")
    .Input("t", "T")
    .Input("m", "T")
    .Input("v", "T")
    .Input("beta", "T")
    .Input("gamma", "T")
    .Output("result", "T")
    .Apply(GlobalNormAttrs);

RILL_REGISTER_OP("BatchNormWithGlobalNormalizationGrad")
    .Input("t", "T")
    .Input("m", "T")
    .Input("v", "T")
    .Input("gamma", "T")
    .Input("backprop", "T")
    .Output("dx", "T")
    .Output("dm", "T")
    .Output("dv", "T")
    .Output("db", "T")
    .Output("dg", "T")
    .Apply(GlobalNormAttrs);

namespace ops {
namespace {

absl::Status GlobalNormGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                            std::vector<Output>* out) {
  const Node* n = op.node();
  BatchNormWithGlobalNormalizationGrad d(s, grad::In(op, 0), grad::In(op, 1), grad::In(op, 2),
                                         grad::In(op, 4), g[0], n->attr<float>("variance_epsilon"),
                                         n->attr<bool>("scale_after_normalization"));
  for (size_t i = 0; i < 5; ++i) out->push_back(d[i]);  // t, m, v, beta, gamma
  return s.status();
}

absl::Status GlobalNormGradGrad(const Scope&, const Operation& op, const std::vector<Output>&,
                                std::vector<Output>*) {
  return errors::InvalidArgument(
      "second derivatives of BatchNormWithGlobalNormalization are not computed: ",
      op.node()->DebugName(), " is its first derivative");
}

}  // namespace

BatchNormWithGlobalNormalization::BatchNormWithGlobalNormalization(const Scope& scope, Input t,
                                                                   Input m, Input v, Input beta,
                                                                   Input gamma,
                                                                   float variance_epsilon,
                                                                   bool scale_after_normalization) {
  internal::NodeBuilder(scope, "BatchNormWithGlobalNormalization")
      .Input(t)
      .Input(m)
      .Input(v)
      .Input(beta)
      .Input(gamma)
      .Attr("variance_epsilon", variance_epsilon)
      .Attr("scale_after_normalization", scale_after_normalization)
      .Finalize(this);
}

BatchNormWithGlobalNormalizationGrad::BatchNormWithGlobalNormalizationGrad(
    const Scope& scope, Input t, Input m, Input v, Input gamma, Input backprop,
    float variance_epsilon, bool scale_after_normalization) {
  Fill(internal::NodeBuilder(scope, "BatchNormWithGlobalNormalizationGrad")
           .Input(t)
           .Input(m)
           .Input(v)
           .Input(gamma)
           .Input(backprop)
           .Attr("variance_epsilon", variance_epsilon)
           .Attr("scale_after_normalization", scale_after_normalization)
           .Finalize());
}

RILL_REGISTER_GRADIENT("BatchNormWithGlobalNormalization", GlobalNormGrad);
RILL_REGISTER_GRADIENT("BatchNormWithGlobalNormalizationGrad", GlobalNormGradGrad);

}  // namespace ops
}  // namespace rill
