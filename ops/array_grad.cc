// Gradients of the array family: identity-like ops, reshapes, Transpose, ConcatV2, Slice,
// Pad, BroadcastTo, Fill and Cast; and the ops declared not differentiable.
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;
using grad::Out;
using grad::T;

// An Identity of dy, as TensorFlow's (the graph optimizer drops it from plans).
absl::Status IdentityGrad(const Scope& s, const Operation&, const GradOut& g, GradOut* out) {
  out->push_back(Identity(s, g[0]));
  return s.status();
}

// IdentityN's: each output's gradient passed through to its input.
absl::Status IdentityNGrad(const Scope& s, const Operation&, const GradOut& g, GradOut* out) {
  for (const Output& gi : g) out->push_back(gi.node() == nullptr ? Output() : Identity(s, gi));
  return s.status();
}

// PreventGradient's: refused, with the reason its node carries.
absl::Status PreventGradientGrad(const Scope&, const Operation& op, const GradOut&, GradOut*) {
  return errors::InvalidArgument(
      "gradient explicitly disabled at node '", op.node()->name(),
      "' (PreventGradient). Reason: ", op.node()->attr<std::string>("message"));
}

// Reshape, ExpandDims, Squeeze: back to the input's shape; none for the shape input.
absl::Status ReshapeGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Reshape(s, g[0], grad::ReshapeSpecOf(s, In(op, 0))));
  for (int i = 1; i < op.node()->num_inputs(); ++i) out->push_back(Output());
  return s.status();
}

absl::Status TransposeGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output perm = In(op, 1);
  Output inverse;
  if (const Tensor* t = perm.node()->constant_value()) {
    RILL_ASSIGN_OR_RETURN(auto p, shape_fns::IntValues(*t, "perm"));
    std::vector<int64_t> inv(p.size());
    for (size_t i = 0; i < p.size(); ++i) inv[p[i]] = static_cast<int64_t>(i);
    inverse = grad::IntVector(s, inv);
  } else {
    inverse = InvertPermutation(s, perm);
  }
  out->push_back(Transpose(s, g[0], inverse));
  out->push_back(Output());
  return s.status();
}

// Each input gets its slice of the gradient along the axis. Constant begin and size when
// the axis, the rank and every input's size along the axis are known at construction;
// otherwise worked out at run time from a one-hot mask of the axis and the inputs' shapes.
bool StaticConcatGrad(const Scope& s, const Operation& op, const Output& g, GradOut* out) {
  const int n = op.node()->num_inputs() - 1;
  const Tensor* axis_t = In(op, n).node()->constant_value();
  const PartialTensorShape shape0 = In(op, 0).shape();
  if (axis_t == nullptr || shape0.unknown_rank()) return false;
  const int rank = shape0.dims();
  auto axis_v = shape_fns::IntValues(*axis_t, "axis");
  if (!axis_v.ok() || axis_v->size() != 1) return false;
  auto axis = shape_fns::CanonicalAxis((*axis_v)[0], rank, "axis");
  if (!axis.ok()) return false;
  std::vector<int64_t> sizes;
  for (int i = 0; i < n; ++i) {
    const PartialTensorShape xs = In(op, i).shape();
    if (xs.unknown_rank() || xs.dims() != rank || xs.dim_size(*axis) < 0) return false;
    sizes.push_back(xs.dim_size(*axis));
  }
  int64_t offset = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<int64_t> begin(rank, 0), size(rank, -1);
    begin[*axis] = offset;
    size[*axis] = sizes[i];
    out->push_back(Slice(s, g, grad::IntVector(s, begin), grad::IntVector(s, size)));
    offset += sizes[i];
  }
  return true;
}

absl::Status ConcatGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const int n = op.node()->num_inputs() - 1;
  if (!StaticConcatGrad(s, op, g[0], out)) {
    Output rank = Size(s, Shape(s, In(op, 0)));
    Output axis = Cast(s, In(op, n), DT_INT32);
    axis = Add(s, axis, Mul(s, rank, Cast(s, Less(s, axis, 0), DT_INT32)));
    Output mask = OneHot(s, axis, rank, 1, 0);  // int32 [rank], 1 at the axis
    Output offset = Const(s, 0);
    for (int i = 0; i < n; ++i) {
      Output shape = Shape(s, In(op, i));
      out->push_back(Slice(s, g[0], Mul(s, mask, offset), shape));
      offset = Add(s, offset, Sum(s, Mul(s, mask, shape), 0));
    }
  }
  out->push_back(Output());
  return s.status();
}

