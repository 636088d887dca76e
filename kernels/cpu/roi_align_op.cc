// CPU kernel of RoiAlign: each roi's geometry checked and worked out once (core/roi_align.h),
// then every channel's bins through RoiAlignBin.
#include <cmath>

#include "rill/core/kernel.h"
#include "rill/core/roi_align.h"

namespace rill::cpu {
namespace {

// Roi i's box, or InvalidArgument for a non-finite coordinate, a batch index outside the
// image batch, or an adaptive grid past the sample limit.
template <typename T>
absl::StatusOr<RoiBox<T>> BoxOf(const RoiAlignParams& p, const T* roi, int64_t i) {
  for (int k = 0; k < 4; ++k) {
    if (!std::isfinite(static_cast<double>(roi[k]))) {
      return errors::InvalidArgument("rois[", i, "] has a coordinate that is not finite");
    }
  }
  const T offset = p.half_pixel ? T(0.5) : T(0), scale = static_cast<T>(p.spatial_scale);
  RoiBox<T> r;
  r.start_x = roi[0] * scale - offset;
  r.start_y = roi[1] * scale - offset;
  T width = roi[2] * scale - offset - r.start_x, height = roi[3] * scale - offset - r.start_y;
  if (!p.half_pixel) {  // malformed rois become 1 x 1
    width = width < T(1) ? T(1) : width;
    height = height < T(1) ? T(1) : height;
  }
  r.bin_h = height / T(p.out_h);
  r.bin_w = width / T(p.out_w);
  const double grid_h = p.sampling_ratio > 0 ? p.sampling_ratio : std::ceil(double(r.bin_h));
  const double grid_w = p.sampling_ratio > 0 ? p.sampling_ratio : std::ceil(double(r.bin_w));
  if (!(std::abs(grid_h * grid_w) <= double(kMaxRoiAlignSamplesPerBin)) ||
      !(std::abs(grid_h) <= double(kMaxRoiAlignSamplesPerBin)) ||
      !(std::abs(grid_w) <= double(kMaxRoiAlignSamplesPerBin))) {
    return errors::InvalidArgument("rois[", i, "] would take ", grid_h, " x ", grid_w,
                                   " samples per bin (more than ", kMaxRoiAlignSamplesPerBin,
                                   "); give a sampling_ratio");
  }
  r.grid_h = static_cast<int64_t>(grid_h);
  r.grid_w = static_cast<int64_t>(grid_w);
  return r;
}

template <typename T>
class RoiAlignOp : public OpKernel {
 public:
  explicit RoiAlignOp(OpKernelConstruction& c)
      : OpKernel(c),
        params_(ParseRoiAlign(
            c.node().attr<std::string>("mode"),
            c.node().attr<std::string>("coordinate_transformation_mode"),
            c.node().attr<int64_t>("output_height"), c.node().attr<int64_t>("output_width"),
            c.node().attr<int64_t>("sampling_ratio"), c.node().attr<float>("spatial_scale"))) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(params_.status());
    const RoiAlignParams& p = *params_;
    const Tensor &x = ctx.input(0), &rois = ctx.input(1), &batch = ctx.input(2);
    if (x.dims() != 4 || rois.dims() != 2 || rois.dim_size(1) != 4 || batch.dims() != 1 ||
        batch.dim_size(0) != rois.dim_size(0)) {
      return errors::InvalidArgument(
          "RoiAlign needs X [N, C, H, W], rois [R, 4] and batch_indices [R], got ",
          x.shape().DebugString(), ", ", rois.shape().DebugString(), " and ",
          batch.shape().DebugString());
    }
    const int64_t n = x.dim_size(0), c = x.dim_size(1), h = x.dim_size(2), w = x.dim_size(3);
    const int64_t r_count = rois.dim_size(0), bins = p.out_h * p.out_w;
    RILL_ASSIGN_OR_RETURN(const TensorShape shape,
                          TensorShape::Build({r_count, c, p.out_h, p.out_w}));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    for (int64_t i = 0; i < r_count; ++i) {
      const int64_t b = batch.base<int64_t>()[i];
      if (b < 0 || b >= n) {
        return errors::InvalidArgument("batch_indices[", i, "] = ", b, " is not in [0, ", n, ")");
      }
      RILL_ASSIGN_OR_RETURN(const RoiBox<T> box, BoxOf(p, rois.base<T>() + i * 4, i));
      for (int64_t ch = 0; ch < c; ++ch) {
        const T* plane = x.base<T>() + (b * c + ch) * h * w;
        T* o = out->base<T>() + (i * c + ch) * bins;
        for (int64_t bin = 0; bin < bins; ++bin) {
          o[bin] = h * w == 0 ? T(0)
                              : RoiAlignBin(plane, h, w, box, bin / p.out_w, bin % p.out_w, p.max);
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  const absl::StatusOr<RoiAlignParams> params_;
};

RILL_REGISTER_KERNEL("RoiAlign", DEVICE_CPU, "T", DT_FLOAT, RoiAlignOp<float>);
RILL_REGISTER_KERNEL("RoiAlign", DEVICE_CPU, "T", DT_DOUBLE, RoiAlignOp<double>);

}  // namespace
}  // namespace rill::cpu
