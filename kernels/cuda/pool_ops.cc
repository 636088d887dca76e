// GPU kernels of MaxPool (and MaxPoolV2), AvgPool, their gradients, BiasAdd and BiasAddGrad
// (pool.cu), with the CPU kernels' argument checks (core/conv_kernel_util.h) and semantics.
#include "rill/core/conv_kernel_util.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

WindowDims DimsOf(const Conv2DGeometry& g) {
  return {g.batch,    g.in_h,     g.in_w,  g.in_c,  g.k_h,     g.k_w,
          g.stride_h, g.stride_w, g.out_h, g.out_w, g.pad_top, g.pad_left};
}

// kWindow >= 0: ksize and strides are host inputs (MaxPoolV2, MaxPoolGradV2).
template <typename T, bool kMax, int kWindow = -1>
class PoolGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PreparePool(ctx, &out, kWindow));
    RILL_CUDA_CHECK(LaunchPool<T>(kMax, DimsOf(g), ctx.input(0).base<T>(), out->base<T>(),
                                  ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T, int kWindow = -1>
class MaxPoolGradGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PrepareMaxPoolGrad(ctx, &out, kWindow));
    RILL_CUDA_CHECK(LaunchMaxPoolGrad<T>(DimsOf(g), ctx.input(0).base<T>(), ctx.input(2).base<T>(),
                                         out->base<T>(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T>
class AvgPoolGradGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PrepareAvgPoolGrad(ctx, &out));
    RILL_CUDA_CHECK(LaunchAvgPoolGrad<T>(DimsOf(g), ctx.input(1).base<T>(), out->base<T>(),
                                         ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T>
class BiasAddGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t c, PrepareBiasAdd(ctx, &out));
    RILL_CUDA_CHECK(LaunchBiasAdd<T>(ctx.input(0).base<T>(), ctx.input(1).base<T>(), out->base<T>(),
                                     out->NumElements(), c, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// The sum over every dim but the last: a [1, rows, channels] reduction.
template <typename T>
class BiasAddGradGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const BiasGradGeometry g, PrepareBiasAddGrad(ctx, &out));
    cudaStream_t stream = ContextOf(ctx)->stream;
    if (g.channels == 0) return absl::OkStatus();
    if (g.rows == 0) {
      RILL_CUDA_CHECK(LaunchFillConstant<T>(T(0), out->base<T>(), g.channels, stream));
    } else {
      Tensor scratch;  // many rows over few channels: the chunked reduction
      if (const int64_t e = ReduceScratchElements(g.channels, g.rows); e > 0) {
        RILL_ASSIGN_OR_RETURN(
            scratch, Tensor::Create(out->dtype(), TensorShape({e}), ctx.device()->allocator()));
      }
      RILL_CUDA_CHECK(LaunchReduce<T>(
          ReduceKind::kSum, ctx.input(0).base<T>(), out->base<T>(), 1, g.rows, g.channels,
          scratch.IsInitialized() ? scratch.base<T>() : nullptr, stream));
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_GPU_POOL(T, unused)                                                              \
  RILL_REGISTER_KERNEL("MaxPool", DEVICE_GPU, "T", DataTypeToEnum<T>::value, PoolGpu<T, true>);   \
  RILL_REGISTER_KERNEL("AvgPool", DEVICE_GPU, "T", DataTypeToEnum<T>::value, PoolGpu<T, false>);  \
  RILL_REGISTER_KERNEL("MaxPoolGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value,                  \
                       MaxPoolGradGpu<T>);                                                        \
  RILL_REGISTER_KERNEL_HOST_INPUTS("AvgPoolGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {0}, \
                                   AvgPoolGradGpu<T>);                                            \
  RILL_REGISTER_KERNEL_HOST_INPUTS("MaxPoolV2", DEVICE_GPU, "T", DataTypeToEnum<T>::value,        \
                                   ({1, 2}), PoolGpu<T, true, 1>);                                \
  RILL_REGISTER_KERNEL_HOST_INPUTS("MaxPoolGradV2", DEVICE_GPU, "T", DataTypeToEnum<T>::value,    \
                                   ({3, 4}), MaxPoolGradGpu<T, 3>);                               \
  RILL_REGISTER_KERNEL("BiasAdd", DEVICE_GPU, "T", DataTypeToEnum<T>::value, BiasAddGpu<T>);      \
  RILL_REGISTER_KERNEL("BiasAddGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, BiasAddGradGpu<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_POOL, 0)

}  // namespace
}  // namespace rill::gpu
