// CPU kernel of GridSample: each output pixel of each channel through core/grid_sample.h's
// GridSampleAt, the grid point read once per pixel for all channels.
#include "rill/core/grid_sample.h"
#include "rill/core/kernel.h"

namespace rill::cpu {
namespace {

template <typename T>
class GridSampleOp : public OpKernel {
 public:
  explicit GridSampleOp(OpKernelConstruction& c)
      : OpKernel(c),
        params_(ParseGridSample(c.node().attr<std::string>("mode"),
                                c.node().attr<std::string>("padding_mode"),
                                c.node().attr<bool>("align_corners"))) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(params_.status());
    const Tensor &x = ctx.input(0), &grid = ctx.input(1);
    if (x.dims() != 4) {
      return errors::InvalidArgument("X must be [N, C, H, W], got shape ", x.shape().DebugString());
    }
    if (grid.dims() != 4 || grid.dim_size(3) != 2 || grid.dim_size(0) != x.dim_size(0)) {
      return errors::InvalidArgument("grid must be [N, H_out, W_out, 2] with X's batch ",
                                     x.dim_size(0), ", got shape ", grid.shape().DebugString());
    }
    const int64_t n = x.dim_size(0), c = x.dim_size(1), h = x.dim_size(2), w = x.dim_size(3);
    const int64_t ho = grid.dim_size(1), wo = grid.dim_size(2);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({n, c, ho, wo}), &out));
    const T *in = x.base<T>(), *g = grid.base<T>();
    T* o = out->base<T>();
    const int64_t plane = h * w, out_plane = ho * wo;
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t p = 0; p < out_plane; ++p) {
        const T gx = g[(b * out_plane + p) * 2], gy = g[(b * out_plane + p) * 2 + 1];
        for (int64_t ch = 0; ch < c; ++ch) {
          o[(b * c + ch) * out_plane + p] =
              plane == 0 ? T(0) : GridSampleAt(in + (b * c + ch) * plane, h, w, gx, gy, *params_);
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  const absl::StatusOr<GridSampleParams> params_;
};

RILL_REGISTER_KERNEL("GridSample", DEVICE_CPU, "T", DT_FLOAT, GridSampleOp<float>);
RILL_REGISTER_KERNEL("GridSample", DEVICE_CPU, "T", DT_DOUBLE, GridSampleOp<double>);

}  // namespace
}  // namespace rill::cpu
