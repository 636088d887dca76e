// InTopK and InTopKV2 (ops/topk_ops.h): schemas, shape function (core/in_top_k.h) and
// wrappers. A yes or no has no slope: neither is differentiable, as in TensorFlow.
#include "rill/core/in_top_k.h"
#include "rill/ops/gradients.h"
#include "rill/ops/topk_ops.h"

namespace rill {

RILL_REGISTER_OP("InTopK")
    .Input("predictions", DT_FLOAT)
    .Input("targets", "T")
    .Output("precision", DT_BOOL)
    .Attr("k", AttrKind::kInt)
    .TypeAttr("T", kIndexTypes, DT_INT32)
    .SetShapeFn(InTopKShape);

RILL_REGISTER_OP("InTopKV2")
    .Input("predictions", DT_FLOAT)
    .Input("targets", "T")
    .Input("k", "T")
    .Output("precision", DT_BOOL)
    .TypeAttr("T", kIndexTypes, DT_INT32)
    .SetShapeFn(InTopKShape);

namespace ops {

InTopK::InTopK(const Scope& scope, Input predictions, Input targets, int64_t k) {
  internal::NodeBuilder(scope, "InTopK")
      .Input(predictions)
      .Input(targets)
      .Attr("k", k)
      .Finalize(this);
  precision = output;
}

InTopKV2::InTopKV2(const Scope& scope, Input predictions, Input targets, Input k) {
  internal::NodeBuilder(scope, "InTopKV2")
      .Input(predictions)
      .Input(targets)
      .Input(k)
      .Finalize(this);
  precision = output;
}

RILL_REGISTER_NO_GRADIENT("InTopK");
RILL_REGISTER_NO_GRADIENT("InTopKV2");

}  // namespace ops
}  // namespace rill
