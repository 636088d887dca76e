#include "rill/ops/activation_ops.h"

#include "rill/core/shape_inference.h"

namespace rill {

RILL_REGISTER_OP("Relu6")
    .Input("features", "T")
    .Output("activations", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("Elu")
    .Input("features", "T")
    .Output("activations", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("Selu")
    .Input("features", "T")
    .Output("activations", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("LeakyRelu")
    .Input("features", "T")
    .Output("activations", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("alpha", AttrKind::kFloat, 0.2f)
    .SetShapeFn(shape_fns::Unchanged);

RILL_REGISTER_OP("Relu6Grad")
    .Input("gradients", "T")
    .Input("features", "T")
    .Output("backprops", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(shape_fns::SameShapes);
RILL_REGISTER_OP("EluGrad")
    .Input("gradients", "T")
    .Input("outputs", "T")
    .Output("backprops", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::SameShapes);
RILL_REGISTER_OP("SeluGrad")
    .Input("gradients", "T")
    .Input("outputs", "T")
    .Output("backprops", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::SameShapes);
RILL_REGISTER_OP("LeakyReluGrad")
    .Input("gradients", "T")
    .Input("features", "T")
    .Output("backprops", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("alpha", AttrKind::kFloat, 0.2f)
    .SetShapeFn(shape_fns::SameShapes);

namespace ops {
using internal::NodeBuilder;

RILL_DEFINE_UNARY_OP(Relu6)
RILL_DEFINE_UNARY_OP(Elu)
RILL_DEFINE_UNARY_OP(Selu)
RILL_DEFINE_BINARY_OP(Relu6Grad)
RILL_DEFINE_BINARY_OP(EluGrad)
RILL_DEFINE_BINARY_OP(SeluGrad)

LeakyRelu::LeakyRelu(const Scope& scope, Input features, const Attrs& attrs) {
  NodeBuilder(scope, "LeakyRelu").Input(features).Attr("alpha", attrs.alpha_).Finalize(this);
}
LeakyReluGrad::LeakyReluGrad(const Scope& scope, Input gradients, Input features,
                             const Attrs& attrs) {
  NodeBuilder(scope, "LeakyReluGrad")
      .Input(gradients)
      .Input(features)
      .Attr("alpha", attrs.alpha_)
      .Finalize(this);
}

}  // namespace ops
}  // namespace rill
