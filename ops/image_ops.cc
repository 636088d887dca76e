// The image resizes and their gradients: schemas, shape functions, wrappers and gradients
// (kernels in kernels/*/resize_ops.cc over core/resize.h's tables).
#include "rill/ops/image_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

absl::Status CheckCorners(InferenceContext& c) {
  if (c.attr<bool>("align_corners") && c.attr<bool>("half_pixel_centers")) {
    return errors::InvalidArgument("if half_pixel_centers is true, align_corners must be false");
  }
  return absl::OkStatus();
}

// images (input 0: the images, or a nearest resize's grads) resized to the size input 1 holds.
absl::Status ResizeShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckCorners(c));
  RILL_ASSIGN_OR_RETURN(auto in, shape_fns::RankedDims(c, 0, 4, c.op_def().inputs[0].name));
  RILL_ASSIGN_OR_RETURN(auto size, shape_fns::PositiveSizes(c, 1, 2, "size"));
  c.set_output(0, PartialTensorShape({in[0], size[0], size[1], in[3]}));
  return absl::OkStatus();
}

absl::Status ImageGradShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckCorners(c));
  RILL_ASSIGN_OR_RETURN(auto g, shape_fns::RankedDims(c, 0, 4, "grads"));
  RILL_ASSIGN_OR_RETURN(auto image, shape_fns::RankedDims(c, 1, 4, "original_image"));
  for (int d : {0, 3}) {
    if (g[d] >= 0 && image[d] >= 0 && g[d] != image[d]) {
      return errors::InvalidArgument("grads ", c.input_shape(0).DebugString(),
                                     " and original_image ", c.input_shape(1).DebugString(),
                                     " must have the same batch and channels");
    }
  }
  c.set_output(0, c.input_shape(1));
  return absl::OkStatus();
}

}  // namespace

#define RILL_RESIZE_ATTRS \
  Attr("align_corners", AttrKind::kBool, false).Attr("half_pixel_centers", AttrKind::kBool, false)
RILL_REGISTER_OP("ResizeNearestNeighbor")
    .Input("images", "T")
    .Input("size", DT_INT32)
    .Output("resized_images", "T")
    .TypeAttr("T", kNumberTypes)
    .RILL_RESIZE_ATTRS.SetShapeFn(ResizeShape);
RILL_REGISTER_OP("ResizeBilinear")
    .Input("images", "T")
    .Input("size", DT_INT32)
    .Output("resized_images", DT_FLOAT)
    .TypeAttr("T", kNumberTypes)
    .RILL_RESIZE_ATTRS.SetShapeFn(ResizeShape);
RILL_REGISTER_OP("ResizeBicubic")
    .Input("images", "T")
    .Input("size", DT_INT32)
    .Output("resized_images", DT_FLOAT)
    .TypeAttr("T", kNumberTypes)
    .RILL_RESIZE_ATTRS.SetShapeFn(ResizeShape);
RILL_REGISTER_OP("ResizeNearestNeighborGrad")
    .Input("grads", "T")
    .Input("size", DT_INT32)
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .RILL_RESIZE_ATTRS.SetShapeFn(ResizeShape);
RILL_REGISTER_OP("ResizeBilinearGrad")
    .Input("grads", DT_FLOAT)
    .Input("original_image", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .RILL_RESIZE_ATTRS.SetShapeFn(ImageGradShape);
RILL_REGISTER_OP("ResizeBicubicGrad")
    .Input("grads", DT_FLOAT)
    .Input("original_image", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .RILL_RESIZE_ATTRS.SetShapeFn(ImageGradShape);
#undef RILL_RESIZE_ATTRS

namespace ops {

#define RILL_DEFINE_RESIZE(Name, a, b)                                   \
  Name::Name(const Scope& scope, Input a, Input b, const Attrs& attrs) { \
    ::rill::ops::internal::NodeBuilder(scope, #Name)                     \
        .Input(a)                                                        \
        .Input(b)                                                        \
        .Attr("align_corners", attrs.align_corners_)                     \
        .Attr("half_pixel_centers", attrs.half_pixel_centers_)           \
        .Finalize(this);                                                 \
  }
RILL_DEFINE_RESIZE(ResizeNearestNeighbor, images, size)
RILL_DEFINE_RESIZE(ResizeBilinear, images, size)
RILL_DEFINE_RESIZE(ResizeBicubic, images, size)
namespace internal {
RILL_DEFINE_RESIZE(ResizeNearestNeighborGrad, grads, size)
RILL_DEFINE_RESIZE(ResizeBilinearGrad, grads, original_image)
RILL_DEFINE_RESIZE(ResizeBicubicGrad, grads, original_image)
}  // namespace internal
#undef RILL_DEFINE_RESIZE

namespace {

ResizeAttrs AttrsOf(const Operation& op) {
  return ResizeAttrs()
      .AlignCorners(op.node()->attr<bool>("align_corners"))
      .HalfPixelCenters(op.node()->attr<bool>("half_pixel_centers"));
}

// The gradient ops are the resizes' transposes; size gets none.
absl::Status NearestGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                         std::vector<Output>* out) {
  const Output size = Slice(s, grad::ShapeOf(s, grad::In(op, 0)), {1}, {2});
  out->push_back(internal::ResizeNearestNeighborGrad(s, g[0], size, AttrsOf(op)));
  out->push_back(Output());
  return s.status();
}
template <typename GradOp>
absl::Status InterpolationGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                               std::vector<Output>* out) {
  out->push_back(GradOp(s, g[0], grad::In(op, 0), AttrsOf(op)));
  out->push_back(Output());
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("ResizeNearestNeighbor", NearestGrad);
RILL_REGISTER_GRADIENT("ResizeBilinear", InterpolationGrad<internal::ResizeBilinearGrad>);
RILL_REGISTER_GRADIENT("ResizeBicubic", InterpolationGrad<internal::ResizeBicubicGrad>);
// Second order: not provided (TensorFlow has none either).
RILL_REGISTER_NO_GRADIENT("ResizeNearestNeighborGrad");
RILL_REGISTER_NO_GRADIENT("ResizeBilinearGrad");
RILL_REGISTER_NO_GRADIENT("ResizeBicubicGrad");

}  // namespace ops
}  // namespace rill
