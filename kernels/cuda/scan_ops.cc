// GPU kernels of Cumsum and Cumprod (float, double, int64; the axis read on the host).
#include "rill/core/scan.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, bool kProd>
class ScanGpu : public OpKernel {
 public:
  explicit ScanGpu(OpKernelConstruction& c) : OpKernel(c), o_(ScanOptionsOf(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(ScanGeometry g, PrepareScan(ctx, &out));
    RILL_CUDA_CHECK(LaunchScan<T>(kProd, ctx.input(0).base<T>(), out->base<T>(), g.outer, g.n,
                                  g.inner, o_.exclusive, o_.reverse, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }

 private:
  ScanOptions o_;
};

#define RILL_REG_SCAN(T)                                                                      \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Cumsum", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1},  \
                                   ScanGpu<T, false>);                                        \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Cumprod", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1}, \
                                   ScanGpu<T, true>);
RILL_REG_SCAN(float)
RILL_REG_SCAN(double)
RILL_REG_SCAN(int64_t)
#undef RILL_REG_SCAN

}  // namespace
}  // namespace rill::gpu
