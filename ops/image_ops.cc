// The image resizes, ScaleAndTranslate and their gradients: schemas, shape functions,
// wrappers and gradients (kernels in kernels/*/resize_ops.cc over core/resize.h's tables,
// kernels/cpu/scale_translate_ops.cc over core/scale_translate.h's spans).
#include "rill/ops/image_ops.h"

#include "rill/core/scale_translate.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

absl::Status CheckCorners(InferenceContext& c) {
  if (!c.attrs().contains("half_pixel_centers")) return absl::OkStatus();  // ResizeArea's
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

// grads (input 0) and original_image (input 1) of one batch and channels: the latter's shape.
absl::Status GradOfImageShape(InferenceContext& c) {
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

absl::Status ImageGradShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckCorners(c));
  return GradOfImageShape(c);
}

// kernel_type names a kernel; scale and translation are 2-vectors, a constant scale > 0.
absl::Status CheckSampling(InferenceContext& c, int scale) {
  RILL_RETURN_IF_ERROR(SamplingKernelNamed(c.attr<std::string>("kernel_type")).status());
  for (int i : {scale, scale + 1}) {
    const char* what = i == scale ? "scale" : "translation";
    RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, i, what));
    const PartialTensorShape& s = c.input_shape(i);
    if (!s.unknown_rank() && s.dim_size(0) >= 0 && s.dim_size(0) != 2) {
      return errors::InvalidArgument(what, " must hold 2 values [y, x], got shape ",
                                     s.DebugString());
    }
  }
  if (const Tensor* t = c.input_tensor(scale); t != nullptr && t->NumElements() == 2) {
    const float* v = t->base<float>();
    if (!(v[0] > 0 && v[1] > 0)) {
      return errors::InvalidArgument("scale must be greater than 0, got [", v[0], ",", v[1], "]");
    }
  }
  return absl::OkStatus();
}

absl::Status ScaleAndTranslateShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckSampling(c, 2));
  RILL_ASSIGN_OR_RETURN(auto in, shape_fns::RankedDims(c, 0, 4, "images"));
  RILL_ASSIGN_OR_RETURN(auto size, shape_fns::PositiveSizes(c, 1, 2, "size"));
  c.set_output(0, PartialTensorShape({in[0], size[0], size[1], in[3]}));
  return absl::OkStatus();
}

absl::Status ScaleAndTranslateGradShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckSampling(c, 2));
  return GradOfImageShape(c);
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
// TensorFlow's ResizeArea has align_corners alone; its gradient is rill's own op.
RILL_REGISTER_OP("ResizeArea")
    .Input("images", "T")
    .Input("size", DT_INT32)
    .Output("resized_images", DT_FLOAT)
    .TypeAttr("T", kNumberTypes)
    .Attr("align_corners", AttrKind::kBool, false)
    .SetShapeFn(ResizeShape);
RILL_REGISTER_OP("_ResizeAreaGrad")
    .Input("grads", DT_FLOAT)
    .Input("original_image", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("align_corners", AttrKind::kBool, false)
    .SetShapeFn(ImageGradShape);

#define RILL_SAMPLING_ATTRS                                       \
  Attr("kernel_type", AttrKind::kString, std::string("lanczos3")) \
      .Attr("antialias", AttrKind::kBool, true)
RILL_REGISTER_OP("ScaleAndTranslate")
    .Input("images", "T")
    .Input("size", DT_INT32)
    .Input("scale", DT_FLOAT)
    .Input("translation", DT_FLOAT)
    .Output("resized_images", DT_FLOAT)
    .TypeAttr("T",
              {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_INT8, DT_INT16, DT_UINT16})
    .RILL_SAMPLING_ATTRS.SetShapeFn(ScaleAndTranslateShape);
RILL_REGISTER_OP("ScaleAndTranslateGrad")
    .Input("grads", DT_FLOAT)
    .Input("original_image", "T")
    .Input("scale", DT_FLOAT)
    .Input("translation", DT_FLOAT)
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .RILL_SAMPLING_ATTRS.SetShapeFn(ScaleAndTranslateGradShape);
#undef RILL_SAMPLING_ATTRS

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
ResizeArea::ResizeArea(const Scope& scope, Input images, Input size, const Attrs& attrs) {
  internal::NodeBuilder(scope, "ResizeArea")
      .Input(images)
      .Input(size)
      .Attr("align_corners", attrs.align_corners_)
      .Finalize(this);
}

ScaleAndTranslate::ScaleAndTranslate(const Scope& scope, Input images, Input size, Input scale,
                                     Input translation, const Attrs& attrs) {
  internal::NodeBuilder(scope, "ScaleAndTranslate")
      .Input(images)
      .Input(size)
      .Input(scale)
      .Input(translation)
      .Attr("kernel_type", attrs.kernel_type_)
      .Attr("antialias", attrs.antialias_)
      .Finalize(this);
  resized_images = output;
}

namespace internal {
ScaleAndTranslateGrad::ScaleAndTranslateGrad(const Scope& scope, Input grads, Input original_image,
                                             Input scale, Input translation, const Attrs& attrs) {
  NodeBuilder(scope, "ScaleAndTranslateGrad")
      .Input(grads)
      .Input(original_image)
      .Input(scale)
      .Input(translation)
      .Attr("kernel_type", attrs.kernel_type_)
      .Attr("antialias", attrs.antialias_)
      .Finalize(this);
}
}  // namespace internal

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

// ResizeArea is a weighted average of input cells: its transpose spreads each output's
// gradient back over the cells it covered. TensorFlow has no gradient for it.
absl::Status AreaGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                      std::vector<Output>* out) {
  out->push_back(Output(internal::NodeBuilder(s, "_ResizeAreaGrad")
                            .Input(g[0])
                            .Input(grad::In(op, 0))
                            .Attr("align_corners", op.node()->attr<bool>("align_corners"))
                            .Finalize()
                            .node()));
  out->push_back(Output());
  return s.status();
}

// The images' gradient; size, scale and translation get none (TensorFlow's choice).
absl::Status ScaleAndTranslateGradFn(const Scope& s, const Operation& op,
                                     const std::vector<Output>& g, std::vector<Output>* out) {
  const auto attrs = ScaleAndTranslateAttrs()
                         .KernelType(op.node()->attr<std::string>("kernel_type"))
                         .Antialias(op.node()->attr<bool>("antialias"));
  out->push_back(internal::ScaleAndTranslateGrad(s, g[0], grad::In(op, 0), grad::In(op, 2),
                                                 grad::In(op, 3), attrs));
  for (int i = 0; i < 3; ++i) out->push_back(Output());
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("ResizeNearestNeighbor", NearestGrad);
RILL_REGISTER_GRADIENT("ResizeBilinear", InterpolationGrad<internal::ResizeBilinearGrad>);
RILL_REGISTER_GRADIENT("ResizeBicubic", InterpolationGrad<internal::ResizeBicubicGrad>);
RILL_REGISTER_GRADIENT("ResizeArea", AreaGrad);
RILL_REGISTER_NO_GRADIENT("_ResizeAreaGrad");
// Second order: not provided (TensorFlow has none either).
RILL_REGISTER_NO_GRADIENT("ResizeNearestNeighborGrad");
RILL_REGISTER_NO_GRADIENT("ResizeBilinearGrad");
RILL_REGISTER_NO_GRADIENT("ResizeBicubicGrad");
RILL_REGISTER_GRADIENT("ScaleAndTranslate", ScaleAndTranslateGradFn);
RILL_REGISTER_NO_GRADIENT("ScaleAndTranslateGrad");

}  // namespace ops
}  // namespace rill
