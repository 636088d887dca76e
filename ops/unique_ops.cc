// Unique: schema, shape function and wrapper (kernels: kernels/cpu/unique_op.cc).
#include "rill/ops/unique_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"

namespace rill {

RILL_REGISTER_OP("Unique")
    .Input("x", "T")
    .Output("y", "T")
    .Output("idx", "out_idx")
    .TypeAttr("T")
    .TypeAttr("out_idx", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const PartialTensorShape& x = c.input_shape(0);
      if (!x.unknown_rank() && x.dims() != 1) {
        return errors::InvalidArgument("x must be a vector, got shape ", x.DebugString());
      }
      c.set_output(0, PartialTensorShape({-1}));
      c.set_output(1, x.unknown_rank() ? PartialTensorShape({-1}) : x);
      return absl::OkStatus();
    });

namespace ops {

Unique::Unique(const Scope& scope, Input x, const Attrs& attrs) {
  operation =
      internal::NodeBuilder(scope, "Unique").Input(x).Attr("out_idx", attrs.out_idx_).Finalize();
  if (operation.node() != nullptr) {
    y = Output(operation, 0);
    idx = Output(operation, 1);
  }
}

// As TensorFlow: Unique is not differentiable.
RILL_REGISTER_NO_GRADIENT("Unique");

}  // namespace ops
}  // namespace rill
