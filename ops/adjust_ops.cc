// AdjustContrastv2 (the C++ API's ops::AdjustContrast, tf.image.adjust_contrast): schema,
// shape function (core/adjust_contrast.h's checks), wrapper and gradient. With m the
// per-image, per-channel mean and f the factor, y = (x - m) f + m, so
//   dx = f dy + (1 - f) mean(dy)   and   df = sum(dy (x - m)),
// built of Mean, Mul and Sum (so the gradient is differentiable in turn). Also AdjustHue
// and AdjustSaturation (tf.image.adjust_hue, adjust_saturation; core/adjust_hsv.h), which
// TensorFlow does not differentiate, nor does rill.
#include "rill/core/adjust_contrast.h"
#include "rill/core/adjust_hsv.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/image_ops.h"
#include "rill/ops/math_ops.h"

namespace rill {

RILL_REGISTER_OP("AdjustContrastv2")
    .Input("images", "T")
    .Input("contrast_factor", DT_FLOAT)
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes, DT_FLOAT)
    .SetShapeFn(ContrastShape);

RILL_REGISTER_OP("AdjustHue")
    .Input("images", "T")
    .Input("delta", DT_FLOAT)
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes, DT_FLOAT)
    .SetShapeFn(AdjustHsvShape);

RILL_REGISTER_OP("AdjustSaturation")
    .Input("images", "T")
    .Input("scale", DT_FLOAT)
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes, DT_FLOAT)
    .SetShapeFn(AdjustHsvShape);

namespace ops {
namespace {

absl::Status AdjustContrastGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                                std::vector<Output>* out) {
  const Output x = grad::In(op, 0);
  const Output dy = g[0];
  const Output hw = Const(s, {-3, -2});
  const Output f = Cast(s, grad::In(op, 1), x.type());
  const Output one = Cast(s, Const(s, 1.0f), x.type());
  const Output mean_dy = Mean(s, dy, hw, Mean::KeepDims(true));
  out->push_back(Add(s, Mul(s, f, dy), Mul(s, Sub(s, one, f), mean_dy)));
  const Output centred = Sub(s, x, Mean(s, x, hw, Mean::KeepDims(true)));
  out->push_back(
      Cast(s, Sum(s, Reshape(s, Mul(s, dy, centred), Const(s, {-1})), Const(s, 0)), DT_FLOAT));
  return s.status();
}

}  // namespace

AdjustContrast::AdjustContrast(const Scope& scope, Input images, Input contrast_factor) {
  internal::NodeBuilder(scope, "AdjustContrastv2")
      .Input(images)
      .Input(contrast_factor)
      .Finalize(this);
}

AdjustHue::AdjustHue(const Scope& scope, Input images, Input delta) {
  internal::NodeBuilder(scope, "AdjustHue").Input(images).Input(delta).Finalize(this);
}

AdjustSaturation::AdjustSaturation(const Scope& scope, Input images, Input scale) {
  internal::NodeBuilder(scope, "AdjustSaturation").Input(images).Input(scale).Finalize(this);
}

RILL_REGISTER_GRADIENT("AdjustContrastv2", AdjustContrastGrad);
RILL_REGISTER_NO_GRADIENT("AdjustHue");
RILL_REGISTER_NO_GRADIENT("AdjustSaturation");

}  // namespace ops
}  // namespace rill
