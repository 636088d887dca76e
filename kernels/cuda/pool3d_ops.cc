// GPU kernels of MaxPool3D, AvgPool3D and their gradients (pool3d.cu), with the CPU
// kernels' argument checks (core/pool3d.h) and values.
#include "rill/core/pool3d.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, bool kMax>
class Pool3DGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const Pool3DDims g, PreparePool3D(ctx, &out));
    RILL_CUDA_CHECK(LaunchPool3D<T>(kMax, g, ctx.input(0).base<T>(), out->base<T>(),
                                    out->NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T>
class MaxPool3DGradGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const Pool3DDims g, PrepareMaxPool3DGrad(ctx, &out));
    const Tensor& dy = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(Tensor argmax, Tensor::Create(DT_INT64, TensorShape({dy.NumElements()}),
                                                        ctx.device()->allocator()));
    RILL_CUDA_CHECK(LaunchMaxPool3DGrad<T>(g, ctx.input(0).base<T>(), dy.base<T>(),
                                           argmax.base<int64_t>(), out->base<T>(), dy.NumElements(),
                                           out->NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T>
class AvgPool3DGradGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const Pool3DDims g, PrepareAvgPool3DGrad(ctx, &out));
    RILL_CUDA_CHECK(LaunchAvgPool3DGrad<T>(g, ctx.input(1).base<T>(), out->base<T>(),
                                           out->NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

#define RILL_REG_GPU_POOL3D(T, unused)                                                         \
  RILL_REGISTER_KERNEL("MaxPool3D", DEVICE_GPU, "T", DataTypeToEnum<T>::value,                 \
                       Pool3DGpu<T, true>);                                                    \
  RILL_REGISTER_KERNEL("AvgPool3D", DEVICE_GPU, "T", DataTypeToEnum<T>::value,                 \
                       Pool3DGpu<T, false>);                                                   \
  RILL_REGISTER_KERNEL("MaxPool3DGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value,             \
                       MaxPool3DGradGpu<T>);                                                   \
  RILL_REGISTER_KERNEL_HOST_INPUTS("AvgPool3DGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                                   {0}, AvgPool3DGradGpu<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_POOL3D, 0)

}  // namespace
}  // namespace rill::gpu
