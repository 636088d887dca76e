// GPU kernels of CropAndResize and its gradients (crop_resize.cu), with the CPU kernels'
// checks (core/crop_resize.h): box_ind and the sizes are read on the host, box_ind then
// uploaded with the work.
#include "rill/core/crop_resize.h"
#include "rill/kernels/cuda/crop_resize_launch.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class CropAndResizeGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const CropDims d, PrepareCropAndResize(ctx, &out));
    RILL_ASSIGN_OR_RETURN(Tensor ind, UploadHostInput(ctx, ctx.input(2), "box_ind"));
    RILL_CUDA_CHECK(LaunchCropAndResize<T>(d, ctx.input(0).base<T>(), ctx.input(1).base<float>(),
                                           ind.base<int32_t>(), out->base<float>(),
                                           out->NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T>
class CropGradImageGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const CropDims d, PrepareCropGradImage(ctx, &out));
    RILL_ASSIGN_OR_RETURN(Tensor ind, UploadHostInput(ctx, ctx.input(2), "box_ind"));
    RILL_CUDA_CHECK(LaunchCropGradImage<T>(
        d, ctx.input(0).base<float>(), ctx.input(1).base<float>(), ind.base<int32_t>(),
        out->base<T>(), ctx.input(0).NumElements(), out->NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T>
class CropGradBoxesGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const CropDims d, PrepareCropGradBoxes(ctx, &out));
    RILL_ASSIGN_OR_RETURN(Tensor ind, UploadHostInput(ctx, ctx.input(3), "box_ind"));
    RILL_CUDA_CHECK(LaunchCropGradBoxes<T>(d, ctx.input(0).base<float>(), ctx.input(1).base<T>(),
                                           ctx.input(2).base<float>(), ind.base<int32_t>(),
                                           out->base<float>(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

#define RILL_REG_GPU_CROP(T, unused)                                                           \
  RILL_REGISTER_KERNEL_HOST_INPUTS("CropAndResize", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                                   (std::vector<int>{2, 3}), CropAndResizeGpu<T>);             \
  RILL_REGISTER_KERNEL_HOST_INPUTS("CropAndResizeGradBoxes", DEVICE_GPU, "T",                  \
                                   DataTypeToEnum<T>::value, {3}, CropGradBoxesGpu<T>);
RILL_FOR_GPU_NUMBER_TYPES(RILL_REG_GPU_CROP, 0)
#define RILL_REG_GPU_CROP_GRAD_IMAGE(T, unused)                                        \
  RILL_REGISTER_KERNEL_HOST_INPUTS("CropAndResizeGradImage", DEVICE_GPU, "T",          \
                                   DataTypeToEnum<T>::value, (std::vector<int>{2, 3}), \
                                   CropGradImageGpu<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_CROP_GRAD_IMAGE, 0)

}  // namespace
}  // namespace rill::gpu
