// RGBToHSV and HSVToRGB: schemas, shape functions (core/colorspace.h's checks), wrappers and
// gradients, each an op of its own (_RGBToHSVGrad, _HSVToRGBGrad: one pass per pixel, the
// formulas of core/colorspace_row.h) rather than a chain of masks and casts.
#include "rill/core/colorspace.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/image_ops.h"

namespace rill {

#define RILL_REGISTER_COLOR_OP(Name)        \
  RILL_REGISTER_OP(Name)                    \
      .Input("images", "T")                 \
      .Output("output", "T")                \
      .TypeAttr("T", kFloatTypes, DT_FLOAT) \
      .SetShapeFn(ColorShape);
RILL_REGISTER_COLOR_OP("RGBToHSV")
RILL_REGISTER_COLOR_OP("HSVToRGB")
#undef RILL_REGISTER_COLOR_OP

// The gradient at `images` (the forward op's input) of `grads` (d loss / d its output).
#define RILL_REGISTER_COLOR_GRAD_OP(Name)   \
  RILL_REGISTER_OP(Name)                    \
      .Input("images", "T")                 \
      .Input("grads", "T")                  \
      .Output("output", "T")                \
      .TypeAttr("T", kFloatTypes, DT_FLOAT) \
      .SetShapeFn(ColorShape);
RILL_REGISTER_COLOR_GRAD_OP("_RGBToHSVGrad")
RILL_REGISTER_COLOR_GRAD_OP("_HSVToRGBGrad")
#undef RILL_REGISTER_COLOR_GRAD_OP

namespace ops {
namespace {

Output ColorGrad(const Scope& s, const char* op, const Output& images, const Output& grads) {
  return Output(internal::NodeBuilder(s, op).Input(images).Input(grads).Finalize().node());
}

absl::Status RgbToHsvGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                          std::vector<Output>* out) {
  out->push_back(ColorGrad(s, "_RGBToHSVGrad", grad::In(op, 0), g[0]));
  return s.status();
}

absl::Status HsvToRgbGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                          std::vector<Output>* out) {
  out->push_back(ColorGrad(s, "_HSVToRGBGrad", grad::In(op, 0), g[0]));
  return s.status();
}

// The gradients are piecewise formulas with no second derivative computed: refused rather
// than answered wrongly.
absl::Status ColorGradGrad(const Scope&, const Operation& op, const std::vector<Output>&,
                           std::vector<Output>*) {
  return errors::InvalidArgument("second derivatives of RGBToHSV and HSVToRGB are not computed: ",
                                 op.node()->DebugName(), " is a first derivative");
}

}  // namespace

RGBToHSV::RGBToHSV(const Scope& scope, Input images) {
  internal::NodeBuilder(scope, "RGBToHSV").Input(images).Finalize(this);
}
HSVToRGB::HSVToRGB(const Scope& scope, Input images) {
  internal::NodeBuilder(scope, "HSVToRGB").Input(images).Finalize(this);
}

RILL_REGISTER_GRADIENT("RGBToHSV", RgbToHsvGrad);
RILL_REGISTER_GRADIENT("HSVToRGB", HsvToRgbGrad);
RILL_REGISTER_GRADIENT("_RGBToHSVGrad", ColorGradGrad);
RILL_REGISTER_GRADIENT("_HSVToRGBGrad", ColorGradGrad);

}  // namespace ops
}  // namespace rill
