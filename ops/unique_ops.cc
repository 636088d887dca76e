// Unique and UniqueWithCounts: schemas, shape function and wrappers (kernels:
// kernels/cpu/unique_op.cc).
#include "rill/ops/unique_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"

namespace rill {

namespace {

// y (and count) of unknown length; idx of x's shape.
absl::Status UniqueShape(InferenceContext& c) {
  const PartialTensorShape& x = c.input_shape(0);
  if (!x.unknown_rank() && x.dims() != 1) {
    return errors::InvalidArgument("x must be a vector, got shape ", x.DebugString());
  }
  c.set_output(0, PartialTensorShape({-1}));
  c.set_output(1, x.unknown_rank() ? PartialTensorShape({-1}) : x);
  if (c.outputs().size() > 2) c.set_output(2, PartialTensorShape({-1}));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("Unique")
    .Input("x", "T")
    .Output("y", "T")
    .Output("idx", "out_idx")
    .TypeAttr("T")
    .TypeAttr("out_idx", kIndexTypes, DT_INT32)
    .SetShapeFn(UniqueShape);

RILL_REGISTER_OP("UniqueWithCounts")
    .Input("x", "T")
    .Output("y", "T")
    .Output("idx", "out_idx")
    .Output("count", "out_idx")
    .TypeAttr("T")
    .TypeAttr("out_idx", kIndexTypes, DT_INT32)
    .SetShapeFn(UniqueShape);

namespace ops {

Unique::Unique(const Scope& scope, Input x, const Attrs& attrs) {
  operation =
      internal::NodeBuilder(scope, "Unique").Input(x).Attr("out_idx", attrs.out_idx_).Finalize();
  if (operation.node() != nullptr) {
    y = Output(operation, 0);
    idx = Output(operation, 1);
  }
}

UniqueWithCounts::UniqueWithCounts(const Scope& scope, Input x, const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "UniqueWithCounts")
                  .Input(x)
                  .Attr("out_idx", attrs.out_idx_)
                  .Finalize();
  if (operation.node() != nullptr) {
    y = Output(operation, 0);
    idx = Output(operation, 1);
    count = Output(operation, 2);
  }
}

// As TensorFlow: neither is differentiable.
RILL_REGISTER_NO_GRADIENT("Unique");
RILL_REGISTER_NO_GRADIENT("UniqueWithCounts");

}  // namespace ops
}  // namespace rill
