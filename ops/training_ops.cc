#include "rill/ops/training_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

// Inputs `same` share the variable's shape; inputs `scalars` are scalars.
absl::Status ApplyShape(InferenceContext& c, std::initializer_list<int> same,
                        std::initializer_list<int> scalars) {
  PartialTensorShape var = c.input_shape(0);
  for (int i : same) {
    if (!var.IsCompatibleWith(c.input_shape(i))) {
      return errors::InvalidArgument("input ", i, " has shape ", c.input_shape(i).DebugString(),
                                     " but the variable has shape ", var.DebugString());
    }
    if (var.unknown_rank()) var = c.input_shape(i);
  }
  for (int i : scalars) {
    const auto& s = c.input_shape(i);
    if (!s.unknown_rank() && s.dims() != 0) {
      return errors::InvalidArgument("input ", i, " must be a scalar, got shape ", s.DebugString());
    }
  }
  c.set_output(0, var);
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("ApplyGradientDescent")
    .RefInput("var", "T")
    .Input("alpha", "T")
    .Input("delta", "T")
    .Output("out", "T")
    .TypeAttr("T", kFloatTypes)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) { return ApplyShape(c, {2}, {1}); });

RILL_REGISTER_OP("ApplyMomentum")
    .RefInput("var", "T")
    .RefInput("accum", "T")
    .Input("lr", "T")
    .Input("grad", "T")
    .Input("momentum", "T")
    .Output("out", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("use_nesterov", AttrKind::kBool, false)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) {
      return ApplyShape(c, {1, 3}, {2, 4});
    });

RILL_REGISTER_OP("ApplyAdam")
    .RefInput("var", "T")
    .RefInput("m", "T")
    .RefInput("v", "T")
    .Input("beta1_power", "T")
    .Input("beta2_power", "T")
    .Input("lr", "T")
    .Input("beta1", "T")
    .Input("beta2", "T")
    .Input("epsilon", "T")
    .Input("grad", "T")
    .Output("out", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("use_nesterov", AttrKind::kBool, false)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) {
      return ApplyShape(c, {1, 2, 9}, {3, 4, 5, 6, 7, 8});
    });

// var -= alpha * op(a) op(b): the gradient descent step of a MatMul's weight gradient,
// without materialising the gradient (one GEMM with beta = 1). Made by the optimizer.
RILL_REGISTER_OP("_MatMulApplyGradientDescent")
    .RefInput("var", "T")
    .Input("alpha", "T")
    .Input("a", "T")
    .Input("b", "T")
    .Output("out", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("transpose_a", AttrKind::kBool, false)
    .Attr("transpose_b", AttrKind::kBool, false)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto &a = c.input_shape(2), &b = c.input_shape(3);
      auto dims = [](const PartialTensorShape& p) {
        return p.unknown_rank() ? shape_util::Dims{-1, -1}
                                : shape_util::Dims(p.dim_sizes().begin(), p.dim_sizes().end());
      };
      RILL_ASSIGN_OR_RETURN(auto out,
                            shape_util::MatMul(dims(a), dims(b), c.attr<bool>("transpose_a"),
                                               c.attr<bool>("transpose_b")));
      if (!c.input_shape(0).IsCompatibleWith(PartialTensorShape(out))) {
        return errors::InvalidArgument("the product has shape ", shape_util::Str(out),
                                       " but the variable has shape ",
                                       c.input_shape(0).DebugString());
      }
      return ApplyShape(c, {}, {1});
    });

namespace ops {
using internal::NodeBuilder;

RILL_REGISTER_NO_GRADIENT("_MatMulApplyGradientDescent");

RILL_REGISTER_NO_GRADIENT("ApplyGradientDescent");
RILL_REGISTER_NO_GRADIENT("ApplyMomentum");
RILL_REGISTER_NO_GRADIENT("ApplyAdam");

ApplyGradientDescent::ApplyGradientDescent(const Scope& scope, Input var, Input alpha,
                                           Input delta) {
  NodeBuilder(scope, "ApplyGradientDescent").Input(var).Input(alpha).Input(delta).Finalize(this);
}

ApplyMomentum::ApplyMomentum(const Scope& scope, Input var, Input accum, Input lr, Input grad,
                             Input momentum, const Attrs& attrs) {
  NodeBuilder(scope, "ApplyMomentum")
      .Input(var)
      .Input(accum)
      .Input(lr)
      .Input(grad)
      .Input(momentum)
      .Attr("use_nesterov", attrs.use_nesterov_)
      .Finalize(this);
}

ApplyAdam::ApplyAdam(const Scope& scope, Input var, Input m, Input v, Input beta1_power,
                     Input beta2_power, Input lr, Input beta1, Input beta2, Input epsilon,
                     Input grad, const Attrs& attrs) {
  NodeBuilder(scope, "ApplyAdam")
      .Input(var)
      .Input(m)
      .Input(v)
      .Input(beta1_power)
      .Input(beta2_power)
      .Input(lr)
      .Input(beta1)
      .Input(beta2)
      .Input(epsilon)
      .Input(grad)
      .Attr("use_nesterov", attrs.use_nesterov_)
      .Finalize(this);
}

}  // namespace ops
}  // namespace rill
