// GPU kernels of RGBToHSV, HSVToRGB and their gradients: core/colorspace.h's checks,
// kernels/cuda/colorspace.cu's arithmetic.
#include "rill/core/colorspace.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <ColorKind K, typename T>
class ColorGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t pixels, PrepareColor(ctx, &out));
    const T* dy = ctx.num_inputs() == 2 ? ctx.input(1).base<T>() : nullptr;
    const cudaError_t e = LaunchColor<K, T>(ctx.input(0).base<T>(), dy, out->base<T>(), pixels,
                                            ContextOf(ctx)->stream);
    RILL_CUDA_CHECK(e);
    return absl::OkStatus();
  }
};

#define RILL_REG_COLOR(T)                                                          \
  RILL_REGISTER_KERNEL("RGBToHSV", DEVICE_GPU, "T", DataTypeToEnum<T>::value,      \
                       ColorGpu<ColorKind::kRgbToHsv, T>);                         \
  RILL_REGISTER_KERNEL("HSVToRGB", DEVICE_GPU, "T", DataTypeToEnum<T>::value,      \
                       ColorGpu<ColorKind::kHsvToRgb, T>);                         \
  RILL_REGISTER_KERNEL("_RGBToHSVGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       ColorGpu<ColorKind::kRgbToHsvGrad, T>);                     \
  RILL_REGISTER_KERNEL("_HSVToRGBGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       ColorGpu<ColorKind::kHsvToRgbGrad, T>);
RILL_REG_COLOR(float)
RILL_REG_COLOR(double)
#undef RILL_REG_COLOR

}  // namespace
}  // namespace rill::gpu
