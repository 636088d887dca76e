// The image resizes, with TensorFlow's C++ names, arguments and attrs (image_ops.h):
// ResizeNearestNeighbor, ResizeBilinear and ResizeBicubic over NHWC images to `size`
// ([new_height, new_width], int32), and their gradients (ops::internal::*Grad).
// ResizeBilinear and ResizeBicubic always return float32, as TensorFlow's; ScaleAndTranslate
// and its gradient; CropAndResize and its gradients CropAndResizeGradImage and
// CropAndResizeGradBoxes; ResizeArea; RGBToHSV and HSVToRGB; AdjustContrast, AdjustHue and
// AdjustSaturation.
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

struct ResizeAttrs {
  ResizeAttrs AlignCorners(bool x) {
    ResizeAttrs r = *this;
    r.align_corners_ = x;
    return r;
  }
  ResizeAttrs HalfPixelCenters(bool x) {
    ResizeAttrs r = *this;
    r.half_pixel_centers_ = x;
    return r;
  }
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

#define RILL_DECLARE_RESIZE(Name, a, b)                                           \
  class Name : public OpWrapper {                                                 \
   public:                                                                        \
    using Attrs = ResizeAttrs;                                                    \
    Name(const Scope& scope, Input a, Input b, const Attrs& attrs = Attrs());     \
    static Attrs AlignCorners(bool x) { return Attrs().AlignCorners(x); }         \
    static Attrs HalfPixelCenters(bool x) { return Attrs().HalfPixelCenters(x); } \
  };
RILL_DECLARE_RESIZE(ResizeNearestNeighbor, images, size)
RILL_DECLARE_RESIZE(ResizeBilinear, images, size)
RILL_DECLARE_RESIZE(ResizeBicubic, images, size)
namespace internal {
// The input's gradient from the resized output's (`grads`): ResizeNearestNeighborGrad
// takes the original [height, width], the others the original image (its shape and dtype).
RILL_DECLARE_RESIZE(ResizeNearestNeighborGrad, grads, size)
RILL_DECLARE_RESIZE(ResizeBilinearGrad, grads, original_image)
RILL_DECLARE_RESIZE(ResizeBicubicGrad, grads, original_image)
}  // namespace internal
#undef RILL_DECLARE_RESIZE

// images (NHWC) sampled to `size` ([height, width], int32) at `scale` and `translation`
// ([y, x] float32 each; scale > 0) with a sampling kernel (core/scale_translate.h): output
// pixel o of an axis samples the input around (o + 0.5 - translation) / scale. Output
// float32; CPU only, as TensorFlow's. ScaleAndTranslateGrad: the images' gradient (of the
// original image's dtype, float or double) from the output's (float32).
struct ScaleAndTranslateAttrs {
  ScaleAndTranslateAttrs KernelType(const std::string& x) {
    ScaleAndTranslateAttrs r = *this;
    r.kernel_type_ = x;
    return r;
  }
  ScaleAndTranslateAttrs Antialias(bool x) {
    ScaleAndTranslateAttrs r = *this;
    r.antialias_ = x;
    return r;
  }
  std::string kernel_type_ = "lanczos3";
  bool antialias_ = true;
};
class ScaleAndTranslate : public OpWrapper {
 public:
  using Attrs = ScaleAndTranslateAttrs;
  ScaleAndTranslate(const Scope& scope, Input images, Input size, Input scale, Input translation,
                    const Attrs& attrs = Attrs());
  static Attrs KernelType(const std::string& x) { return Attrs().KernelType(x); }
  static Attrs Antialias(bool x) { return Attrs().Antialias(x); }
  Output resized_images;  // TensorFlow's name for `output`
};
namespace internal {
class ScaleAndTranslateGrad : public OpWrapper {
 public:
  using Attrs = ScaleAndTranslateAttrs;
  ScaleAndTranslateGrad(const Scope& scope, Input grads, Input original_image, Input scale,
                        Input translation, const Attrs& attrs = Attrs());
  static Attrs KernelType(const std::string& x) { return Attrs().KernelType(x); }
  static Attrs Antialias(bool x) { return Attrs().Antialias(x); }
};
}  // namespace internal

// Crops of `image` (NHWC) resized to crop_size ([height, width], int32): box b, normalized
// [y1, x1, y2, x2] (y1 > y2 flips it), from image box_ind[b] (int32, checked against the
// batch), sampled bilinearly or at the nearest pixel ("bilinear" | "nearest"); samples
// outside the image (or at a NaN coordinate) are extrapolation_value. Output float32
// [num_boxes, crop_height, crop_width, depth].
struct CropAttrs {
  CropAttrs Method(const std::string& x) {
    CropAttrs r = *this;
    r.method_ = x;
    return r;
  }
  CropAttrs ExtrapolationValue(float x) {
    CropAttrs r = *this;
    r.extrapolation_value_ = x;
    return r;
  }
  std::string method_ = "bilinear";
  float extrapolation_value_ = 0;
};
class CropAndResize : public OpWrapper {
 public:
  using Attrs = CropAttrs;
  CropAndResize(const Scope& scope, Input image, Input boxes, Input box_ind, Input crop_size,
                const Attrs& attrs = Attrs());
  static Attrs Method(const std::string& x) { return Attrs().Method(x); }
  static Attrs ExtrapolationValue(float x) { return Attrs().ExtrapolationValue(x); }
};
// The gradient of the image (of dtype T, float or double, and image_size [4] int32).
class CropAndResizeGradImage : public OpWrapper {
 public:
  using Attrs = CropAttrs;
  CropAndResizeGradImage(const Scope& scope, Input grads, Input boxes, Input box_ind,
                         Input image_size, DataType T, const Attrs& attrs = Attrs());
  static Attrs Method(const std::string& x) { return Attrs().Method(x); }
};
// The gradient of the boxes ([num_boxes, 4] float32) of a bilinear CropAndResize.
class CropAndResizeGradBoxes : public OpWrapper {
 public:
  using Attrs = CropAttrs;
  CropAndResizeGradBoxes(const Scope& scope, Input grads, Input image, Input boxes, Input box_ind,
                         const Attrs& attrs = Attrs());
  static Attrs Method(const std::string& x) { return Attrs().Method(x); }
};

// Each output cell the average of the input cells it covers, each weighted by the part
// covered (tf.image.resize with method "area"); float32 out; align_corners only.
struct ResizeAreaAttrs {
  ResizeAreaAttrs AlignCorners(bool x) {
    ResizeAreaAttrs r = *this;
    r.align_corners_ = x;
    return r;
  }
  bool align_corners_ = false;
};
class ResizeArea : public OpWrapper {
 public:
  using Attrs = ResizeAreaAttrs;
  ResizeArea(const Scope& scope, Input images, Input size, const Attrs& attrs = Attrs());
  static Attrs AlignCorners(bool x) { return Attrs().AlignCorners(x); }
};

// RGB images (the last dim 3 channels, values in [0, 1]) as hue, saturation and value, and
// back (tf.image.rgb_to_hsv, hsv_to_rgb); float or double; differentiable.
class RGBToHSV : public OpWrapper {
 public:
  RGBToHSV(const Scope& scope, Input images);
};
class HSVToRGB : public OpWrapper {
 public:
  HSVToRGB(const Scope& scope, Input images);
};

// Each channel of each image of [..., height, width, channels] moved away from (factor > 1)
// or towards (factor < 1) its mean over the image: (x - mean) * factor + mean
// (tf.image.adjust_contrast; op AdjustContrastv2); contrast_factor a float scalar.
class AdjustContrast : public OpWrapper {
 public:
  AdjustContrast(const Scope& scope, Input images, Input contrast_factor);
};

// tf.image.adjust_hue: each pixel of images [..., height, width, 3] (RGB) with its hue
// moved by delta (a float scalar; a turn is 1) and wrapped into [0, 1); saturation and
// value kept. tf.image.adjust_saturation: the saturation times scale, clamped into [0, 1].
// CPU only; not differentiable, as TensorFlow's.
class AdjustHue : public OpWrapper {
 public:
  AdjustHue(const Scope& scope, Input images, Input delta);
};
class AdjustSaturation : public OpWrapper {
 public:
  AdjustSaturation(const Scope& scope, Input images, Input scale);
};

}  // namespace rill::ops
