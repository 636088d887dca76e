// IsotonicRegression and its gradient op (ops/nn_ops.h): schemas, shape functions
// (core/isotonic.h), wrappers and gradients. The fit is each block's mean, so its gradient
// averages the incoming one within each segment (_IsotonicRegressionGrad); that map is its
// own adjoint, so the gradient op's gradient is the gradient op again.
#include "rill/core/isotonic.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"

namespace rill {

RILL_REGISTER_OP("IsotonicRegression")
    .Input("input", "T")
    .Output("output", "output_dtype")
    .Output("segments", DT_INT32)
    .TypeAttr("T", kNumberTypes)
    .TypeAttr("output_dtype", kFloatTypes, DT_FLOAT)
    .SetShapeFn(IsotonicShape);

RILL_REGISTER_OP("_IsotonicRegressionGrad")
    .Input("grads", "T")
    .Input("segments", DT_INT32)
    .Output("backprops", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(IsotonicGradShape);

namespace ops {
namespace {

// The gradient of output, cast to input's dtype (an integer input has none).
absl::Status IsotonicGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                          std::vector<Output>* out) {
  const DataType in = grad::In(op, 0).type();
  if (in != DT_FLOAT && in != DT_DOUBLE) {
    out->push_back(Output());
    return s.status();
  }
  Output d = internal::IsotonicRegressionGrad(s, g[0], grad::Out(op, 1));
  out->push_back(d.type() == in ? d : Output(Cast(s, d, in)));
  return s.status();
}

absl::Status IsotonicGradGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                              std::vector<Output>* out) {
  out->push_back(internal::IsotonicRegressionGrad(s, g[0], grad::In(op, 1)));
  out->push_back(Output());
  return s.status();
}

}  // namespace

IsotonicRegression::IsotonicRegression(const Scope& scope, Input input, const Attrs& attrs)
    : operation(internal::NodeBuilder(scope, "IsotonicRegression")
                    .Input(input)
                    .Attr("output_dtype", attrs.output_dtype_)
                    .Finalize()) {
  if (operation.node() == nullptr) return;
  output = Output(operation, 0);
  segments = Output(operation, 1);
}

namespace internal {
IsotonicRegressionGrad::IsotonicRegressionGrad(const Scope& scope, Input grads, Input segments) {
  NodeBuilder(scope, "_IsotonicRegressionGrad").Input(grads).Input(segments).Finalize(this);
}
}  // namespace internal

RILL_REGISTER_GRADIENT("IsotonicRegression", IsotonicGrad);
RILL_REGISTER_GRADIENT("_IsotonicRegressionGrad", IsotonicGradGrad);

}  // namespace ops
}  // namespace rill
