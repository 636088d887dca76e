#include "rill/ops/training_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

// Inputs `same` share the variable's shape; inputs `scalars` are scalars.
absl::Status ApplyShape(InferenceContext& c, const std::vector<int>& same,
                        const std::vector<int>& scalars) {
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

// The adaptive updates of core/apply_row.h: refs, then scalars, then the gradient, every
// ref and the gradient of the variable's shape; Adagrad's take update_slots.
OpDefBuilder AdaptiveApply(const char* op, std::vector<const char*> refs,
                           std::vector<const char*> scalars) {
  OpDefBuilder b(op);
  for (const char* r : refs) b.RefInput(r, "T");
  for (const char* s : scalars) b.Input(s, "T");
  b.Input("grad", "T").Output("out", "T").TypeAttr("T", kFloatTypes).SetIsStateful();
  const int nr = static_cast<int>(refs.size()), ns = static_cast<int>(scalars.size());
  b.SetShapeFn([nr, ns](InferenceContext& c) {
    std::vector<int> same, scalar;
    for (int i = 1; i < nr; ++i) same.push_back(i);
    same.push_back(nr + ns);
    for (int i = nr; i < nr + ns; ++i) scalar.push_back(i);
    return ApplyShape(c, same, scalar);
  });
  if (std::string(op).starts_with("ApplyAdagrad")) {
    b.Attr("update_slots", AttrKind::kBool, true);
  }
  return b;
}
const OpRegistration kAdagrad = AdaptiveApply("ApplyAdagrad", {"var", "accum"}, {"lr"});
const OpRegistration kAdagradV2 =
    AdaptiveApply("ApplyAdagradV2", {"var", "accum"}, {"lr", "epsilon"});
const OpRegistration kRMSProp =
    AdaptiveApply("ApplyRMSProp", {"var", "ms", "mom"}, {"lr", "rho", "momentum", "epsilon"});
const OpRegistration kCenteredRMSProp = AdaptiveApply(
    "ApplyCenteredRMSProp", {"var", "mg", "ms", "mom"}, {"lr", "rho", "momentum", "epsilon"});
const OpRegistration kAdadelta =
    AdaptiveApply("ApplyAdadelta", {"var", "accum", "accum_update"}, {"lr", "rho", "epsilon"});
const OpRegistration kAdaMax = AdaptiveApply("ApplyAdaMax", {"var", "m", "v"},
                                             {"beta1_power", "lr", "beta1", "beta2", "epsilon"});

namespace {

// var -= alpha * op(a) op(b) (inputs var, alpha, a, b): the product must have the
// variable's shape.
OpDefBuilder MatMulApply(const char* op) {
  OpDefBuilder b(op);
  b.RefInput("var", "T").Input("alpha", "T").Input("a", "T").Input("b", "T").Output("out", "T");
  b.TypeAttr("T", kFloatTypes)
      .Attr("transpose_a", AttrKind::kBool, false)
      .Attr("transpose_b", AttrKind::kBool, false)
      .SetIsStateful();
  b.SetShapeFn([](InferenceContext& c) -> absl::Status {
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
  return b;
}

// var -= alpha * op(a) op(b): the gradient descent step of a MatMul's weight gradient,
// without materialising the gradient (one GEMM with beta = 1). Made by the optimizer.
const OpRegistration kMatMulApply = MatMulApply("_MatMulApplyGradientDescent");

// var = rank 0's var - alpha * (the sum over the ranks of op(a) op(b)), on every rank: the
// same step for data-parallel training whose ranks hold replicas of var. Rank 0's GEMM
// updates its variable in place, the others' GEMMs write -alpha * op(a) op(b) into theirs,
// and one in-place allreduce sums them: neither the gradient nor its sum is stored, and no
// pass over the variable follows the allreduce. Made by the graph optimizer (the backward
// remapper) from an update of a summed MatMul gradient marked by DistributedOptimizer; the
// kernel is in runtime/dist/.
const OpRegistration kMatMulAllReduceApply = MatMulApply("_MatMulAllReduceApplyGradientDescent");

}  // namespace

namespace ops {
using internal::NodeBuilder;

RILL_REGISTER_NO_GRADIENT("_MatMulApplyGradientDescent");
RILL_REGISTER_NO_GRADIENT("_MatMulAllReduceApplyGradientDescent");

RILL_REGISTER_NO_GRADIENT("ApplyGradientDescent");
RILL_REGISTER_NO_GRADIENT("ApplyMomentum");
RILL_REGISTER_NO_GRADIENT("ApplyAdam");
RILL_REGISTER_NO_GRADIENT("ApplyAdagrad");
RILL_REGISTER_NO_GRADIENT("ApplyAdagradV2");
RILL_REGISTER_NO_GRADIENT("ApplyRMSProp");
RILL_REGISTER_NO_GRADIENT("ApplyCenteredRMSProp");
RILL_REGISTER_NO_GRADIENT("ApplyAdadelta");
RILL_REGISTER_NO_GRADIENT("ApplyAdaMax");

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

namespace {
// One node of an adaptive update: its inputs in order, then update_slots for Adagrad's.
void BuildApply(OpWrapper* w, const Scope& scope, const char* op, std::vector<Input> inputs,
                const bool* update_slots = nullptr) {
  NodeBuilder b(scope, op);
  for (const Input& in : inputs) b.Input(in);
  if (update_slots != nullptr) b.Attr("update_slots", *update_slots);
  b.Finalize(w);
}
}  // namespace

ApplyAdagrad::ApplyAdagrad(const Scope& scope, Input var, Input accum, Input lr, Input grad,
                           const Attrs& attrs) {
  BuildApply(this, scope, "ApplyAdagrad", {var, accum, lr, grad}, &attrs.update_slots_);
}
ApplyAdagradV2::ApplyAdagradV2(const Scope& scope, Input var, Input accum, Input lr, Input epsilon,
                               Input grad, const Attrs& attrs) {
  BuildApply(this, scope, "ApplyAdagradV2", {var, accum, lr, epsilon, grad}, &attrs.update_slots_);
}
ApplyRMSProp::ApplyRMSProp(const Scope& scope, Input var, Input ms, Input mom, Input lr, Input rho,
                           Input momentum, Input epsilon, Input grad) {
  BuildApply(this, scope, "ApplyRMSProp", {var, ms, mom, lr, rho, momentum, epsilon, grad});
}
ApplyCenteredRMSProp::ApplyCenteredRMSProp(const Scope& scope, Input var, Input mg, Input ms,
                                           Input mom, Input lr, Input rho, Input momentum,
                                           Input epsilon, Input grad) {
  BuildApply(this, scope, "ApplyCenteredRMSProp",
             {var, mg, ms, mom, lr, rho, momentum, epsilon, grad});
}
ApplyAdadelta::ApplyAdadelta(const Scope& scope, Input var, Input accum, Input accum_update,
                             Input lr, Input rho, Input epsilon, Input grad) {
  BuildApply(this, scope, "ApplyAdadelta", {var, accum, accum_update, lr, rho, epsilon, grad});
}
ApplyAdaMax::ApplyAdaMax(const Scope& scope, Input var, Input m, Input v, Input beta1_power,
                         Input lr, Input beta1, Input beta2, Input epsilon, Input grad) {
  BuildApply(this, scope, "ApplyAdaMax", {var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad});
}

}  // namespace ops
}  // namespace rill
