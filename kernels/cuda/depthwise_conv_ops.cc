// GPU kernels of DepthwiseConv2dNative and its two gradients (depthwise_conv.cu), with the
// CPU kernels' argument checks (core/conv_kernel_util.h) and arithmetic (core/depthwise_row.h).
#include "rill/core/conv_kernel_util.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, ConvMode kMode>
class DepthwiseGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PrepareConv2D(ctx, kMode, &out, /*depthwise=*/true));
    if (out->NumElements() == 0) return absl::OkStatus();
    constexpr auto kPass = static_cast<DepthwisePass>(kMode);
    const Tensor &a = ConvOperandA(ctx, kMode), &b = ConvOperandB(ctx, kMode);
    RILL_CUDA_CHECK(LaunchDepthwise<T>(kPass, DepthwiseDimsOf(g), a.base<T>(), b.base<T>(),
                                       out->base<T>(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// input_sizes and filter_sizes are read on the host, as Conv2D's.
#define RILL_REG_DEPTHWISE_GPU(T)                                                          \
  RILL_REGISTER_KERNEL("DepthwiseConv2dNative", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       DepthwiseGpu<T, ConvMode::kForward>);                               \
  RILL_REGISTER_KERNEL_HOST_INPUTS("DepthwiseConv2dNativeBackpropInput", DEVICE_GPU, "T",  \
                                   DataTypeToEnum<T>::value, {0},                          \
                                   DepthwiseGpu<T, ConvMode::kBackpropInput>);             \
  RILL_REGISTER_KERNEL_HOST_INPUTS("DepthwiseConv2dNativeBackpropFilter", DEVICE_GPU, "T", \
                                   DataTypeToEnum<T>::value, {1},                          \
                                   DepthwiseGpu<T, ConvMode::kBackpropFilter>);
RILL_REG_DEPTHWISE_GPU(float)
RILL_REG_DEPTHWISE_GPU(double)

}  // namespace
}  // namespace rill::gpu
