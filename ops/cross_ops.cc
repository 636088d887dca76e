// Cross (tf.linalg.cross): schema, shape function (core/cross.h's checks), wrapper and
// gradient. For y = a x b, dL/da = b x dy and dL/db = dy x a, built of Cross itself (so the
// gradient is differentiable in turn).
#include "rill/core/cross.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill {

RILL_REGISTER_OP("Cross")
    .Input("a", "T")
    .Input("b", "T")
    .Output("product", "T")
    .TypeAttr("T", kNumberTypes, DT_FLOAT)
    .SetShapeFn(CrossShape);

namespace ops {
namespace {

absl::Status CrossGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                       std::vector<Output>* out) {
  out->push_back(Cross(s, grad::In(op, 1), g[0]));
  out->push_back(Cross(s, g[0], grad::In(op, 0)));
  return s.status();
}

}  // namespace

Cross::Cross(const Scope& scope, Input a, Input b) {
  internal::NodeBuilder(scope, "Cross").Input(a).Input(b).Finalize(this);
}

RILL_REGISTER_GRADIENT("Cross", CrossGrad);

}  // namespace ops
}  // namespace rill
