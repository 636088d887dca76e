// GridSample (ops/grid_sample_ops.h): schema, shape function, wrapper (kernel:
// kernels/cpu/grid_sample_op.cc).
#include "rill/ops/grid_sample_ops.h"

#include "rill/core/grid_sample.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

absl::Status GridSampleShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(ParseGridSample(c.attr<std::string>("mode"),
                                       c.attr<std::string>("padding_mode"),
                                       c.attr<bool>("align_corners"))
                           .status());
  const PartialTensorShape &x = c.input_shape(0), &grid = c.input_shape(1);
  if (!x.unknown_rank() && x.dims() != 4) {
    return errors::InvalidArgument("X must be [N, C, H, W], got shape ", x.DebugString());
  }
  if (!grid.unknown_rank() &&
      (grid.dims() != 4 || (grid.dim_size(3) >= 0 && grid.dim_size(3) != 2))) {
    return errors::InvalidArgument("grid must be [N, H_out, W_out, 2], got shape ",
                                   grid.DebugString());
  }
  const auto dim = [](const PartialTensorShape& s, int d) {
    return s.unknown_rank() ? int64_t{-1} : s.dim_size(d);
  };
  if (dim(x, 0) >= 0 && dim(grid, 0) >= 0 && dim(x, 0) != dim(grid, 0)) {
    return errors::InvalidArgument("X of shape ", x.DebugString(), " and grid of shape ",
                                   grid.DebugString(), " differ in batch");
  }
  c.set_output(0, PartialTensorShape({dim(x, 0) >= 0 ? dim(x, 0) : dim(grid, 0), dim(x, 1),
                                      dim(grid, 1), dim(grid, 2)}));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("GridSample")
    .Input("X", "T")
    .Input("grid", "T")
    .Output("Y", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("mode", AttrKind::kString, std::string("bilinear"))
    .Attr("padding_mode", AttrKind::kString, std::string("zeros"))
    .Attr("align_corners", AttrKind::kBool, false)
    .SetShapeFn(GridSampleShape);

namespace ops {

GridSample::GridSample(const Scope& scope, Input x, Input grid, const Attrs& attrs) {
  internal::NodeBuilder(scope, "GridSample")
      .Input(x)
      .Input(grid)
      .Attr("mode", attrs.mode_)
      .Attr("padding_mode", attrs.padding_mode_)
      .Attr("align_corners", attrs.align_corners_)
      .Finalize(this);
}

// ONNX's use is inference; PyTorch's gradient with respect to the grid is not written here.
RILL_REGISTER_NO_GRADIENT("GridSample");

}  // namespace ops
}  // namespace rill
