// CheckNumerics: schema, wrapper and gradient. Not stateful: it is the identity or an
// error, so folding or merging two alike changes neither result.
#include "rill/ops/debug_ops.h"

#include "absl/strings/str_cat.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"

namespace rill {

RILL_REGISTER_OP("CheckNumerics")
    .Input("tensor", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("message", AttrKind::kString)
    .SetShapeFn(shape_fns::Unchanged);

namespace ops {

CheckNumerics::CheckNumerics(const Scope& scope, Input tensor, const std::string& message) {
  internal::NodeBuilder(scope, "CheckNumerics")
      .Input(tensor)
      .Attr("message", message)
      .Finalize(this);
}

namespace {
// The gradient checked too, as TensorFlow's.
absl::Status CheckNumericsGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                               std::vector<Output>* out) {
  const std::string message =
      absl::StrCat("Not a number (NaN) or infinity (Inf) values detected in gradient. ",
                   op.node()->attr<std::string>("message"));
  out->push_back(CheckNumerics(s, g[0], message));
  return s.status();
}
}  // namespace

RILL_REGISTER_GRADIENT("CheckNumerics", CheckNumericsGrad);

}  // namespace ops
}  // namespace rill
