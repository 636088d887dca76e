// Gradients of FusedBatchNorm, V2, V3 and _FusedBatchNormEx (TensorFlow's: one gradient op
// of the same version; the mean and variance inputs get none) and of the gradient ops themselves
// (as TensorFlow's Python _FusedBatchNormGradGrad: the gradient op written out in primitive ops,
// the batch statistics recomputed from x in training, and differentiated symbolically).
#include <string>

#include "rill/core/batch_norm.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/batch_norm_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {
namespace {

using grad::In;
using grad::Out;
using GradOut = std::vector<Output>;

absl::Status BatchNormGradFn(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const BatchNormAttrs a = BatchNormAttrsOf(op.node()->attrs());
  const auto attrs = FusedBatchNormGradV3::Attrs()
                         .Epsilon(a.epsilon)
                         .DataFormat(a.data_format)
                         .IsTraining(a.is_training);
  // rill's reserve spaces hold the statistics y was normalized with in both modes.
  const std::string& type = op.node()->type_string();
  Operation grad;
  if (type == "FusedBatchNormV3") {
    grad = FusedBatchNormGradV3(s, g[0], In(op, 0), In(op, 1), Out(op, 3), Out(op, 4), Out(op, 5),
                                attrs)
               .operation;
  } else if (type == "FusedBatchNormV2") {
    grad = FusedBatchNormGradV2(s, g[0], In(op, 0), In(op, 1), Out(op, 3), Out(op, 4), attrs)
               .operation;
  } else {
    grad =
        FusedBatchNormGrad(s, g[0], In(op, 0), In(op, 1), Out(op, 3), Out(op, 4), attrs).operation;
  }
  RILL_RETURN_IF_ERROR(s.status());
  for (int i = 0; i < 3; ++i) out->push_back(Output(grad, i));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return s.status();
}

// _FusedBatchNormEx: y = activation(normalized x + side_input). The activation's gradient
// first (Relu's from y, as TensorFlow's ReluGrad reads it), which the side input takes
// whole; then V3's from there.
absl::Status BatchNormExGradFn(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  const BatchNormAttrs a = BatchNormAttrsOf(op.node()->attrs());
  const bool relu =
      GetNodeAttrOr<std::string>(op.node()->attrs(), "activation_mode", "Identity") == "Relu";
  const Output dz = relu ? Output(ReluGrad(s, g[0], Out(op, 0))) : g[0];
  const auto grad =
      FusedBatchNormGradV3(s, dz, In(op, 0), In(op, 1), Out(op, 3), Out(op, 4), Out(op, 5),
                           FusedBatchNormGradV3::Attrs()
                               .Epsilon(a.epsilon)
                               .DataFormat(a.data_format)
                               .IsTraining(a.is_training));
  RILL_RETURN_IF_ERROR(s.status());
  *out = {grad.x_backprop, grad.scale_backprop, grad.offset_backprop, NoGradient(), NoGradient()};
  if (op.node()->num_inputs() > 5) out->push_back(dz);
  return s.status();
}

// x's layout: the reduced axes, and how a [C] vector is reshaped to broadcast against x.
struct Layout {
  std::vector<int64_t> axes;
  std::vector<int64_t> channel_shape;  // empty: channels last, [C] broadcasts as it is
};

absl::StatusOr<Layout> LayoutOf(const BatchNormAttrs& a) {
  const int rank = static_cast<int>(a.data_format.size());
  RILL_ASSIGN_OR_RETURN(int axis, BatchNormChannelAxis(a.data_format, rank));
  Layout l;
  for (int d = 0; d < rank; ++d) {
    if (d != axis) l.axes.push_back(d);
  }
  if (axis != rank - 1) {
    l.channel_shape.assign(rank - axis, 1);
    l.channel_shape[0] = -1;
  }
  return l;
}

// FusedBatchNormGradV3's outputs (x_backprop, scale_backprop, offset_backprop) from
// (dy, x, scale) in primitive ops; mean and variance are x's own in training, else the
// op's reserve-space inputs (constants here).
std::vector<Output> BatchNormGradInPrimitives(const Scope& s, const Operation& op,
                                              const BatchNormAttrs& a, const Layout& l) {
  const Output dy = In(op, 0), x = In(op, 1);
  auto channel = [&](const Output& v) {
    return l.channel_shape.empty() ? v : Output(Reshape(s, v, grad::IntVector(s, l.channel_shape)));
  };
  const Output axes = grad::IntVector(s, l.axes);
  const auto keep = Mean::KeepDims(true);
  const Output eps = grad::Scalar(s, a.epsilon, grad::T(op));
  Output mean = a.is_training ? Output(Mean(s, x, axes, keep)) : channel(In(op, 3));
  Output xc = Sub(s, x, mean);
  Output var = a.is_training ? Output(Mean(s, Square(s, xc), axes, keep)) : channel(In(op, 4));
  Output inv = Rsqrt(s, Add(s, var, eps));
  Output k1 = Mul(s, channel(In(op, 2)), inv);
  Output centred_dy = dy;
  if (a.is_training) {
    Output k3 = Mul(s, Square(s, inv), Mean(s, Mul(s, dy, xc), axes, keep));
    centred_dy = Sub(s, Sub(s, dy, Mean(s, dy, axes, keep)), Mul(s, xc, k3));
  }
  return {Mul(s, k1, centred_dy), Sum(s, Mul(s, Mul(s, dy, xc), inv), axes), Sum(s, dy, axes)};
}

absl::Status BatchNormGradGradFn(const Scope& s, const Operation& op, const GradOut& g,
                                 GradOut* out) {
  const BatchNormAttrs a = BatchNormAttrsOf(op.node()->attrs());
  RILL_ASSIGN_OR_RETURN(Layout l, LayoutOf(a));
  std::vector<Output> ys = BatchNormGradInPrimitives(s, op, a, l);
  RILL_RETURN_IF_ERROR(s.status());
  std::vector<Output> grads;
  RILL_RETURN_IF_ERROR(
      AddSymbolicGradients(s, ys, {In(op, 0), In(op, 1), In(op, 2)}, {g[0], g[1], g[2]}, &grads));
  out->insert(out->end(), grads.begin(), grads.end());
  // The reserve spaces (two, or three for V3) get none.
  for (int i = 3; i < op.node()->num_inputs(); ++i) out->push_back(NoGradient());
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("FusedBatchNorm", BatchNormGradFn);
RILL_REGISTER_GRADIENT("FusedBatchNormV2", BatchNormGradFn);
RILL_REGISTER_GRADIENT("FusedBatchNormV3", BatchNormGradFn);
RILL_REGISTER_GRADIENT("_FusedBatchNormEx", BatchNormExGradFn);
RILL_REGISTER_GRADIENT("FusedBatchNormGrad", BatchNormGradGradFn);
RILL_REGISTER_GRADIENT("FusedBatchNormGradV2", BatchNormGradGradFn);
RILL_REGISTER_GRADIENT("FusedBatchNormGradV3", BatchNormGradGradFn);

}  // namespace rill::ops
