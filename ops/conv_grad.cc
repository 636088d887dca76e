// Gradients of the convolutional ops.
#include "rill/core/conv_util.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/conv3d_ops.h"
#include "rill/ops/conv_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;
using grad::Out;

IntList Strides(const Operation& op) { return op.node()->attr<std::vector<int64_t>>("strides"); }
std::string Padding(const Operation& op) { return op.node()->attr<std::string>("padding"); }
// The attrs a convolution's gradient nodes repeat: explicit paddings and dilations.
ConvAttrs AttrsOf(const Operation& op) {
  return ConvAttrs()
      .ExplicitPaddings(ExplicitPaddingsOf(op.node()->attrs()))
      .Dilations(DilationsOf(op.node()->attrs()));
}
IntList Ksize(const Operation& op) { return op.node()->attr<std::vector<int64_t>>("ksize"); }

// The three node builders of a convolution family (Conv2D or DepthwiseConv2dNative).
template <typename Forward, typename BackpropInput, typename BackpropFilter>
struct ConvFamily {
  // The forward op's gradient: both backprops.
  static absl::Status Grad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
    Output x = In(op, 0), f = In(op, 1);
    out->push_back(
        BackpropInput(s, grad::ShapeOf(s, x), f, g[0], Strides(op), Padding(op), AttrsOf(op)));
    out->push_back(
        BackpropFilter(s, x, grad::ShapeOf(s, f), g[0], Strides(op), Padding(op), AttrsOf(op)));
    return s.status();
  }
  // Both backprops are linear in their tensor inputs.
  static absl::Status InputGrad(const Scope& s, const Operation& op, const GradOut& g,
                                GradOut* out) {
    Output f = In(op, 1), dy = In(op, 2);
    out->push_back(Output());
    out->push_back(
        BackpropFilter(s, g[0], grad::ShapeOf(s, f), dy, Strides(op), Padding(op), AttrsOf(op)));
    out->push_back(Forward(s, g[0], f, Strides(op), Padding(op), AttrsOf(op)));
    return s.status();
  }
  static absl::Status FilterGrad(const Scope& s, const Operation& op, const GradOut& g,
                                 GradOut* out) {
    Output x = In(op, 0), dy = In(op, 2);
    out->push_back(
        BackpropInput(s, grad::ShapeOf(s, x), g[0], dy, Strides(op), Padding(op), AttrsOf(op)));
    out->push_back(Output());
    out->push_back(Forward(s, x, g[0], Strides(op), Padding(op), AttrsOf(op)));
    return s.status();
  }
};
using Conv2DFamily = ConvFamily<Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter>;
using DepthwiseFamily = ConvFamily<DepthwiseConv2dNative, DepthwiseConv2dNativeBackpropInput,
                                   DepthwiseConv2dNativeBackpropFilter>;

// Conv3D's family, whose backprops take dilations instead of explicit paddings.
Conv3DAttrs Conv3DAttrsOf(const Operation& op) {
  return Conv3DAttrs().Dilations(op.node()->attr<std::vector<int64_t>>("dilations"));
}
absl::Status Conv3DGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), f = In(op, 1);
  const Conv3DAttrs a = Conv3DAttrsOf(op);
  out->push_back(
      Conv3DBackpropInputV2(s, grad::ShapeOf(s, x), f, g[0], Strides(op), Padding(op), a));
  out->push_back(
      Conv3DBackpropFilterV2(s, x, grad::ShapeOf(s, f), g[0], Strides(op), Padding(op), a));
  return s.status();
}
absl::Status Conv3DInputGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output f = In(op, 1), dy = In(op, 2);
  const Conv3DAttrs a = Conv3DAttrsOf(op);
  out->push_back(Output());
  out->push_back(
      Conv3DBackpropFilterV2(s, g[0], grad::ShapeOf(s, f), dy, Strides(op), Padding(op), a));
  out->push_back(Conv3D(s, g[0], f, Strides(op), Padding(op), a));
  return s.status();
}
absl::Status Conv3DFilterGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), dy = In(op, 2);
  const Conv3DAttrs a = Conv3DAttrsOf(op);
  out->push_back(
      Conv3DBackpropInputV2(s, grad::ShapeOf(s, x), g[0], dy, Strides(op), Padding(op), a));
  out->push_back(Output());
  out->push_back(Conv3D(s, x, g[0], Strides(op), Padding(op), a));
  return s.status();
}

absl::Status MaxPoolGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(MaxPoolGrad(s, In(op, 0), Out(op), g[0], Ksize(op), Strides(op), Padding(op)));
  return s.status();
}
absl::Status AvgPoolGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(
      AvgPoolGrad(s, grad::ShapeOf(s, In(op, 0)), g[0], Ksize(op), Strides(op), Padding(op)));
  return s.status();
}
absl::Status AvgPoolGradGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Output());
  out->push_back(AvgPool(s, g[0], Ksize(op), Strides(op), Padding(op)));
  return s.status();
}
absl::Status BiasAddGradFn(const Scope& s, const Operation&, const GradOut& g, GradOut* out) {
  out->push_back(g[0]);
  out->push_back(BiasAddGrad(s, g[0]));
  return s.status();
}
absl::Status BiasAddGradGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(BroadcastTo(s, g[0], grad::ShapeOf(s, In(op, 0))));
  return s.status();
}

RILL_REGISTER_GRADIENT("Conv2D", Conv2DFamily::Grad);
RILL_REGISTER_GRADIENT("Conv2DBackpropInput", Conv2DFamily::InputGrad);
RILL_REGISTER_GRADIENT("Conv2DBackpropFilter", Conv2DFamily::FilterGrad);
RILL_REGISTER_GRADIENT("DepthwiseConv2dNative", DepthwiseFamily::Grad);
RILL_REGISTER_GRADIENT("DepthwiseConv2dNativeBackpropInput", DepthwiseFamily::InputGrad);
RILL_REGISTER_GRADIENT("DepthwiseConv2dNativeBackpropFilter", DepthwiseFamily::FilterGrad);
RILL_REGISTER_GRADIENT("Conv3D", Conv3DGrad);
RILL_REGISTER_GRADIENT("Conv3DBackpropInputV2", Conv3DInputGrad);
RILL_REGISTER_GRADIENT("Conv3DBackpropFilterV2", Conv3DFilterGrad);
RILL_REGISTER_GRADIENT("MaxPool", MaxPoolGradFn);
RILL_REGISTER_GRADIENT("AvgPool", AvgPoolGradFn);
RILL_REGISTER_GRADIENT("AvgPoolGrad", AvgPoolGradGrad);
RILL_REGISTER_GRADIENT("BiasAdd", BiasAddGradFn);
RILL_REGISTER_GRADIENT("BiasAddGrad", BiasAddGradGrad);
// Second order through a max (TensorFlow's MaxPoolGradGrad) is not provided.
RILL_REGISTER_NO_GRADIENT("MaxPoolGrad");

}  // namespace
}  // namespace rill::ops
