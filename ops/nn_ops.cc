#include "rill/ops/nn_ops.h"

#include "rill/core/shape_inference.h"

namespace rill {
namespace {
absl::Status AtLeastRank1(InferenceContext& c) {
  const auto& s = c.input_shape(0);
  if (!s.unknown_rank() && s.dims() < 1) {
    return errors::InvalidArgument("logits must have rank >= 1, got shape ", s.DebugString());
  }
  return shape_fns::Unchanged(c);
}
}  // namespace

RILL_REGISTER_OP("Relu")
    .Input("features", "T")
    .Output("activations", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("Sigmoid")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("Tanh")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("Softmax")
    .Input("logits", "T")
    .Output("softmax", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(AtLeastRank1);
RILL_REGISTER_OP("LogSoftmax")
    .Input("logits", "T")
    .Output("logsoftmax", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(AtLeastRank1);

namespace ops {
using internal::NodeBuilder;
RILL_DEFINE_UNARY_OP(Relu)
RILL_DEFINE_UNARY_OP(Sigmoid)
RILL_DEFINE_UNARY_OP(Tanh)
RILL_DEFINE_UNARY_OP(Softmax)
RILL_DEFINE_UNARY_OP(LogSoftmax)
}  // namespace ops
}  // namespace rill
