// CPU kernels of RGBToHSV, HSVToRGB and their gradients: each pixel through
// core/colorspace_row.h (the GPU kernels' own formulas).
#include "rill/core/colorspace.h"

namespace rill::cpu {
namespace {

template <ColorKind K, typename T>
class ColorOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t pixels, PrepareColor(ctx, &out));
    const T* x = ctx.input(0).base<T>();
    const T* dy = ctx.num_inputs() == 2 ? ctx.input(1).base<T>() : nullptr;
    T* y = out->base<T>();
    for (int64_t p = 0; p < pixels; ++p) ColorPixel<K, T>(x, dy, y, p);
    return absl::OkStatus();
  }
};

#define RILL_REG_COLOR(T, unused)                                                  \
  RILL_REGISTER_KERNEL("RGBToHSV", DEVICE_CPU, "T", DataTypeToEnum<T>::value,      \
                       ColorOp<ColorKind::kRgbToHsv, T>);                          \
  RILL_REGISTER_KERNEL("HSVToRGB", DEVICE_CPU, "T", DataTypeToEnum<T>::value,      \
                       ColorOp<ColorKind::kHsvToRgb, T>);                          \
  RILL_REGISTER_KERNEL("_RGBToHSVGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ColorOp<ColorKind::kRgbToHsvGrad, T>);                      \
  RILL_REGISTER_KERNEL("_HSVToRGBGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ColorOp<ColorKind::kHsvToRgbGrad, T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_COLOR, _)
#undef RILL_REG_COLOR

}  // namespace
}  // namespace rill::cpu
