// LRN and LRNGrad: schemas, shape functions (core/lrn.h's checks), wrappers and gradients.
#include "rill/core/lrn.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/nn_ops.h"

namespace rill {
namespace {

// Every input 4-D where known, of one shape; the output has it.
absl::Status LrnShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(LrnAttrs(c.attrs()).status());
  PartialTensorShape shape = c.input_shape(0);
  for (int i = 0; i < c.num_inputs(); ++i) {
    const PartialTensorShape& s = c.input_shape(i);
    if (!s.unknown_rank() && s.dims() != 4) {
      return errors::InvalidArgument("the inputs must be 4-D [batch, height, width, depth], got ",
                                     s.DebugString());
    }
    if (!s.IsCompatibleWith(shape)) {
      return errors::InvalidArgument("the inputs must have one shape, got ", shape.DebugString(),
                                     " and ", s.DebugString());
    }
    if (shape.unknown_rank()) shape = s;
  }
  c.set_output(0, shape);
  return absl::OkStatus();
}

void LrnAttrDefs(OpDefBuilder& b) {
  b.TypeAttr("T", kFloatTypes, DT_FLOAT)
      .Attr("depth_radius", AttrKind::kInt, int64_t{5})
      .Attr("bias", AttrKind::kFloat, 1.0f)
      .Attr("alpha", AttrKind::kFloat, 1.0f)
      .Attr("beta", AttrKind::kFloat, 0.5f)
      .SetShapeFn(LrnShape);
}

}  // namespace

RILL_REGISTER_OP("LRN").Input("input", "T").Output("output", "T").Apply(LrnAttrDefs);

RILL_REGISTER_OP("LRNGrad")
    .Input("input_grads", "T")
    .Input("input_image", "T")
    .Input("output_image", "T")
    .Output("output", "T")
    .Apply(LrnAttrDefs);

namespace ops {
namespace {

internal::NodeBuilder& WithAttrs(internal::NodeBuilder& b, const LRN::Attrs& a) {
  return b.Attr("depth_radius", a.depth_radius_)
      .Attr("bias", a.bias_)
      .Attr("alpha", a.alpha_)
      .Attr("beta", a.beta_);
}

LRN::Attrs LrnAttrsOf(const Operation& op) {
  const Node* n = op.node();
  return LRN::DepthRadius(n->attr<int64_t>("depth_radius"))
      .Bias(n->attr<float>("bias"))
      .Alpha(n->attr<float>("alpha"))
      .Beta(n->attr<float>("beta"));
}

absl::Status LrnGradFn(const Scope& s, const Operation& op, const std::vector<Output>& g,
                       std::vector<Output>* out) {
  out->push_back(internal::LRNGrad(s, g[0], grad::In(op, 0), grad::Out(op), LrnAttrsOf(op)));
  return s.status();
}

// TensorFlow has no second derivative of LRN either; refused rather than answered wrongly.
absl::Status LrnGradGradFn(const Scope&, const Operation& op, const std::vector<Output>&,
                           std::vector<Output>*) {
  return errors::InvalidArgument(
      "second derivatives of LRN are not computed: ", op.node()->DebugName(), " is LRN's gradient");
}

}  // namespace

LRN::LRN(const Scope& scope, Input input, const Attrs& attrs) {
  internal::NodeBuilder b(scope, "LRN");
  WithAttrs(b.Input(input), attrs).Finalize(this);
}

internal::LRNGrad::LRNGrad(const Scope& scope, Input input_grads, Input input_image,
                           Input output_image, const LRN::Attrs& attrs) {
  NodeBuilder b(scope, "LRNGrad");
  WithAttrs(b.Input(input_grads).Input(input_image).Input(output_image), attrs).Finalize(this);
}

RILL_REGISTER_GRADIENT("LRN", LrnGradFn);
RILL_REGISTER_GRADIENT("LRNGrad", LrnGradGradFn);

}  // namespace ops
}  // namespace rill
