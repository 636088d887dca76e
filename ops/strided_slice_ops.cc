// StridedSlice and StridedSliceGrad: schemas, shape functions (core/strided_slice.h's rule,
// shared with the kernels), wrappers and gradients (each the other, as TensorFlow's).
#include "rill/ops/strided_slice_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/core/strided_slice.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

StridedSliceMasks MasksOf(const InferenceContext& c) {
  return {c.attr<int64_t>("begin_mask"), c.attr<int64_t>("end_mask"),
          c.attr<int64_t>("ellipsis_mask"), c.attr<int64_t>("new_axis_mask"),
          c.attr<int64_t>("shrink_axis_mask")};
}

// The slice's shape from the spec at inputs first..first+2, against `in`.
absl::StatusOr<PartialTensorShape> SliceShape(const InferenceContext& c, int first,
                                              const PartialTensorShape& in) {
  const char* names[] = {"begin", "end", "strides"};
  std::optional<std::vector<int64_t>> spec[3];
  for (int i = 0; i < 3; ++i) {
    RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, first + i, names[i]));
    RILL_ASSIGN_OR_RETURN(spec[i], shape_fns::ConstInts(c, first + i, names[i]));
  }
  if (in.unknown_rank() || !spec[0] || !spec[1] || !spec[2]) return PartialTensorShape();
  RILL_ASSIGN_OR_RETURN(ResolvedSlice r, ResolveStridedSlice(in.dim_sizes(), *spec[0], *spec[1],
                                                             *spec[2], MasksOf(c)));
  return PartialTensorShape(r.final_dims);
}

void AddMasks(OpDefBuilder& b) {
  for (const char* mask :
       {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"}) {
    b.Attr(mask, AttrKind::kInt, int64_t{0});
  }
}

}  // namespace

RILL_REGISTER_OP("StridedSlice")
    .Input("input", "T")
    .Input("begin", "Index")
    .Input("end", "Index")
    .Input("strides", "Index")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Index", kIndexTypes)
    .Apply(AddMasks)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out, SliceShape(c, 1, c.input_shape(0)));
      c.set_output(0, std::move(out));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("StridedSliceGrad")
    .Input("shape", "Index")
    .Input("begin", "Index")
    .Input("end", "Index")
    .Input("strides", "Index")
    .Input("dy", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Index", kIndexTypes)
    .Apply(AddMasks)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape shape,
                            shape_fns::ShapeFromShapeInput(c, 0, "shape"));
      RILL_ASSIGN_OR_RETURN(PartialTensorShape slice, SliceShape(c, 1, shape));
      if (!slice.IsCompatibleWith(c.input_shape(4))) {
        return errors::InvalidArgument("dy has shape ", c.input_shape(4).DebugString(),
                                       " but the slice of ", shape.DebugString(), " has shape ",
                                       slice.DebugString());
      }
      c.set_output(0, std::move(shape));
      return absl::OkStatus();
    });

namespace ops {

using internal::NodeBuilder;

namespace {
NodeBuilder& WithMasks(NodeBuilder& b, const StridedSliceAttrs& a) {
  return b.Attr("begin_mask", a.begin_mask_)
      .Attr("end_mask", a.end_mask_)
      .Attr("ellipsis_mask", a.ellipsis_mask_)
      .Attr("new_axis_mask", a.new_axis_mask_)
      .Attr("shrink_axis_mask", a.shrink_axis_mask_);
}

StridedSliceAttrs AttrsOf(const Operation& op) {
  const Node& n = *op.node();
  return StridedSliceAttrs()
      .BeginMask(n.attr<int64_t>("begin_mask"))
      .EndMask(n.attr<int64_t>("end_mask"))
      .EllipsisMask(n.attr<int64_t>("ellipsis_mask"))
      .NewAxisMask(n.attr<int64_t>("new_axis_mask"))
      .ShrinkAxisMask(n.attr<int64_t>("shrink_axis_mask"));
}
}  // namespace

StridedSlice::StridedSlice(const Scope& scope, Input input, Input begin, Input end, Input strides,
                           const Attrs& attrs) {
  NodeBuilder b(scope, "StridedSlice");
  WithMasks(b.Input(input).Input(begin).Input(end).Input(strides), attrs).Finalize(this);
}

StridedSliceGrad::StridedSliceGrad(const Scope& scope, Input shape, Input begin, Input end,
                                   Input strides, Input dy, const Attrs& attrs) {
  NodeBuilder b(scope, "StridedSliceGrad");
  WithMasks(b.Input(shape).Input(begin).Input(end).Input(strides).Input(dy), attrs).Finalize(this);
}

namespace {

using GradOut = std::vector<Output>;
using grad::In;

absl::Status SliceGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output x = In(op, 0), begin = In(op, 1);
  out->push_back(StridedSliceGrad(s, Shape(s, x, Shape::OutType(begin.type())), begin, In(op, 2),
                                  In(op, 3), g[0], AttrsOf(op)));
  for (int i = 0; i < 3; ++i) out->push_back(Output());
  return s.status();
}

absl::Status SliceGradGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  for (int i = 0; i < 4; ++i) out->push_back(Output());
  out->push_back(StridedSlice(s, g[0], In(op, 1), In(op, 2), In(op, 3), AttrsOf(op)));
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("StridedSlice", SliceGrad);
RILL_REGISTER_GRADIENT("StridedSliceGrad", SliceGradGrad);

}  // namespace ops
}  // namespace rill
