// GPU kernels of the image resizes and their gradients (resize.cu): the tables are built on
// the host (core/resize.h, the CPU kernels' own) and uploaded with the work.
#include "rill/core/resize.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"
#include "rill/kernels/cuda/resize_launch.h"

namespace rill::gpu {
namespace {

struct DeviceTables {
  Tensor index, weight;
};
absl::StatusOr<DeviceTables> Upload(const OpKernelContext& ctx, const ResizeTables& r) {
  DeviceTables t;
  if (!r.index.IsInitialized()) return t;  // an empty output: nothing to read
  RILL_ASSIGN_OR_RETURN(t.index, UploadHostInput(ctx, r.index, "resize taps"));
  RILL_ASSIGN_OR_RETURN(t.weight, UploadHostInput(ctx, r.weight, "resize weights"));
  return t;
}
const int64_t* Index(const DeviceTables& t) {
  return t.index.IsInitialized() ? t.index.base<int64_t>() : nullptr;
}
const double* Weight(const DeviceTables& t) {
  return t.weight.IsInitialized() ? t.weight.base<double>() : nullptr;
}

template <typename T, typename U, ResizeMethod kMethod>
class ResizeGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const ResizeTables r, PrepareResize(ctx, kMethod, &out));
    RILL_ASSIGN_OR_RETURN(const DeviceTables t, Upload(ctx, r));
    RILL_CUDA_CHECK((LaunchResize<T, U>(kMethod == ResizeMethod::kNearest, r.dims, Index(t),
                                        Weight(t), ctx.input(0).base<T>(), out->base<U>(),
                                        out->NumElements(), ContextOf(ctx)->stream)));
    return absl::OkStatus();
  }
};

template <typename G, typename T, ResizeMethod kMethod>
class ResizeGradGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const ResizeTables r, PrepareResizeGrad(ctx, kMethod, &out));
    RILL_ASSIGN_OR_RETURN(const DeviceTables t, Upload(ctx, r));
    RILL_CUDA_CHECK(
        (LaunchResizeGrad<G, T>(r.dims, Index(t), Weight(t), ctx.input(0).base<G>(), out->base<T>(),
                                out->NumElements(), ContextOf(ctx)->stream)));
    return absl::OkStatus();
  }
};

#define RILL_REG_GPU_RESIZE(T, unused)                                                           \
  RILL_REGISTER_KERNEL_HOST_INPUTS("ResizeNearestNeighbor", DEVICE_GPU, "T",                     \
                                   DataTypeToEnum<T>::value, {1},                                \
                                   ResizeGpu<T, T, ResizeMethod::kNearest>);                     \
  RILL_REGISTER_KERNEL_HOST_INPUTS("ResizeBilinear", DEVICE_GPU, "T", DataTypeToEnum<T>::value,  \
                                   {1}, ResizeGpu<T, float, ResizeMethod::kBilinear>);           \
  RILL_REGISTER_KERNEL_HOST_INPUTS("ResizeBicubic", DEVICE_GPU, "T", DataTypeToEnum<T>::value,   \
                                   {1}, ResizeGpu<T, float, ResizeMethod::kBicubic>);            \
  RILL_REGISTER_KERNEL_HOST_INPUTS("ResizeArea", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1}, \
                                   ResizeGpu<T, float, ResizeMethod::kArea>);
RILL_FOR_GPU_NUMBER_TYPES(RILL_REG_GPU_RESIZE, 0)
#define RILL_REG_GPU_RESIZE_GRAD(T, unused)                                             \
  RILL_REGISTER_KERNEL_HOST_INPUTS("ResizeNearestNeighborGrad", DEVICE_GPU, "T",        \
                                   DataTypeToEnum<T>::value, {1},                       \
                                   ResizeGradGpu<T, T, ResizeMethod::kNearest>);        \
  RILL_REGISTER_KERNEL("ResizeBilinearGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       ResizeGradGpu<float, T, ResizeMethod::kBilinear>);               \
  RILL_REGISTER_KERNEL("ResizeBicubicGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value,  \
                       ResizeGradGpu<float, T, ResizeMethod::kBicubic>);                \
  RILL_REGISTER_KERNEL("_ResizeAreaGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value,    \
                       ResizeGradGpu<float, T, ResizeMethod::kArea>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_RESIZE_GRAD, 0)

}  // namespace
}  // namespace rill::gpu
