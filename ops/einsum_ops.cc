// Einsum: schema, shape function (core/einsum.h's plan, shared with the kernels), wrapper
// and gradient (TensorFlow's: an Einsum of the incoming gradient with the other operand).
#include "rill/ops/einsum_ops.h"

#include "rill/core/einsum.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill {

RILL_REGISTER_OP("Einsum")
    .InputList("inputs", "N", "T")
    .Output("output", "T")
    .Attr("equation", AttrKind::kString)
    .Attr("N", AttrKind::kInt)
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      if (c.num_inputs() != 2) {
        return errors::InvalidArgument("Einsum takes two operands here, got ", c.num_inputs());
      }
      const PartialTensorShape &x = c.input_shape(0), &y = c.input_shape(1);
      if (x.unknown_rank() || y.unknown_rank()) {
        c.set_output(0, PartialTensorShape());
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(
          EinsumPlan p, PlanEinsum(c.attr<std::string>("equation"), x.dim_sizes(), y.dim_sizes()));
      c.set_output(0, PartialTensorShape(p.out_dims));
      return absl::OkStatus();
    });

namespace ops {

Einsum::Einsum(const Scope& scope, InputList inputs, const std::string& equation) {
  internal::NodeBuilder(scope, "Einsum").Inputs(inputs).Attr("equation", equation).Finalize(this);
}

namespace {

absl::Status EinsumGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                        std::vector<Output>* out) {
  const std::string& eq = op.node()->attr<std::string>("equation");
  RILL_ASSIGN_OR_RETURN(std::string gx, EinsumGradEquation(eq, 0));
  RILL_ASSIGN_OR_RETURN(std::string gy, EinsumGradEquation(eq, 1));
  out->push_back(Einsum(s, {g[0], grad::In(op, 1)}, gx));
  out->push_back(Einsum(s, {grad::In(op, 0), g[0]}, gy));
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("Einsum", EinsumGrad);

}  // namespace ops
}  // namespace rill
