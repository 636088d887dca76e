// RoiAlign (ops/roi_align_ops.h): schema, shape function, wrapper (kernel:
// kernels/cpu/roi_align_op.cc).
#include "rill/ops/roi_align_ops.h"

#include "rill/core/roi_align.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

int64_t DimAt(const PartialTensorShape& s, int d) {
  return s.unknown_rank() || s.dims() <= d ? -1 : s.dim_size(d);
}

absl::Status RoiAlignShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(
      const RoiAlignParams p,
      ParseRoiAlign(c.attr<std::string>("mode"),
                    c.attr<std::string>("coordinate_transformation_mode"),
                    c.attr<int64_t>("output_height"), c.attr<int64_t>("output_width"),
                    c.attr<int64_t>("sampling_ratio"), c.attr<float>("spatial_scale")));
  const PartialTensorShape &x = c.input_shape(0), &rois = c.input_shape(1),
                           &batch = c.input_shape(2);
  const bool ranks = (x.unknown_rank() || x.dims() == 4) &&
                     (rois.unknown_rank() || rois.dims() == 2) &&
                     (batch.unknown_rank() || batch.dims() == 1);
  const int64_t r = DimAt(rois, 0), b = DimAt(batch, 0);
  if (!ranks || (DimAt(rois, 1) >= 0 && DimAt(rois, 1) != 4) || (r >= 0 && b >= 0 && r != b)) {
    return errors::InvalidArgument(
        "RoiAlign needs X [N, C, H, W], rois [R, 4] and batch_indices [R], got ", x.DebugString(),
        ", ", rois.DebugString(), " and ", batch.DebugString());
  }
  c.set_output(0, PartialTensorShape({r >= 0 ? r : b, DimAt(x, 1), p.out_h, p.out_w}));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("RoiAlign")
    .Input("X", "T")
    .Input("rois", "T")
    .Input("batch_indices", DT_INT64)
    .Output("Y", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("mode", AttrKind::kString, std::string("avg"))
    .Attr("output_height", AttrKind::kInt, int64_t{1})
    .Attr("output_width", AttrKind::kInt, int64_t{1})
    .Attr("sampling_ratio", AttrKind::kInt, int64_t{0})
    .Attr("spatial_scale", AttrKind::kFloat, 1.0f)
    .Attr("coordinate_transformation_mode", AttrKind::kString, std::string("half_pixel"))
    .SetShapeFn(RoiAlignShape);

namespace ops {

RoiAlign::RoiAlign(const Scope& scope, Input x, Input rois, Input batch_indices,
                   const Attrs& attrs) {
  internal::NodeBuilder(scope, "RoiAlign")
      .Input(x)
      .Input(rois)
      .Input(batch_indices)
      .Attr("mode", attrs.mode_)
      .Attr("output_height", attrs.output_height_)
      .Attr("output_width", attrs.output_width_)
      .Attr("sampling_ratio", attrs.sampling_ratio_)
      .Attr("spatial_scale", attrs.spatial_scale_)
      .Attr("coordinate_transformation_mode", attrs.transform_)
      .Finalize(this);
}

// ONNX's use is inference; the gradient with respect to X is not written here.
RILL_REGISTER_NO_GRADIENT("RoiAlign");

}  // namespace ops
}  // namespace rill
