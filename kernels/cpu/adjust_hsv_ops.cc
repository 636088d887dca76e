// CPU kernels of AdjustHue and AdjustSaturation: each pixel through core/colorspace_row.h's
// AdjustHsvPixel (core/adjust_hsv.h checks the inputs).
#include "rill/core/adjust_hsv.h"

namespace rill::cpu {
namespace {

template <typename T, bool kHue>
class AdjustHsvOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return AdjustHsv<T>(ctx, kHue); }
};

#define RILL_REG_ADJUST_HSV(T, unused)                                                \
  RILL_REGISTER_KERNEL("AdjustHue", DEVICE_CPU, "T", DataTypeToEnum<T>::value,        \
                       AdjustHsvOp<T, true>);                                         \
  RILL_REGISTER_KERNEL("AdjustSaturation", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       AdjustHsvOp<T, false>);
RILL_FOR_FLOAT_TYPES(RILL_REG_ADJUST_HSV, _)
#undef RILL_REG_ADJUST_HSV

}  // namespace
}  // namespace rill::cpu
