// The fake quantization ops (ops/fake_quant_ops.h): schemas, shape functions
// (core/fake_quant.h's checks), wrappers and gradients. Each op's gradient is its gradient
// op; those are first derivatives of a step function and are not differentiated again.
#include "rill/ops/fake_quant_ops.h"

#include "rill/core/fake_quant.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

void QuantAttrDefs(OpDefBuilder& b) {
  b.Attr("num_bits", AttrKind::kInt, int64_t{8}).Attr("narrow_range", AttrKind::kBool, false);
}
void RangeAttrDefs(OpDefBuilder& b) {
  b.Attr("min", AttrKind::kFloat, -6.0f).Attr("max", AttrKind::kFloat, 6.0f).Apply(QuantAttrDefs);
}
absl::Status VarsShape(InferenceContext& c) { return FakeQuantVarsShape(c, false); }
absl::Status PerChannelShape(InferenceContext& c) { return FakeQuantVarsShape(c, true); }

}  // namespace

RILL_REGISTER_OP("FakeQuantWithMinMaxArgs")
    .Input("inputs", DT_FLOAT)
    .Output("outputs", DT_FLOAT)
    .Apply(RangeAttrDefs)
    .SetShapeFn(FakeQuantArgsShape);
RILL_REGISTER_OP("FakeQuantWithMinMaxArgsGradient")
    .Input("gradients", DT_FLOAT)
    .Input("inputs", DT_FLOAT)
    .Output("backprops", DT_FLOAT)
    .Apply(RangeAttrDefs)
    .SetShapeFn(FakeQuantArgsShape);

#define RILL_REGISTER_FAKE_QUANT_VARS(Name, Shape) \
  RILL_REGISTER_OP(Name)                           \
      .Input("inputs", DT_FLOAT)                   \
      .Input("min", DT_FLOAT)                      \
      .Input("max", DT_FLOAT)                      \
      .Output("outputs", DT_FLOAT)                 \
      .Apply(QuantAttrDefs)                        \
      .SetShapeFn(Shape);                          \
  RILL_REGISTER_OP(Name "Gradient")                \
      .Input("gradients", DT_FLOAT)                \
      .Input("inputs", DT_FLOAT)                   \
      .Input("min", DT_FLOAT)                      \
      .Input("max", DT_FLOAT)                      \
      .Output("backprops_wrt_input", DT_FLOAT)     \
      .Output("backprop_wrt_min", DT_FLOAT)        \
      .Output("backprop_wrt_max", DT_FLOAT)        \
      .Apply(QuantAttrDefs)                        \
      .SetShapeFn(Shape);
RILL_REGISTER_FAKE_QUANT_VARS("FakeQuantWithMinMaxVars", VarsShape)
RILL_REGISTER_FAKE_QUANT_VARS("FakeQuantWithMinMaxVarsPerChannel", PerChannelShape)
#undef RILL_REGISTER_FAKE_QUANT_VARS

namespace ops {
namespace {

using internal::NodeBuilder;

NodeBuilder& WithAttrs(NodeBuilder& b, const FakeQuantAttrs& a, bool range) {
  if (range) b.Attr("min", a.min_).Attr("max", a.max_);
  return b.Attr("num_bits", a.num_bits_).Attr("narrow_range", a.narrow_range_);
}

FakeQuantAttrs AttrsOfNode(const Operation& op) {
  const Node* n = op.node();
  FakeQuantAttrs a = FakeQuantAttrs()
                         .NumBits(n->attr<int64_t>("num_bits"))
                         .NarrowRange(n->attr<bool>("narrow_range"));
  if (n->attrs().contains("min")) a = a.Min(n->attr<float>("min")).Max(n->attr<float>("max"));
  return a;
}

absl::Status ArgsGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                      std::vector<Output>* out) {
  out->push_back(FakeQuantWithMinMaxArgsGradient(s, g[0], grad::In(op, 0), AttrsOfNode(op)));
  return s.status();
}

template <typename GradOp>
absl::Status VarsGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                      std::vector<Output>* out) {
  GradOp d(s, g[0], grad::In(op, 0), grad::In(op, 1), grad::In(op, 2), AttrsOfNode(op));
  for (size_t i = 0; i < 3; ++i) out->push_back(d[i]);
  return s.status();
}

