// CPU kernel of AdjustContrastv2: the per-image, per-channel sums in float64, then each
// element through core/adjust_contrast.h's ContrastAt (the GPU kernel's own).
#include <vector>

#include "rill/core/adjust_contrast.h"

namespace rill::cpu {
namespace {

template <typename T>
class AdjustContrastOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const ContrastDims d, PrepareContrast(ctx, &out));
    const T* x = ctx.input(0).base<T>();
    std::vector<double> sums(static_cast<size_t>(d.images * d.channels), 0.0);
    for (int64_t image = 0; image < d.images; ++image) {
      const T* px = x + image * d.pixels * d.channels;
      double* s = sums.data() + image * d.channels;
      for (int64_t p = 0; p < d.pixels; ++p) {
        for (int64_t c = 0; c < d.channels; ++c) s[c] += double(px[p * d.channels + c]);
      }
    }
    T* y = out->base<T>();
    for (int64_t i = 0; i < out->NumElements(); ++i) y[i] = ContrastAt(x, sums.data(), d, i);
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("AdjustContrastv2", DEVICE_CPU, "T", DT_FLOAT, AdjustContrastOp<float>);
RILL_REGISTER_KERNEL("AdjustContrastv2", DEVICE_CPU, "T", DT_DOUBLE, AdjustContrastOp<double>);

}  // namespace
}  // namespace rill::cpu
