// GridSample's attrs (core/grid_sample.h).
#include "rill/core/grid_sample.h"

#include "rill/core/status.h"

namespace rill {

absl::StatusOr<GridSampleParams> ParseGridSample(const std::string& mode,
                                                 const std::string& padding_mode,
                                                 bool align_corners) {
  GridSampleParams p;
  p.align_corners = align_corners;
  if (mode == "bilinear") {
    p.mode = GridSampleMode::kBilinear;
  } else if (mode == "nearest") {
    p.mode = GridSampleMode::kNearest;
  } else if (mode == "bicubic") {
    p.mode = GridSampleMode::kBicubic;
  } else {
    return errors::InvalidArgument("mode '", mode,
                                   "' is not one of 'bilinear', 'nearest', 'bicubic'");
  }
  if (padding_mode == "zeros") {
    p.padding = GridPadding::kZeros;
  } else if (padding_mode == "border") {
    p.padding = GridPadding::kBorder;
  } else if (padding_mode == "reflection") {
    p.padding = GridPadding::kReflection;
  } else {
    return errors::InvalidArgument("padding_mode '", padding_mode,
                                   "' is not one of 'zeros', 'border', 'reflection'");
  }
  return p;
}

}  // namespace rill
