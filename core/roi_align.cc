// RoiAlign's attrs (core/roi_align.h).
#include "rill/core/roi_align.h"

#include "rill/core/status.h"

namespace rill {

absl::StatusOr<RoiAlignParams> ParseRoiAlign(const std::string& mode, const std::string& transform,
                                             int64_t out_h, int64_t out_w, int64_t sampling_ratio,
                                             float spatial_scale) {
  RoiAlignParams p;
  if (mode != "avg" && mode != "max") {
    return errors::InvalidArgument("mode '", mode, "' is not 'avg' or 'max'");
  }
  if (transform != "half_pixel" && transform != "output_half_pixel") {
    return errors::InvalidArgument("coordinate_transformation_mode '", transform,
                                   "' is not 'half_pixel' or 'output_half_pixel'");
  }
  if (out_h < 1 || out_w < 1 || out_h > (int64_t{1} << 20) || out_w > (int64_t{1} << 20)) {
    return errors::InvalidArgument("output_height ", out_h, " and output_width ", out_w,
                                   " must be in [1, 2^20]");
  }
  if (sampling_ratio < 0 || sampling_ratio > 256) {
    return errors::InvalidArgument("sampling_ratio ", sampling_ratio, " must be in [0, 256]");
  }
  if (!std::isfinite(spatial_scale)) {
    return errors::InvalidArgument("spatial_scale ", spatial_scale, " must be finite");
  }
  p.max = mode == "max";
  p.half_pixel = transform == "half_pixel";
  p.out_h = out_h;
  p.out_w = out_w;
  p.sampling_ratio = sampling_ratio;
  p.spatial_scale = spatial_scale;
  return p;
}

}  // namespace rill
