// Gradients of Gather, GatherV2, GatherNd, ScatterNd and the TensorScatter ops, dense (rill has no
// IndexedSlices): a gather's gradient sums the incoming rows into the rows they came from, as
// TensorFlow's (the segment sums' gradients, gathers: segment_grad.cc).
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/gather_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;

// Along axis 0 without batch dims (tf.gather's default, embeddings): indices' shape is a
// prefix of the gradient's, so the rows sum straight into params' rows.
Output AxisZeroGrad(const Scope& s, const Output& params, const Output& indices, const Output& g) {
  Output rows = Reshape(s, Slice(s, Shape(s, params), {0}, {1}), grad::IntVector(s, {}));
  return UnsortedSegmentSum(s, g, indices, rows);
}

// Any axis and batch_dims: the same gather of params' flat positions says where each
// gradient element came from. Costs a position per element of params.
Output PositionGrad(const Scope& s, const Operation& op, const Output& g) {
  const Output params = In(op, 0);
  Output size = Size(s, params, Size::OutType(DT_INT64));
  Output iota =
      Reshape(s, Range(s, Const(s, int64_t{0}), size, Const(s, int64_t{1})), Shape(s, params));
  Output from = GatherV2(s, iota, In(op, 1), In(op, 2),
                         GatherV2::BatchDims(op.node()->attr<int64_t>("batch_dims")));
  Output flat = UnsortedSegmentSum(s, Reshape(s, g, {-1}), Reshape(s, from, {-1}), size);
  return Reshape(s, flat, Shape(s, params));
}

bool IsAxisZero(const Operation& op) {
  if (op.node()->attr<int64_t>("batch_dims") != 0) return false;
  const Tensor* axis = In(op, 2).node()->constant_value();
  if (axis == nullptr) return false;
  auto v = shape_fns::IntValues(*axis, "axis");
  return v.ok() && v->size() == 1 && (*v)[0] == 0;
}

absl::Status GatherGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(AxisZeroGrad(s, In(op, 0), In(op, 1), g[0]));
  out->push_back(Output());
  return s.status();
}

absl::Status GatherV2Grad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(IsAxisZero(op) ? AxisZeroGrad(s, In(op, 0), In(op, 1), g[0])
                                : PositionGrad(s, op, g[0]));
  out->push_back(Output());
  out->push_back(Output());
  return s.status();
}

// GatherNd and ScatterNd are each other's gradient (TensorFlow's): the incoming slices sum
// back where they were gathered from, and a scatter's gradient gathers them again.
absl::Status GatherNdGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output params = In(op, 0), indices = In(op, 1);
  out->push_back(ScatterNd(s, indices, g[0], Shape(s, params, Shape::OutType(indices.type()))));
  out->push_back(Output());
  return s.status();
}
absl::Status ScatterNdGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Output());
  out->push_back(GatherNd(s, g[0], In(op, 0)));
  out->push_back(Output());
  return s.status();
}

// TensorScatterUpdate: the replaced slices of tensor get no gradient; updates get theirs.
absl::Status TensorScatterUpdateGrad(const Scope& s, const Operation& op, const GradOut& g,
                                     GradOut* out) {
  const Output indices = In(op, 1);
  out->push_back(TensorScatterUpdate(s, g[0], indices, ZerosLike(s, In(op, 2))));
  out->push_back(Output());
  out->push_back(GatherNd(s, g[0], indices));
  return s.status();
}
// TensorScatterAdd / Sub: tensor's gradient passes; updates gather theirs (negated for Sub).
template <bool kSub>
absl::Status TensorScatterAddGrad(const Scope& s, const Operation& op, const GradOut& g,
                                  GradOut* out) {
  out->push_back(Identity(s, g[0]));
  out->push_back(Output());
  Output gathered = GatherNd(s, g[0], In(op, 1));
  out->push_back(kSub ? Output(Neg(s, gathered)) : gathered);
  return s.status();
}
// TensorScatterMin / Max (TensorFlow's): the gradient goes to every value equal to the
// result, shared evenly among the ties of tensor's element and the updates that reached it.
absl::Status TensorScatterMinMaxGrad(const Scope& s, const Operation& op, const GradOut& g,
                                     GradOut* out) {
  const Output x = In(op, 0), indices = In(op, 1), updates = In(op, 2), y = grad::Out(op);
  const DataType dt = g[0].type();
  Output x_hit = Cast(s, Equal(s, x, y), dt);
  Output updates_hit = Cast(s, Equal(s, updates, GatherNd(s, y, indices)), dt);
  Output hits = TensorScatterAdd(s, x_hit, indices, updates_hit);
  Output share = Div(s, g[0], hits);
  out->push_back(Mul(s, share, x_hit));
  out->push_back(Output());
  out->push_back(Mul(s, GatherNd(s, share, indices), updates_hit));
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("TensorScatterUpdate", TensorScatterUpdateGrad);
RILL_REGISTER_GRADIENT("TensorScatterAdd", TensorScatterAddGrad<false>);
RILL_REGISTER_GRADIENT("TensorScatterSub", TensorScatterAddGrad<true>);
RILL_REGISTER_GRADIENT("TensorScatterMin", TensorScatterMinMaxGrad);
RILL_REGISTER_GRADIENT("TensorScatterMax", TensorScatterMinMaxGrad);
RILL_REGISTER_GRADIENT("GatherNd", GatherNdGrad);
RILL_REGISTER_GRADIENT("ScatterNd", ScatterNdGrad);
RILL_REGISTER_GRADIENT("Gather", GatherGrad);
RILL_REGISTER_GRADIENT("GatherV2", GatherV2Grad);

}  // namespace rill::ops
