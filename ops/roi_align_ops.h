// RoiAlign: ONNX's (Mask R-CNN's RoIAlign as ONNX Runtime computes it; TensorFlow has no
// such op), rill's own name. X [N, C, H, W], rois [R, 4] of (x1, y1, x2, y2) in X's
// coordinates times 1 / spatial_scale, batch_indices [R] (int64) give [R, C, output_height,
// output_width]; core/roi_align.h has the rules. Attrs: mode "avg" (default) or "max",
// output_height and output_width (1), sampling_ratio (0: adaptive), spatial_scale (1),
// coordinate_transformation_mode "half_pixel" (default) or "output_half_pixel". Float and
// double, CPU; not differentiable in rill.
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

class RoiAlign : public OpWrapper {
 public:
  struct Attrs {
#define RILL_ROI_ALIGN_SETTER(Name, field, type) \
  Attrs Name(type x) const {                     \
    Attrs r = *this;                             \
    r.field = x;                                 \
    return r;                                    \
  }
    RILL_ROI_ALIGN_SETTER(Mode, mode_, const std::string&)
    RILL_ROI_ALIGN_SETTER(OutputHeight, output_height_, int64_t)
    RILL_ROI_ALIGN_SETTER(OutputWidth, output_width_, int64_t)
    RILL_ROI_ALIGN_SETTER(SamplingRatio, sampling_ratio_, int64_t)
    RILL_ROI_ALIGN_SETTER(SpatialScale, spatial_scale_, float)
    RILL_ROI_ALIGN_SETTER(CoordinateTransformationMode, transform_, const std::string&)
#undef RILL_ROI_ALIGN_SETTER
    std::string mode_ = "avg";
    int64_t output_height_ = 1, output_width_ = 1, sampling_ratio_ = 0;
    float spatial_scale_ = 1;
    std::string transform_ = "half_pixel";
  };
  RoiAlign(const Scope& scope, Input x, Input rois, Input batch_indices)
      : RoiAlign(scope, x, rois, batch_indices, Attrs()) {}
  RoiAlign(const Scope& scope, Input x, Input rois, Input batch_indices, const Attrs& attrs);
};

}  // namespace rill::ops
