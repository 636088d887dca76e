// Gather, GatherV2, GatherNd, ScatterNd and the TensorScatter ops: schemas, shape functions
// (core/gather.h's and core/gather_nd.h's rules, shared with the kernels) and wrappers.
#include "rill/ops/gather_ops.h"

#include "rill/core/gather.h"
#include "rill/core/gather_nd.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::Status GatherShape(InferenceContext& c, int64_t batch_dims) {
  int64_t axis = 0;
  if (c.num_inputs() == 3) {
    RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 2, "axis"));
    RILL_ASSIGN_OR_RETURN(auto a, shape_fns::ConstInts(c, 2, "axis"));
    if (!a) {
      c.set_output(0, PartialTensorShape());
      return absl::OkStatus();
    }
    axis = (*a)[0];
  }
  const PartialTensorShape &p = c.input_shape(0), &i = c.input_shape(1);
  if (p.unknown_rank() || i.unknown_rank()) {
    c.set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out, GatherDims(p.dim_sizes(), i.dim_sizes(), axis, batch_dims));
  c.set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

absl::Status GatherNdShape(InferenceContext& c) {
  const PartialTensorShape &p = c.input_shape(0), &i = c.input_shape(1);
  if (!i.unknown_rank() && i.dims() == 0) {
    return errors::InvalidArgument("indices must have rank >= 1, got []");
  }
  if (p.unknown_rank() || i.unknown_rank() || i.dim_size(i.dims() - 1) < 0) {
    c.set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out, GatherNdDims(p.dim_sizes(), i.dim_sizes()));
  c.set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

absl::Status ScatterNdShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, 2, "shape"));
  RILL_ASSIGN_OR_RETURN(PartialTensorShape shape, shape_fns::ShapeFromShapeInput(c, 2, "shape"));
  const PartialTensorShape &i = c.input_shape(0), &u = c.input_shape(1);
  if (!i.unknown_rank() && i.dims() == 0) {
    return errors::InvalidArgument("indices must have rank >= 1, got []");
  }
  if (!i.unknown_rank() && !u.unknown_rank() && !shape.unknown_rank()) {
    RILL_RETURN_IF_ERROR(CheckScatterNd(i.dim_sizes(), u.dim_sizes(), shape.dim_sizes()));
  }
  c.set_output(0, shape);
  return absl::OkStatus();
}

absl::Status TensorScatterShape(InferenceContext& c) {
  const PartialTensorShape &t = c.input_shape(0), &i = c.input_shape(1), &u = c.input_shape(2);
  if (!i.unknown_rank() && i.dims() == 0) {
    return errors::InvalidArgument("indices must have rank >= 1, got []");
  }
  if (!t.unknown_rank() && !i.unknown_rank() && !u.unknown_rank()) {
    RILL_RETURN_IF_ERROR(CheckScatterNd(i.dim_sizes(), u.dim_sizes(), t.dim_sizes()));
  }
  c.set_output(0, t);
  return absl::OkStatus();
}

}  // namespace

// tf.tensor_scatter_nd_update / _add / _sub / _min / _max: `tensor` with the slices that
// indices name replaced by (or combined with) updates, as ScatterNd addresses them.
#define RILL_REGISTER_TENSOR_SCATTER(Name, Types) \
  RILL_REGISTER_OP(Name)                          \
      .Input("tensor", "T")                       \
      .Input("indices", "Tindices")               \
      .Input("updates", "T")                      \
      .Output("output", "T")                      \
      .TypeAttr("T", Types)                       \
      .TypeAttr("Tindices", kIndexTypes)          \
      .SetShapeFn(TensorScatterShape)
RILL_REGISTER_TENSOR_SCATTER("TensorScatterUpdate", kAllTypes);
RILL_REGISTER_TENSOR_SCATTER("TensorScatterAdd", kNumberTypes);
RILL_REGISTER_TENSOR_SCATTER("TensorScatterSub", kNumberTypes);
RILL_REGISTER_TENSOR_SCATTER("TensorScatterMin", kNumberTypes);
RILL_REGISTER_TENSOR_SCATTER("TensorScatterMax", kNumberTypes);
#undef RILL_REGISTER_TENSOR_SCATTER

RILL_REGISTER_OP("GatherNd")
    .Input("params", "Tparams")
    .Input("indices", "Tindices")
    .Output("output", "Tparams")
    .TypeAttr("Tparams")
    .TypeAttr("Tindices", kIndexTypes)
    .SetShapeFn(GatherNdShape);

RILL_REGISTER_OP("ScatterNd")
    .Input("indices", "Tindices")
    .Input("updates", "T")
    .Input("shape", "Tindices")
    .Output("output", "T")
    .TypeAttr("T", kNumberTypes)
    .TypeAttr("Tindices", kIndexTypes)
    .SetShapeFn(ScatterNdShape);

RILL_REGISTER_OP("Gather")
    .Input("params", "Tparams")
    .Input("indices", "Tindices")
    .Output("output", "Tparams")
    .TypeAttr("Tparams")
    .TypeAttr("Tindices", kIndexTypes)
    .Attr("validate_indices", AttrKind::kBool, true)
    .SetShapeFn([](InferenceContext& c) { return GatherShape(c, 0); });

RILL_REGISTER_OP("GatherV2")
    .Input("params", "Tparams")
    .Input("indices", "Tindices")
    .Input("axis", "Taxis")
    .Output("output", "Tparams")
    .TypeAttr("Tparams")
    .TypeAttr("Tindices", kIndexTypes)
    .TypeAttr("Taxis", kIndexTypes)
    .Attr("batch_dims", AttrKind::kInt, int64_t{0})
    .SetShapeFn([](InferenceContext& c) { return GatherShape(c, c.attr<int64_t>("batch_dims")); });

namespace ops {

using internal::NodeBuilder;

Gather::Gather(const Scope& scope, Input params, Input indices) {
  NodeBuilder(scope, "Gather").Input(params).Input(indices).Finalize(this);
}
GatherV2::GatherV2(const Scope& scope, Input params, Input indices, Input axis,
                   const Attrs& attrs) {
  NodeBuilder(scope, "GatherV2")
      .Input(params)
      .Input(indices)
      .Input(axis)
      .Attr("batch_dims", attrs.batch_dims_)
      .Finalize(this);
}
GatherNd::GatherNd(const Scope& scope, Input params, Input indices) {
  internal::NodeBuilder(scope, "GatherNd").Input(params).Input(indices).Finalize(this);
}

ScatterNd::ScatterNd(const Scope& scope, Input indices, Input updates, Input shape) {
  internal::NodeBuilder(scope, "ScatterNd")
      .Input(indices)
      .Input(updates)
      .Input(shape)
      .Finalize(this);
}

#define RILL_DEFINE_TENSOR_SCATTER(Name)                                       \
  Name::Name(const Scope& scope, Input tensor, Input indices, Input updates) { \
    internal::NodeBuilder(scope, #Name)                                        \
        .Input(tensor)                                                         \
        .Input(indices)                                                        \
        .Input(updates)                                                        \
        .Finalize(this);                                                       \
  }
RILL_DEFINE_TENSOR_SCATTER(TensorScatterUpdate)
RILL_DEFINE_TENSOR_SCATTER(TensorScatterAdd)
RILL_DEFINE_TENSOR_SCATTER(TensorScatterSub)
RILL_DEFINE_TENSOR_SCATTER(TensorScatterMin)
RILL_DEFINE_TENSOR_SCATTER(TensorScatterMax)
#undef RILL_DEFINE_TENSOR_SCATTER

}  // namespace ops
}  // namespace rill
