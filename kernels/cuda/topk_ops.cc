// TopKV2 on the GPU (float, double, int64; k read on the host): topk.cu.
#include "rill/core/topk_prepare.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class TopKGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor *values, *indices;
    RILL_ASSIGN_OR_RETURN(TopKGeometry g, PrepareTopK(ctx, &values, &indices));
    RILL_CUDA_CHECK(LaunchTopK<T>(ctx.input(0).base<T>(), values->base<T>(),
                                  indices->base<int32_t>(), g.rows, g.n, g.k,
                                  ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL_HOST_INPUTS("TopKV2", DEVICE_GPU, "T", DT_FLOAT, {1}, TopKGpu<float>);
RILL_REGISTER_KERNEL_HOST_INPUTS("TopKV2", DEVICE_GPU, "T", DT_DOUBLE, {1}, TopKGpu<double>);
RILL_REGISTER_KERNEL_HOST_INPUTS("TopKV2", DEVICE_GPU, "T", DT_INT64, {1}, TopKGpu<int64_t>);

}  // namespace
}  // namespace rill::gpu
