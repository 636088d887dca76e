// GPU kernel of Cross: core/cross.h's checks, kernels/cuda/cross.cu's arithmetic.
#include "rill/core/cross.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class CrossGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t vectors, PrepareCross(ctx, &out));
    RILL_CUDA_CHECK(LaunchCross<T>(ctx.input(0).base<T>(), ctx.input(1).base<T>(), out->base<T>(),
                                   vectors, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

#define RILL_REG_CROSS(T, unused) \
  RILL_REGISTER_KERNEL("Cross", DEVICE_GPU, "T", DataTypeToEnum<T>::value, CrossGpu<T>);
RILL_FOR_GPU_NUMBER_TYPES(RILL_REG_CROSS, _)
#undef RILL_REG_CROSS

}  // namespace
}  // namespace rill::gpu
