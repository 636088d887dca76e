// GPU kernels of LRN and LRNGrad: core/lrn.h's checks, kernels/cuda/lrn.cu's arithmetic.
#include "rill/core/lrn.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, bool kGrad>
class LrnGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const LrnParams p, PrepareLrn(ctx, &out));
    const T* g = kGrad ? ctx.input(0).base<T>() : nullptr;
    const T* x = ctx.input(kGrad ? 1 : 0).base<T>();
    RILL_CUDA_CHECK(
        LaunchLrn<T>(g, x, out->base<T>(), out->NumElements(), p, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

#define RILL_REG_LRN(T)                                                                     \
  RILL_REGISTER_KERNEL("LRN", DEVICE_GPU, "T", DataTypeToEnum<T>::value, LrnGpu<T, false>); \
  RILL_REGISTER_KERNEL("LRNGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, LrnGpu<T, true>);
RILL_REG_LRN(float)
RILL_REG_LRN(double)
#undef RILL_REG_LRN

}  // namespace
}  // namespace rill::gpu
