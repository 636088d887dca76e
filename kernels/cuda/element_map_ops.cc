// GPU kernels of ReverseSequence (the lengths read on the host, checked, then uploaded) and
// MatrixBandPart (the bounds read on the host): core/element_map.h's rules, run by
// kernels/cuda/element_map.cu.
#include "rill/core/rearrange_copy.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

class ReverseSequenceGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    Tensor lens;
    RILL_ASSIGN_OR_RETURN(ReverseSequenceMap map, PrepareReverseSequence(ctx, &out, &lens));
    if (out->NumElements() == 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(Tensor device_lens, UploadHostInput(ctx, lens, "seq_lengths"));
    map.lens = device_lens.base<int64_t>();
    RILL_CUDA_CHECK(LaunchElementMap(DataTypeSize(out->dtype()), ctx.input(0).data(), out->data(),
                                     out->NumElements(), map, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

class MatrixBandPartGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const BandMap map, PrepareMatrixBandPart(ctx, &out));
    if (out == nullptr) return absl::OkStatus();
    RILL_CUDA_CHECK(LaunchElementMap(DataTypeSize(out->dtype()), ctx.input(0).data(), out->data(),
                                     out->NumElements(), map, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL_HOST_INPUTS("ReverseSequence", DEVICE_GPU, "", DT_INVALID, {1},
                                 ReverseSequenceGpu);
RILL_REGISTER_KERNEL_HOST_INPUTS("MatrixBandPart", DEVICE_GPU, "", DT_INVALID,
                                 (std::vector<int>{1, 2}), MatrixBandPartGpu);

}  // namespace
}  // namespace rill::gpu
