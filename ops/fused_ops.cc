// _FusedMatMul and _FusedConv2D: each is shaped, and differentiated, as the op it extends
// (its first two inputs and attrs are that op's), then its bias and activation: the
// gradient is the activation's and the bias's in one _BiasActivationGrad, then the base
// op's gradient of that.
#include "rill/ops/fused_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/nn_ops.h"

namespace rill {
namespace {

// The base op's shape function on this node (it reads inputs 0 and 1 and its own attrs,
// which the fused op carries), then the bias and the activation.
absl::Status FusedShape(InferenceContext& c, const char* base) {
  RILL_RETURN_IF_ERROR(OpRegistry::Global()->LookUp(base)->shape_fn(c));
  return shape_fns::FusedBiasActivation(c, 2);
}

}  // namespace

RILL_REGISTER_OP("_FusedMatMul")
    .Input("a", "T")
    .Input("b", "T")
    .Input("bias", "T")
    .Output("product", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("transpose_a", AttrKind::kBool, false)
    .Attr("transpose_b", AttrKind::kBool, false)
    .Attr("activation", AttrKind::kString)
    .SetShapeFn([](InferenceContext& c) { return FusedShape(c, "MatMul"); });

RILL_REGISTER_OP("_FusedConv2D")
    .Input("input", "T")
    .Input("filter", "T")
    .Input("bias", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("strides", AttrKind::kIntList)
    .Attr("padding", AttrKind::kString)
    .Attr("data_format", AttrKind::kString, std::string("NHWC"))
    .Attr("dilations", AttrKind::kIntList, std::vector<int64_t>{1, 1, 1, 1})
    .Attr("activation", AttrKind::kString)
    .SetShapeFn([](InferenceContext& c) { return FusedShape(c, "Conv2D"); });

namespace ops {
using internal::NodeBuilder;

FusedMatMul::FusedMatMul(const Scope& scope, Input a, Input b, Input bias,
                         const std::string& activation, const MatMul::Attrs& attrs) {
  NodeBuilder(scope, "_FusedMatMul", "FusedMatMul")
      .Input(a)
      .Input(b)
      .Input(bias)
      .Attr("transpose_a", attrs.transpose_a_)
      .Attr("transpose_b", attrs.transpose_b_)
      .Attr("activation", activation)
      .Finalize(this);
}

FusedConv2D::FusedConv2D(const Scope& scope, Input input, Input filter, Input bias,
                         const IntList& strides, const std::string& padding,
                         const std::string& activation) {
  NodeBuilder(scope, "_FusedConv2D", "FusedConv2D")
      .Input(input)
      .Input(filter)
      .Input(bias)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Attr("activation", activation)
      .Finalize(this);
}

namespace {

absl::Status FusedGrad(const char* base, const Scope& s, const Operation& op,
                       const std::vector<Output>& g, std::vector<Output>* out) {
  BiasActivationGrad d(s, g[0], grad::Out(op), op.node()->attr<std::string>("activation"));
  const GradFunc* fn = GradOpRegistry::Global()->Lookup(base);
  if (fn == nullptr) return errors::Internal("no gradient registered for ", base);
  RILL_RETURN_IF_ERROR((*fn)(s, op, {d.backprops}, out));
  out->push_back(d.bias_backprop);
  return s.status();
}

RILL_REGISTER_GRADIENT("_FusedMatMul",
                       [](const Scope& s, const Operation& op, const std::vector<Output>& g,
                          std::vector<Output>* out) { return FusedGrad("MatMul", s, op, g, out); });
RILL_REGISTER_GRADIENT("_FusedConv2D",
                       [](const Scope& s, const Operation& op, const std::vector<Output>& g,
                          std::vector<Output>* out) { return FusedGrad("Conv2D", s, op, g, out); });

}  // namespace
}  // namespace ops
}  // namespace rill
