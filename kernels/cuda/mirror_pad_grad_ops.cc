// GPU kernel of MirrorPadGrad (float, double, int64; paddings read on the host): the checks
// of core/rearrange_copy.h, the sum of kernels/cuda/mirror_pad_grad.cu.
#include "rill/core/rearrange_copy.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class MirrorPadGradGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const MirrorFold f, PrepareMirrorPadGrad(ctx, &out));
    RILL_CUDA_CHECK(LaunchMirrorPadGrad<T>(ctx.input(0).base<T>(), f, out->base<T>(),
                                           out->NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

#define RILL_REG_MIRROR_PAD_GRAD(T)                                                            \
  RILL_REGISTER_KERNEL_HOST_INPUTS("MirrorPadGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                                   {1}, MirrorPadGradGpu<T>);
RILL_REG_MIRROR_PAD_GRAD(float)
RILL_REG_MIRROR_PAD_GRAD(double)
RILL_REG_MIRROR_PAD_GRAD(int64_t)
#undef RILL_REG_MIRROR_PAD_GRAD

}  // namespace
}  // namespace rill::gpu
