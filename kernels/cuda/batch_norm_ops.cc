// GPU kernels of FusedBatchNorm (V1 float; V2, V3 float and double; either layout) and its
// gradient ops:
// batch_norm.cu. Outputs and their meaning are the CPU kernels' (kernels/cpu/
// batch_norm_ops.cc): reserve_space_1/_2 hold the mean and variance y was normalized with.
#include <limits>

#include "rill/core/batch_norm.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class FusedBatchNormGpu : public OpKernel {
 public:
  explicit FusedBatchNormGpu(OpKernelConstruction& c)
      : OpKernel(c), a_(BatchNormAttrsOf(c.node().attrs())) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out[6];
    RILL_ASSIGN_OR_RETURN(const BatchNormGeometry g, PrepareBatchNorm(ctx, a_, out));
    cudaStream_t stream = ContextOf(ctx)->stream;
    if (out[5] != nullptr) {  // reserve_space_3 (V3 only)
      RILL_CUDA_CHECK(LaunchFillConstant<T>(T(0), out[5]->base<T>(), 1, stream));
    }
    const int64_t n = g.PerChannel();
    if (n == 0) {  // no values: no statistics (TensorFlow's NaN)
      for (int i = 1; i < 5; ++i) {
        RILL_CUDA_CHECK(LaunchFillConstant<T>(std::numeric_limits<T>::quiet_NaN(),
                                              out[i]->base<T>(), g.channels, stream));
      }
      return absl::OkStatus();
    }
    const T* x = ctx.input(0).base<T>();
    const T *mean_in = ctx.input(3).base<T>(), *var_in = ctx.input(4).base<T>();
    T *mean = out[3]->base<T>(), *var = out[4]->base<T>();
    const size_t bytes = g.channels * sizeof(T);
    if (a_.is_training) {
      RILL_CUDA_CHECK(LaunchBatchNormMoments<T>(x, mean, var, g, stream));
      const bool blend = a_.exponential_avg_factor != 1.0f;
      RILL_CUDA_CHECK(LaunchBatchNormRunning<T>(mean, var, n, T(a_.exponential_avg_factor), mean_in,
                                                var_in, blend, out[1]->base<T>(), out[2]->base<T>(),
                                                g.channels, stream));
    } else {
      for (T* to : {mean, out[1]->base<T>()}) {
        RILL_CUDA_CHECK(cudaMemcpyAsync(to, mean_in, bytes, cudaMemcpyDeviceToDevice, stream));
      }
      for (T* to : {var, out[2]->base<T>()}) {
        RILL_CUDA_CHECK(cudaMemcpyAsync(to, var_in, bytes, cudaMemcpyDeviceToDevice, stream));
      }
    }
    RILL_CUDA_CHECK(LaunchBatchNormForward<T>(x, ctx.input(1).base<T>(), ctx.input(2).base<T>(),
                                              mean, var, T(a_.epsilon), out[0]->base<T>(), g,
                                              stream));
    return absl::OkStatus();
  }

 private:
  BatchNormAttrs a_;
};

template <typename T>
class FusedBatchNormGradGpu : public OpKernel {
 public:
  explicit FusedBatchNormGradGpu(OpKernelConstruction& c)
      : OpKernel(c), a_(BatchNormAttrsOf(c.node().attrs())) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out[5];
    RILL_ASSIGN_OR_RETURN(const BatchNormGeometry g, PrepareBatchNormGrad(ctx, a_, out));
    cudaStream_t stream = ContextOf(ctx)->stream;
    const T *dy = ctx.input(0).base<T>(), *x = ctx.input(1).base<T>();
    const T *mean = ctx.input(3).base<T>(), *var = ctx.input(4).base<T>();
    T *scale_bp = out[1]->base<T>(), *offset_bp = out[2]->base<T>();
    RILL_CUDA_CHECK(LaunchBatchNormGradSums<T>(dy, x, mean, var, T(a_.epsilon), scale_bp, offset_bp,
                                               g, stream));
    RILL_CUDA_CHECK(LaunchBatchNormBackprop<T>(dy, x, ctx.input(2).base<T>(), mean, var,
                                               T(a_.epsilon), scale_bp, offset_bp, a_.is_training,
                                               out[0]->base<T>(), g, stream));
    return absl::OkStatus();
  }

 private:
  BatchNormAttrs a_;
};

#define RILL_REG_BATCH_NORM(T, version)                                                         \
  RILL_REGISTER_KERNEL("FusedBatchNorm" version, DEVICE_GPU, "T", DataTypeToEnum<T>::value,     \
                       FusedBatchNormGpu<T>);                                                   \
  RILL_REGISTER_KERNEL("FusedBatchNormGrad" version, DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       FusedBatchNormGradGpu<T>);
RILL_REG_BATCH_NORM(float, "")
RILL_REG_BATCH_NORM(float, "V2")
RILL_REG_BATCH_NORM(double, "V2")
RILL_REG_BATCH_NORM(float, "V3")
RILL_REG_BATCH_NORM(double, "V3")
#undef RILL_REG_BATCH_NORM

}  // namespace
}  // namespace rill::gpu
