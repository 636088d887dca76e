// The image resizes, with TensorFlow's C++ names, arguments and attrs (image_ops.h):
// ResizeNearestNeighbor, ResizeBilinear and ResizeBicubic over NHWC images to `size`
// ([new_height, new_width], int32), and their gradients (ops::internal::*Grad).
// ResizeBilinear and ResizeBicubic always return float32, as TensorFlow's.
#pragma once

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

}  // namespace rill::ops
