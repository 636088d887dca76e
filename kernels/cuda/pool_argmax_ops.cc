// GPU kernel of MaxPoolWithArgmax (pool_argmax.cu), with the CPU kernel's checks
// (core/conv_kernel_util.h). MaxPoolGradWithArgmax has a CPU kernel only: it checks every
// argmax it is given, which the CPU does in the same pass as the sums.
#include "rill/core/conv_kernel_util.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class MaxPoolWithArgmaxGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor *out, *argmax;
    RILL_ASSIGN_OR_RETURN(ArgmaxPoolDims d, PrepareMaxPoolWithArgmax(ctx, &out, &argmax));
    const T* x = ctx.input(0).base<T>();
    cudaStream_t stream = ContextOf(ctx)->stream;
    const cudaError_t err =
        argmax->dtype() == DT_INT32
            ? LaunchMaxPoolWithArgmax(d, x, out->base<T>(), argmax->base<int32_t>(),
                                      out->NumElements(), stream)
            : LaunchMaxPoolWithArgmax(d, x, out->base<T>(), argmax->base<int64_t>(),
                                      out->NumElements(), stream);
    RILL_CUDA_CHECK(err);
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("MaxPoolWithArgmax", DEVICE_GPU, "T", DT_FLOAT, MaxPoolWithArgmaxGpu<float>);
RILL_REGISTER_KERNEL("MaxPoolWithArgmax", DEVICE_GPU, "T", DT_DOUBLE, MaxPoolWithArgmaxGpu<double>);

}  // namespace
}  // namespace rill::gpu
