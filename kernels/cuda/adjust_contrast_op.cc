// GPU kernel of AdjustContrastv2: core/adjust_contrast.h's checks (contrast_factor read on
// the host), the per-image, per-channel sums by LaunchReduce, then
// kernels/cuda/adjust_contrast.cu's elements.
#include "rill/core/adjust_contrast.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class AdjustContrastGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const ContrastDims d, PrepareContrast(ctx, &out));
    const int64_t n = out->NumElements();
    if (n == 0) return absl::OkStatus();
    Allocator* a = ctx.device()->allocator();
    const DataType dt = DataTypeToEnum<T>::value;
    RILL_ASSIGN_OR_RETURN(Tensor sums, Tensor::Create(dt, TensorShape({d.images * d.channels}), a));
    Tensor scratch;
    if (const int64_t e = ReduceScratchElements(d.images * d.channels, d.pixels); e > 0) {
      RILL_ASSIGN_OR_RETURN(scratch, Tensor::Create(dt, TensorShape({e}), a));
    }
    cudaStream_t stream = ContextOf(ctx)->stream;
    const T* x = ctx.input(0).base<T>();
    RILL_CUDA_CHECK(LaunchReduce<T>(ReduceKind::kSum, x, sums.base<T>(), d.images, d.pixels,
                                    d.channels,
                                    scratch.IsInitialized() ? scratch.base<T>() : nullptr, stream));
    RILL_CUDA_CHECK(LaunchContrast<T>(x, sums.base<T>(), d, out->base<T>(), n, stream));
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL_HOST_INPUTS("AdjustContrastv2", DEVICE_GPU, "T", DT_FLOAT, {1},
                                 AdjustContrastGpu<float>);
RILL_REGISTER_KERNEL_HOST_INPUTS("AdjustContrastv2", DEVICE_GPU, "T", DT_DOUBLE, {1},
                                 AdjustContrastGpu<double>);

}  // namespace
}  // namespace rill::gpu
