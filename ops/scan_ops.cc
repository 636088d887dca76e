// Cumsum and Cumprod: schemas, shape functions, wrappers and gradients (TensorFlow's).
#include "rill/ops/scan_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill {
namespace {

absl::Status ScanShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 1, "axis"));
  const PartialTensorShape& x = c.input_shape(0);
  if (!x.unknown_rank()) {
    if (x.dims() == 0) return errors::InvalidArgument("x must have rank >= 1, got a scalar");
    RILL_ASSIGN_OR_RETURN(auto axis, shape_fns::ConstInts(c, 1, "axis"));
    if (axis) RILL_RETURN_IF_ERROR(shape_fns::CanonicalAxis((*axis)[0], x.dims(), "axis").status());
  }
  c.set_output(0, x);
  return absl::OkStatus();
}

}  // namespace

#define RILL_REGISTER_SCAN_OP(Name)              \
  RILL_REGISTER_OP(Name)                         \
      .Input("x", "T")                           \
      .Input("axis", "Tidx")                     \
      .Output("out", "T")                        \
      .Attr("exclusive", AttrKind::kBool, false) \
      .Attr("reverse", AttrKind::kBool, false)   \
      .TypeAttr("T", kNumberTypes)               \
      .TypeAttr("Tidx", kIndexTypes, DT_INT32)   \
      .SetShapeFn(ScanShape)
RILL_REGISTER_SCAN_OP("Cumsum");
RILL_REGISTER_SCAN_OP("Cumprod");
#undef RILL_REGISTER_SCAN_OP

namespace ops {

using internal::NodeBuilder;

#define RILL_DEFINE_SCAN_OP(Name)                                           \
  Name::Name(const Scope& scope, Input x, Input axis, const Attrs& attrs) { \
    NodeBuilder(scope, #Name)                                               \
        .Input(x)                                                           \
        .Input(axis)                                                        \
        .Attr("exclusive", attrs.exclusive_)                                \
        .Attr("reverse", attrs.reverse_)                                    \
        .Finalize(this);                                                    \
  }
RILL_DEFINE_SCAN_OP(Cumsum)
RILL_DEFINE_SCAN_OP(Cumprod)
#undef RILL_DEFINE_SCAN_OP

namespace {

using GradOut = std::vector<Output>;

// The same scan of the gradient, run the other way.
ScanAttrs Backward(const Operation& op) {
  return ScanAttrs()
      .Exclusive(op.node()->attr<bool>("exclusive"))
      .Reverse(!op.node()->attr<bool>("reverse"));
}

absl::Status CumsumGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Cumsum(s, g[0], grad::In(op, 1), Backward(op)));
  out->push_back(Output());
  return s.status();
}

// TensorFlow's formula: sum over the later outputs of g * output, divided by x; like
// TensorFlow's, it is undefined where x is 0.
absl::Status CumprodGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output x = grad::In(op, 0);
  Output summed = Cumsum(s, Mul(s, grad::Out(op), g[0]), grad::In(op, 1), Backward(op));
  out->push_back(Div(s, summed, x));
  out->push_back(Output());
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("Cumsum", CumsumGrad);
RILL_REGISTER_GRADIENT("Cumprod", CumprodGrad);

}  // namespace ops
}  // namespace rill
