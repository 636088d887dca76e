// GPU kernels of _BiasActivation and _BiasActivationGrad (bias_activation.cu), with the CPU
// kernels' argument checks (core/conv_kernel_util.h).
#include "rill/core/conv_kernel_util.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/gpu_context.h"

namespace rill::gpu {
namespace {

FusedActivation ActivationOf(OpKernelConstruction& c) {
  return ParseFusedActivation(c.node().attr<std::string>("activation"));
}

template <typename T>
class BiasActivationGpu : public OpKernel {
 public:
  explicit BiasActivationGpu(OpKernelConstruction& c) : OpKernel(c), act_(ActivationOf(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t c, PrepareBiasAdd(ctx, &out));
    RILL_CUDA_CHECK(LaunchBiasActivation<T>(act_, ctx.input(0).base<T>(), ctx.input(1).base<T>(),
                                            out->base<T>(), out->NumElements(), c,
                                            ContextOf(ctx)->stream));
    return absl::OkStatus();
  }

 private:
  FusedActivation act_;
};

template <typename T>
class BiasActivationGradGpu : public OpKernel {
 public:
  explicit BiasActivationGradGpu(OpKernelConstruction& c) : OpKernel(c), act_(ActivationOf(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor *dz, *db;
    RILL_ASSIGN_OR_RETURN(const BiasGradGeometry g, PrepareBiasActivationGrad(ctx, &dz, &db));
    Tensor scratch;
    if (const int64_t e = BiasActivationGradScratch(g.rows, g.channels); e > 0) {
      RILL_ASSIGN_OR_RETURN(
          scratch, Tensor::Create(db->dtype(), TensorShape({e}), ctx.device()->allocator()));
    }
    RILL_CUDA_CHECK(LaunchBiasActivationGrad<T>(
        act_, ctx.input(0).base<T>(), ctx.input(1).base<T>(), dz->base<T>(), db->base<T>(),
        scratch.IsInitialized() ? scratch.base<T>() : nullptr, g.rows, g.channels,
        ContextOf(ctx)->stream));
    return absl::OkStatus();
  }

 private:
  FusedActivation act_;
};

#define RILL_REG_GPU_BIAS_ACT(T, unused)                                                 \
  RILL_REGISTER_KERNEL("_BiasActivation", DEVICE_GPU, "T", DataTypeToEnum<T>::value,     \
                       BiasActivationGpu<T>);                                            \
  RILL_REGISTER_KERNEL("_BiasActivationGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       BiasActivationGradGpu<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BIAS_ACT, 0)

}  // namespace
}  // namespace rill::gpu
