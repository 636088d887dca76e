// GPU kernels of Conv3D and its two gradients (conv3d.cu), with the CPU kernels' argument
// checks (core/conv3d.h). Direct kernels, one thread per value: correct for every
// geometry (groups, dilations, SAME's odd padding), not cuDNN's speed.
#include "rill/core/conv3d.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, ConvMode kMode>
class Conv3DGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv3DDims g, PrepareConv3D(ctx, kMode, &out));
    if (out->NumElements() == 0) return absl::OkStatus();
    constexpr auto kPass = static_cast<DepthwisePass>(kMode);
    const Tensor &a = ConvOperandA(ctx, kMode), &b = ConvOperandB(ctx, kMode);
    RILL_CUDA_CHECK(LaunchConv3D<T>(kPass, g, a.base<T>(), b.base<T>(), out->base<T>(),
                                    out->NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// input_sizes and filter_sizes are read on the host.
#define RILL_REG_CONV3D_GPU(T)                                                \
  RILL_REGISTER_KERNEL("Conv3D", DEVICE_GPU, "T", DataTypeToEnum<T>::value,   \
                       Conv3DGpu<T, ConvMode::kForward>);                     \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Conv3DBackpropInputV2", DEVICE_GPU, "T",  \
                                   DataTypeToEnum<T>::value, {0},             \
                                   Conv3DGpu<T, ConvMode::kBackpropInput>);   \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Conv3DBackpropFilterV2", DEVICE_GPU, "T", \
                                   DataTypeToEnum<T>::value, {1},             \
                                   Conv3DGpu<T, ConvMode::kBackpropFilter>);
RILL_REG_CONV3D_GPU(float)
RILL_REG_CONV3D_GPU(double)

}  // namespace
}  // namespace rill::gpu
