// _RankShare's GPU kernel (runtime/dist/rank_share.h).
#include <cuda_runtime.h>

#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"
#include "rill/runtime/dist/rank_share.h"

namespace rill::dist {
namespace {

template <typename T>
struct DivideOnGpu {
  absl::Status operator()(OpKernelContext& ctx, const Tensor& x, Tensor& y, int ranks) const {
    cudaStream_t stream = gpu::ContextOf(ctx)->stream;
    if (y.data() != x.data() && x.TotalBytes() > 0) {
      RILL_CUDA_CHECK(
          cudaMemcpyAsync(y.data(), x.data(), x.TotalBytes(), cudaMemcpyDeviceToDevice, stream));
    }
    RILL_CUDA_CHECK(gpu::LaunchScale<T>(y.base<T>(), T(1), ranks, x.NumElements(), stream));
    return absl::OkStatus();
  }
};

#define RILL_REGISTER_RANK_SHARE_GPU(T, unused)                                 \
  RILL_REGISTER_KERNEL("_RankShare", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       RankShareKernel<DivideOnGpu<T>>);
RILL_FOR_FLOAT_TYPES(RILL_REGISTER_RANK_SHARE_GPU, unused)

}  // namespace
}  // namespace rill::dist
