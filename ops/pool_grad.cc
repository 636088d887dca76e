// Gradients of MaxPoolV2, the 3-D and the fractional poolings, as the 2-D ones in conv_grad.cc: a
// max's gradient op (second order through it is not provided: TensorFlow's MaxPoolGradGrad ops are
// not in rill), an average's gradient op, whose own gradient is the average again.
#include "rill/ops/array_ops.h"
#include "rill/ops/fractional_pool_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/pool_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;
using grad::Out;

// The forward op's window, which its gradient op takes again.
struct WindowOf {
  explicit WindowOf(const Operation& op)
      : padding(op.node()->attr<std::string>("padding")),
        format(PoolAttrs().DataFormat(op.node()->attr<std::string>("data_format"))) {
    if (op.node()->attrs().contains("ksize")) {
      ksize = op.node()->attr<std::vector<int64_t>>("ksize");
      strides = op.node()->attr<std::vector<int64_t>>("strides");
    }
  }
  IntList ksize, strides;  // empty for MaxPoolV2, whose window is its inputs 1 and 2
  std::string padding;
  PoolAttrs format;
};

// ksize and strides are window parameters: no gradient.
absl::Status MaxPoolV2Grad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const WindowOf w(op);
  out->push_back(internal::MaxPoolGradV2(s, In(op, 0), Out(op), g[0], In(op, 1), In(op, 2),
                                         w.padding, w.format));
  out->push_back(Output());
  out->push_back(Output());
  return s.status();
}
// The gradient goes where the argmax output says (the argmax itself has none).
absl::Status MaxPoolWithArgmaxGrad(const Scope& s, const Operation& op, const GradOut& g,
                                   GradOut* out) {
  const Node& n = *op.node();
  out->push_back(MaxPoolGradWithArgmax(
      s, In(op, 0), g[0], Out(op, 1), n.attr<std::vector<int64_t>>("ksize"),
      n.attr<std::vector<int64_t>>("strides"), n.attr<std::string>("padding"),
      MaxPoolGradWithArgmax::IncludeBatchInIndex(n.attr<bool>("include_batch_in_index"))));
  return s.status();
}
absl::Status MaxPool3DGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const WindowOf w(op);
  out->push_back(
      MaxPool3DGrad(s, In(op, 0), Out(op), g[0], w.ksize, w.strides, w.padding, w.format));
  return s.status();
}
absl::Status AvgPool3DGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const WindowOf w(op);
  out->push_back(
      AvgPool3DGrad(s, grad::ShapeOf(s, In(op, 0)), g[0], w.ksize, w.strides, w.padding, w.format));
  return s.status();
}
// AvgPool3DGrad is linear in its gradient input.
absl::Status AvgPool3DGradGrad(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  out->push_back(Output());
  const WindowOf w(op);
  out->push_back(AvgPool3D(s, g[0], w.ksize, w.strides, w.padding, w.format));
  return s.status();
}

// The sequences the forward op drew cut the same regions for its gradient.
absl::Status FractionalMaxPoolGradFn(const Scope& s, const Operation& op, const GradOut& g,
                                     GradOut* out) {
  const auto a = internal::FractionalMaxPoolGrad::Overlapping(op.node()->attr<bool>("overlapping"));
  out->push_back(
      internal::FractionalMaxPoolGrad(s, In(op, 0), Out(op, 0), g[0], Out(op, 1), Out(op, 2), a));
  return s.status();
}
absl::Status FractionalAvgPoolGradFn(const Scope& s, const Operation& op, const GradOut& g,
                                     GradOut* out) {
  const auto a = internal::FractionalAvgPoolGrad::Overlapping(op.node()->attr<bool>("overlapping"));
  auto shape = Shape(s, In(op, 0), Shape::OutType(DT_INT64));
  out->push_back(internal::FractionalAvgPoolGrad(s, shape, g[0], Out(op, 1), Out(op, 2), a));
  return s.status();
}

RILL_REGISTER_GRADIENT("MaxPoolV2", MaxPoolV2Grad);
RILL_REGISTER_GRADIENT("MaxPoolWithArgmax", MaxPoolWithArgmaxGrad);
RILL_REGISTER_NO_GRADIENT("MaxPoolGradWithArgmax");
RILL_REGISTER_GRADIENT("FractionalMaxPool", FractionalMaxPoolGradFn);
RILL_REGISTER_GRADIENT("FractionalAvgPool", FractionalAvgPoolGradFn);
// Second order through them is not provided (TensorFlow has none either).
RILL_REGISTER_NO_GRADIENT("FractionalMaxPoolGrad");
RILL_REGISTER_NO_GRADIENT("FractionalAvgPoolGrad");
RILL_REGISTER_GRADIENT("MaxPool3D", MaxPool3DGradFn);
RILL_REGISTER_GRADIENT("AvgPool3D", AvgPool3DGradFn);
RILL_REGISTER_GRADIENT("AvgPool3DGrad", AvgPool3DGradGrad);
RILL_REGISTER_NO_GRADIENT("MaxPoolGradV2");
RILL_REGISTER_NO_GRADIENT("MaxPool3DGrad");

}  // namespace
}  // namespace rill::ops
