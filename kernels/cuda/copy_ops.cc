// GPU kernels of Transpose, Slice, Pad and BroadcastTo: the strided copy planned by
// core/strided_copy.h (the CPU kernels' checks), run by copy.cu on the device's stream.
// perm, begin, size, paddings and shape are read on the host.
#include "rill/core/strided_copy.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <absl::StatusOr<CopyJob> (*kPrepare)(OpKernelContext&)>
class StridedCopyGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(CopyJob job, kPrepare(ctx));
    if (job.done) return absl::OkStatus();
    cudaStream_t stream = ContextOf(ctx)->stream;
    if (job.zero_fill && job.out->TotalBytes() > 0) {
      RILL_CUDA_CHECK(cudaMemsetAsync(job.out->data(), 0, job.out->TotalBytes(), stream));
    }
    StridedCopyDims c{};
    c.rank = job.copy.rank;
    for (int d = 0; d < c.rank; ++d) {
      c.dims[d] = job.copy.dims[d];
      c.src_strides[d] = job.copy.src_strides[d];
      c.dst_strides[d] = job.copy.dst_strides[d];
    }
    c.src_base = job.copy.src_base;
    c.dst_base = job.copy.dst_base;
    RILL_CUDA_CHECK(LaunchStridedCopy(c, job.copy.num_elements(),
                                      DataTypeSize(ctx.input(0).dtype()), ctx.input(0).data(),
                                      job.out->data(), stream));
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL_HOST_INPUTS("Transpose", DEVICE_GPU, "", DT_INVALID, {1},
                                 StridedCopyGpu<PrepareTranspose>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Slice", DEVICE_GPU, "", DT_INVALID, (std::vector<int>{1, 2}),
                                 StridedCopyGpu<PrepareSlice>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Pad", DEVICE_GPU, "", DT_INVALID, {1},
                                 StridedCopyGpu<PreparePad>);
RILL_REGISTER_KERNEL_HOST_INPUTS("BroadcastTo", DEVICE_GPU, "", DT_INVALID, {1},
                                 StridedCopyGpu<PrepareBroadcastTo>);

}  // namespace
}  // namespace rill::gpu