absl::Status GradOfGrad(const Scope&, const Operation& op, const std::vector<Output>&,
                        std::vector<Output>*) {
  return errors::InvalidArgument("second derivatives of fake quantization are not computed: ",
                                 op.node()->DebugName(), " is a first derivative");
}

}  // namespace

FakeQuantWithMinMaxArgs::FakeQuantWithMinMaxArgs(const Scope& scope, Input inputs,
                                                 const Attrs& attrs) {
  NodeBuilder b(scope, "FakeQuantWithMinMaxArgs");
  WithAttrs(b.Input(inputs), attrs, true).Finalize(this);
}
FakeQuantWithMinMaxArgsGradient::FakeQuantWithMinMaxArgsGradient(const Scope& scope,
                                                                 Input gradients, Input inputs,
                                                                 const Attrs& attrs) {
  NodeBuilder b(scope, "FakeQuantWithMinMaxArgsGradient");
  WithAttrs(b.Input(gradients).Input(inputs), attrs, true).Finalize(this);
}
FakeQuantWithMinMaxVars::FakeQuantWithMinMaxVars(const Scope& scope, Input inputs, Input min,
                                                 Input max, const Attrs& attrs) {
  NodeBuilder b(scope, "FakeQuantWithMinMaxVars");
  WithAttrs(b.Input(inputs).Input(min).Input(max), attrs, false).Finalize(this);
}
FakeQuantWithMinMaxVarsPerChannel::FakeQuantWithMinMaxVarsPerChannel(const Scope& scope,
                                                                     Input inputs, Input min,
                                                                     Input max,
                                                                     const Attrs& attrs) {
  NodeBuilder b(scope, "FakeQuantWithMinMaxVarsPerChannel");
  WithAttrs(b.Input(inputs).Input(min).Input(max), attrs, false).Finalize(this);
}
FakeQuantWithMinMaxVarsGradient::FakeQuantWithMinMaxVarsGradient(const Scope& scope,
                                                                 Input gradients, Input inputs,
                                                                 Input min, Input max,
                                                                 const Attrs& attrs) {
  NodeBuilder b(scope, "FakeQuantWithMinMaxVarsGradient");
  Fill(WithAttrs(b.Input(gradients).Input(inputs).Input(min).Input(max), attrs, false).Finalize());
}
FakeQuantWithMinMaxVarsPerChannelGradient::FakeQuantWithMinMaxVarsPerChannelGradient(
    const Scope& scope, Input gradients, Input inputs, Input min, Input max, const Attrs& attrs) {
  NodeBuilder b(scope, "FakeQuantWithMinMaxVarsPerChannelGradient");
  Fill(WithAttrs(b.Input(gradients).Input(inputs).Input(min).Input(max), attrs, false).Finalize());
}

RILL_REGISTER_GRADIENT("FakeQuantWithMinMaxArgs", ArgsGrad);
RILL_REGISTER_GRADIENT("FakeQuantWithMinMaxVars", VarsGrad<FakeQuantWithMinMaxVarsGradient>);
RILL_REGISTER_GRADIENT("FakeQuantWithMinMaxVarsPerChannel",
                       VarsGrad<FakeQuantWithMinMaxVarsPerChannelGradient>);
RILL_REGISTER_GRADIENT("FakeQuantWithMinMaxArgsGradient", GradOfGrad);
RILL_REGISTER_GRADIENT("FakeQuantWithMinMaxVarsGradient", GradOfGrad);
RILL_REGISTER_GRADIENT("FakeQuantWithMinMaxVarsPerChannelGradient", GradOfGrad);

}  // namespace ops
}  // namespace rill
