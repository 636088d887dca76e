// GPU kernels of Keras's accuracy (_Accuracy) and of a full Mean's gradient (_MeanAllGrad),
// with the CPU kernels' argument checks (core/kernel_util.h); arithmetic in metrics.cu.
#include "rill/core/kernel_util.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

// The labels' type is dispatched at run time (float, double, int32 or int64).
template <typename T>
class AccuracyGpu : public OpKernel {
 public:
  explicit AccuracyGpu(OpKernelConstruction& c) : OpKernel(c), kind_(AccuracyKindOf(c)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(AccuracyGeometry g, PrepareAccuracy(ctx, kind_, &out));
    const Tensor& l = ctx.input(1);
    auto launch = [&](const auto* labels) {
      return LaunchAccuracy(static_cast<int>(kind_), ctx.input(0).base<T>(), labels, g.examples,
                            g.classes, out->base<float>(), ContextOf(ctx)->stream);
    };
    cudaError_t e = cudaSuccess;
    switch (l.dtype()) {
      case DT_FLOAT:
        e = launch(l.base<float>());
        break;
      case DT_DOUBLE:
        e = launch(l.base<double>());
        break;
      case DT_INT32:
        e = launch(l.base<int32_t>());
        break;
      case DT_INT64:
        e = launch(l.base<int64_t>());
        break;
      default:
        return errors::InvalidArgument("labels of type ", DataTypeString(l.dtype()));
    }
    RILL_CUDA_CHECK(e);
    return absl::OkStatus();
  }

 private:
  AccuracyKind kind_;
};

// The shape (input 1) is read on the host.
template <typename T>
class MeanAllGradGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_RETURN_IF_ERROR(PrepareMeanAllGrad(ctx, &out));
    RILL_CUDA_CHECK(LaunchMeanAllGrad<T>(ctx.input(0).base<T>(), static_cast<T>(out->NumElements()),
                                         out->base<T>(), out->NumElements(),
                                         ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

#define RILL_REGISTER_METRIC_GPU(T)                                                                \
  RILL_REGISTER_KERNEL("_Accuracy", DEVICE_GPU, "T", DataTypeToEnum<T>::value, AccuracyGpu<T>);    \
  RILL_REGISTER_KERNEL_HOST_INPUTS("_MeanAllGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1}, \
                                   MeanAllGradGpu<T>);
RILL_REGISTER_METRIC_GPU(float)
RILL_REGISTER_METRIC_GPU(double)

}  // namespace
}  // namespace rill::gpu
