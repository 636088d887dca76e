// Switch and Merge, TensorFlow 1's dataflow control flow: op definitions and wrappers.
// Kernels: kernels/cpu/switch_merge_ops.cc; the dead values they make are the executor's
// (runtime/deadness.cc); gradients: ops/switch_merge_grad.cc.
#include "rill/core/shape_inference.h"
#include "rill/ops/control_flow_ops.h"

namespace rill {
namespace {

absl::Status SwitchShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 1, "pred"));
  c.set_output(0, c.input_shape(0));
  c.set_output(1, c.input_shape(0));
  return absl::OkStatus();
}

// The shape every input has, dim by dim (TensorFlow's Merge: a dim the inputs disagree on
// is unknown, and so is the rank when theirs differ).
absl::Status MergeShape(InferenceContext& c) {
  // At least one input: an empty list is refused before shape functions run.
  PartialTensorShape out = c.input_shape(0);
  for (int i = 1; i < c.num_inputs(); ++i) out = ops::CommonShape(out, c.input_shape(i));
  c.set_output(0, out);
  c.set_output(1, PartialTensorShape(TensorShape()));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("Switch")
    .Input("data", "T")
    .Input("pred", DT_BOOL)
    .Output("output_false", "T")
    .Output("output_true", "T")
    .TypeAttr("T")
    .SetShapeFn(SwitchShape);

RILL_REGISTER_OP("Merge")
    .InputList("inputs", "N", "T")
    .Output("output", "T")
    .Output("value_index", DT_INT32)
    .TypeAttr("T")
    .Attr("N", AttrKind::kInt)
    .SetShapeFn(MergeShape);

namespace ops {

Switch::Switch(const Scope& scope, Input data, Input pred) {
  operation = internal::NodeBuilder(scope, "Switch").Input(data).Input(pred).Finalize();
  if (operation.node() != nullptr) {
    output_false = Output(operation, 0);
    output_true = Output(operation, 1);
  }
}

Merge::Merge(const Scope& scope, InputList inputs) {
  operation = internal::NodeBuilder(scope, "Merge").Inputs(inputs).Finalize();
  if (operation.node() != nullptr) {
    output = Output(operation, 0);
    value_index = Output(operation, 1);
  }
}

}  // namespace ops
}  // namespace rill
