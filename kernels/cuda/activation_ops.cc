// GPU kernels of Relu6, Elu, Selu, LeakyRelu and their gradient ops (float types; the
// integer Relu6 computes on the CPU).
#include "rill/core/kernel_util.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, PointActivation kAct>
class ActivationGpu : public OpKernel {
 public:
  explicit ActivationGpu(OpKernelConstruction& c)
      : OpKernel(c), alpha_(static_cast<T>(AlphaAttrOrZero(c))) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, x.shape(), &out));
    RILL_CUDA_CHECK((LaunchPointActivation<kAct, T>(x.base<T>(), out->base<T>(), alpha_,
                                                    x.NumElements(), ContextOf(ctx)->stream)));
    return absl::OkStatus();
  }

 private:
  T alpha_;
};

template <typename T, PointActivation kAct>
class ActivationGradGpu : public OpKernel {
 public:
  explicit ActivationGradGpu(OpKernelConstruction& c)
      : OpKernel(c), alpha_(static_cast<T>(AlphaAttrOrZero(c))) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(CheckSameShapes(ctx));
    const Tensor& g = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, g.shape(), &out));
    RILL_CUDA_CHECK(
        (LaunchPointActivationGrad<kAct, T>(g.base<T>(), ctx.input(1).base<T>(), out->base<T>(),
                                            alpha_, g.NumElements(), ContextOf(ctx)->stream)));
    return absl::OkStatus();
  }

 private:
  T alpha_;
};

#define RILL_REG_GPU_ACTIVATION(T, NAME, KIND)                                 \
  RILL_REGISTER_KERNEL(NAME, DEVICE_GPU, "T", DataTypeToEnum<T>::value,        \
                       ActivationGpu<T, PointActivation::KIND>);               \
  RILL_REGISTER_KERNEL(NAME "Grad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       ActivationGradGpu<T, PointActivation::KIND>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_ACTIVATION, "Relu6", kRelu6)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_ACTIVATION, "Elu", kElu)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_ACTIVATION, "Selu", kSelu)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_ACTIVATION, "LeakyRelu", kLeakyRelu)

}  // namespace
}  // namespace rill::gpu