// Slice: the gradient padded with zeros back to the input's shape.
absl::Status SliceGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0), begin = Cast(s, In(op, 1), DT_INT32);
  Output after = Sub(s, Sub(s, grad::ShapeOf(s, x), begin), grad::ShapeOf(s, g[0]));
  Output paddings = Concat(s, {ExpandDims(s, begin, 1), ExpandDims(s, after, 1)}, 1);
  out->push_back(Pad(s, g[0], paddings));
  out->push_back(Output());
  out->push_back(Output());
  return s.status();
}

absl::Status PadGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output x = In(op, 0);
  Output before = Reshape(s, Slice(s, In(op, 1), {0, 0}, {-1, 1}), {-1});
  out->push_back(Slice(s, g[0], Cast(s, before, DT_INT32), grad::ShapeOf(s, x)));
  out->push_back(Output());
  return s.status();
}

// As Pad's; constant_values gets none (as TensorFlow's).
absl::Status PadV2Grad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  RILL_RETURN_IF_ERROR(PadGrad(s, op, g, out));
  out->push_back(Output());
  return s.status();
}

absl::Status BroadcastToGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  Output y(op.node(), 0);
  out->push_back(grad::ReduceToOperand(s, g[0], In(op, 0), y.shape(), y));
  out->push_back(Output());
  return s.status();
}

absl::Status FillGrad(const Scope& s, const Operation&, const GradOut& g, GradOut* out) {
  out->push_back(Output());
  out->push_back(Sum(s, Reshape(s, g[0], {-1}), 0));
  return s.status();
}

absl::Status CastGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const DataType src = op.node()->input_type(0);
  if (DataTypeIsFloating(src) && DataTypeIsFloating(op.node()->output_type(0))) {
    out->push_back(Cast(s, g[0], src));
  } else {
    out->push_back(Output());
  }
  return s.status();
}

RILL_REGISTER_GRADIENT("Identity", IdentityGrad);
RILL_REGISTER_GRADIENT("IdentityN", IdentityNGrad);
RILL_REGISTER_GRADIENT("EnsureShape", IdentityGrad);
RILL_REGISTER_GRADIENT("Snapshot", IdentityGrad);
RILL_REGISTER_GRADIENT("PreventGradient", PreventGradientGrad);
RILL_REGISTER_GRADIENT("Reshape", ReshapeGrad);
RILL_REGISTER_GRADIENT("ExpandDims", ReshapeGrad);
RILL_REGISTER_GRADIENT("Squeeze", ReshapeGrad);
RILL_REGISTER_GRADIENT("Transpose", TransposeGrad);
RILL_REGISTER_GRADIENT("ConcatV2", ConcatGrad);
RILL_REGISTER_GRADIENT("Slice", SliceGrad);
RILL_REGISTER_GRADIENT("Pad", PadGrad);
RILL_REGISTER_GRADIENT("PadV2", PadV2Grad);
RILL_REGISTER_GRADIENT("BroadcastTo", BroadcastToGrad);
RILL_REGISTER_GRADIENT("Fill", FillGrad);
RILL_REGISTER_GRADIENT("Cast", CastGrad);
RILL_REGISTER_NO_GRADIENT("StopGradient");
RILL_REGISTER_NO_GRADIENT("GuaranteeConst");  // TensorFlow registers none either
RILL_REGISTER_NO_GRADIENT("Rank");
RILL_REGISTER_NO_GRADIENT("BroadcastArgs");
RILL_REGISTER_NO_GRADIENT("Const");
RILL_REGISTER_NO_GRADIENT("Placeholder");
RILL_REGISTER_NO_GRADIENT("NoOp");
RILL_REGISTER_NO_GRADIENT("Shape");
RILL_REGISTER_NO_GRADIENT("Size");
RILL_REGISTER_NO_GRADIENT("ZerosLike");
RILL_REGISTER_NO_GRADIENT("OnesLike");
RILL_REGISTER_NO_GRADIENT("OneHot");
RILL_REGISTER_NO_GRADIENT("BroadcastGradientArgs");
RILL_REGISTER_NO_GRADIENT("ReducedShape");
RILL_REGISTER_NO_GRADIENT("InvertPermutation");
RILL_REGISTER_NO_GRADIENT("Variable");
RILL_REGISTER_NO_GRADIENT("Assign");
RILL_REGISTER_NO_GRADIENT("AssignAdd");
RILL_REGISTER_NO_GRADIENT("AssignSub");
RILL_REGISTER_NO_GRADIENT("IsVariableInitialized");
RILL_REGISTER_NO_GRADIENT("RandomUniform");
RILL_REGISTER_NO_GRADIENT("RandomStandardNormal");
RILL_REGISTER_NO_GRADIENT("TruncatedNormal");
RILL_REGISTER_NO_GRADIENT("RandomUniformInt");
RILL_REGISTER_NO_GRADIENT("Multinomial");
RILL_REGISTER_NO_GRADIENT("RandomShuffle");

}  // namespace
}  // namespace rill::ops
