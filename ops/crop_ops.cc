// CropAndResize and its two gradient ops: schemas, shape functions, wrappers and the
// gradient (kernels in kernels/*/crop_resize_ops.cc over core/crop_resize_row.h).
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/image_ops.h"

namespace rill {
namespace {

// boxes (input i) [n, 4] and box_ind (input i + 1) [n]: n, or -1.
absl::StatusOr<int64_t> Boxes(InferenceContext& c, int i) {
  RILL_ASSIGN_OR_RETURN(auto boxes, shape_fns::RankedDims(c, i, 2, "boxes"));
  RILL_ASSIGN_OR_RETURN(auto ind, shape_fns::RankedDims(c, i + 1, 1, "box_ind"));
  if (boxes[1] >= 0 && boxes[1] != 4) {
    return errors::InvalidArgument("boxes must be [num_boxes, 4], got ",
                                   c.input_shape(i).DebugString());
  }
  if (boxes[0] >= 0 && ind[0] >= 0 && boxes[0] != ind[0]) {
    return errors::InvalidArgument("box_ind ", c.input_shape(i + 1).DebugString(),
                                   " must have one entry per box (", boxes[0], ")");
  }
  return boxes[0] >= 0 ? boxes[0] : ind[0];
}

absl::Status CheckMethod(InferenceContext& c, bool bilinear_only) {
  const std::string& m = c.attr<std::string>("method");
  if (m != "bilinear" && (bilinear_only || m != "nearest")) {
    return errors::InvalidArgument("method must be 'bilinear'",
                                   bilinear_only ? "" : " or 'nearest'", ", got '", m, "'");
  }
  return absl::OkStatus();
}

absl::Status CropShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckMethod(c, false));
  RILL_ASSIGN_OR_RETURN(auto image, shape_fns::RankedDims(c, 0, 4, "image"));
  RILL_ASSIGN_OR_RETURN(const int64_t n, Boxes(c, 1));
  RILL_ASSIGN_OR_RETURN(auto crop, shape_fns::PositiveSizes(c, 3, 2, "crop_size"));
  c.set_output(0, PartialTensorShape({n, crop[0], crop[1], image[3]}));
  return absl::OkStatus();
}

absl::Status GradImageShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckMethod(c, false));
  RILL_ASSIGN_OR_RETURN(auto grads, shape_fns::RankedDims(c, 0, 4, "grads"));
  RILL_RETURN_IF_ERROR(Boxes(c, 1).status());
  RILL_ASSIGN_OR_RETURN(auto size, shape_fns::PositiveSizes(c, 3, 4, "image_size"));
  if (size[3] >= 0 && grads[3] >= 0 && size[3] != grads[3]) {
    return errors::InvalidArgument("image_size's depth ", size[3], " is not grads' ", grads[3]);
  }
  c.set_output(0, PartialTensorShape(size));
  return absl::OkStatus();
}

absl::Status GradBoxesShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckMethod(c, true));
  RILL_RETURN_IF_ERROR(shape_fns::RankedDims(c, 0, 4, "grads").status());
  RILL_RETURN_IF_ERROR(shape_fns::RankedDims(c, 1, 4, "image").status());
  RILL_ASSIGN_OR_RETURN(const int64_t n, Boxes(c, 2));
  c.set_output(0, PartialTensorShape({n, 4}));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("CropAndResize")
    .Input("image", "T")
    .Input("boxes", DT_FLOAT)
    .Input("box_ind", DT_INT32)
    .Input("crop_size", DT_INT32)
    .Output("crops", DT_FLOAT)
    .TypeAttr("T", kNumberTypes)
    .Attr("method", AttrKind::kString, std::string("bilinear"))
    .Attr("extrapolation_value", AttrKind::kFloat, 0.0f)
    .SetShapeFn(CropShape);
RILL_REGISTER_OP("CropAndResizeGradImage")
    .Input("grads", DT_FLOAT)
    .Input("boxes", DT_FLOAT)
    .Input("box_ind", DT_INT32)
    .Input("image_size", DT_INT32)
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("method", AttrKind::kString, std::string("bilinear"))
    .SetShapeFn(GradImageShape);
RILL_REGISTER_OP("CropAndResizeGradBoxes")
    .Input("grads", DT_FLOAT)
    .Input("image", "T")
    .Input("boxes", DT_FLOAT)
    .Input("box_ind", DT_INT32)
    .Output("output", DT_FLOAT)
    .TypeAttr("T", kNumberTypes)
    .Attr("method", AttrKind::kString, std::string("bilinear"))
    .SetShapeFn(GradBoxesShape);

namespace ops {

using internal::NodeBuilder;

CropAndResize::CropAndResize(const Scope& scope, Input image, Input boxes, Input box_ind,
                             Input crop_size, const Attrs& attrs) {
  NodeBuilder(scope, "CropAndResize")
      .Input(image)
      .Input(boxes)
      .Input(box_ind)
      .Input(crop_size)
      .Attr("method", attrs.method_)
      .Attr("extrapolation_value", attrs.extrapolation_value_)
      .Finalize(this);
}
CropAndResizeGradImage::CropAndResizeGradImage(const Scope& scope, Input grads, Input boxes,
                                               Input box_ind, Input image_size, DataType T,
                                               const Attrs& attrs) {
  NodeBuilder(scope, "CropAndResizeGradImage")
      .Input(grads)
      .Input(boxes)
      .Input(box_ind)
      .Input(image_size)
      .Attr("T", T)
      .Attr("method", attrs.method_)
      .Finalize(this);
}
CropAndResizeGradBoxes::CropAndResizeGradBoxes(const Scope& scope, Input grads, Input image,
                                               Input boxes, Input box_ind, const Attrs& attrs) {
  NodeBuilder(scope, "CropAndResizeGradBoxes")
      .Input(grads)
      .Input(image)
      .Input(boxes)
      .Input(box_ind)
      .Attr("method", attrs.method_)
      .Finalize(this);
}

namespace {

// The image's gradient (float images only), and the boxes': bilinear sampling moves
// smoothly with a box, nearest sampling not at all (its derivative is zero wherever it
// exists; TensorFlow gives it the bilinear formula's instead).
absl::Status CropAndResizeGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                               std::vector<Output>* out) {
  const Output image = grad::In(op, 0), boxes = grad::In(op, 1), ind = grad::In(op, 2);
  const std::string method = op.node()->attr<std::string>("method");
  const DataType t = image.type();
  if (t == DT_FLOAT || t == DT_DOUBLE) {
    out->push_back(CropAndResizeGradImage(s, g[0], boxes, ind, grad::ShapeOf(s, image), t,
                                          CropAttrs().Method(method)));
  } else {
    out->push_back(Output());
  }
  if (method == "bilinear") {
    out->push_back(CropAndResizeGradBoxes(s, g[0], image, boxes, ind));
  } else {
    out->push_back(ZerosLike(s, boxes));
  }
  out->push_back(Output());
  out->push_back(Output());
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("CropAndResize", CropAndResizeGrad);
RILL_REGISTER_NO_GRADIENT("CropAndResizeGradImage");
RILL_REGISTER_NO_GRADIENT("CropAndResizeGradBoxes");

}  // namespace ops
}  // namespace rill
