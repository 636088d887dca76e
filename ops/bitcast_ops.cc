// Bitcast (tf.bitcast): a tensor's bytes read as another dtype. Op definition, wrapper; it
// is not differentiable, as TensorFlow's. Kernel: kernels/cpu/bitcast_op.cc.
#include "rill/core/bitcast.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/gradients.h"

namespace rill {

RILL_REGISTER_OP("Bitcast")
    .Input("input", "T")
    .Output("output", "type")
    .TypeAttr("T", kNumberTypes)
    .TypeAttr("type", kNumberTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(
          PartialTensorShape out,
          BitcastShape(c.input_shape(0), c.attr<DataType>("T"), c.attr<DataType>("type")));
      c.set_output(0, std::move(out));
      return absl::OkStatus();
    });

namespace ops {

Bitcast::Bitcast(const Scope& scope, Input input, DataType type) {
  internal::NodeBuilder(scope, "Bitcast").Input(input).Attr("type", type).Finalize(this);
}

RILL_REGISTER_NO_GRADIENT("Bitcast");

}  // namespace ops
}  // namespace rill
