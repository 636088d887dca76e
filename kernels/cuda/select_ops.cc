// GPU kernels of Range and LinSpace (their scalars read on the host; int32 Range stays a
// host-memory kernel, as TensorFlow's), Select and SelectV2 (select.cu, every dtype by element
// size) and Where (a host-memory kernel: its output's length is the count of true elements, which
// the host needs before it can allocate).
#include "rill/core/range.h"
#include "rill/core/select.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class RangeGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateRange(ctx));
    RILL_CUDA_CHECK(LaunchRange<T>(*ctx.input(0).base<T>(), *ctx.input(2).base<T>(), out->base<T>(),
                                   out->NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// LinSpace: Range's kernel with the step from the ends, then stop itself as the last value
// (start, stop and num read on the host).
template <typename T>
class LinSpaceGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateLinSpace(ctx));
    const T start = *ctx.input(0).base<T>(), stop = *ctx.input(1).base<T>();
    const int64_t num = out->NumElements();
    cudaStream_t stream = ContextOf(ctx)->stream;
    RILL_CUDA_CHECK(
        LaunchRange<T>(start, LinSpaceStep(start, stop, num), out->base<T>(), num - 1, stream));
    // The last value as a one-element Range, passed by value: no host buffer that must
    // outlive an asynchronous copy.
    RILL_CUDA_CHECK(
        LaunchRange<T>(num > 1 ? stop : start, T(0), out->base<T>() + num - 1, 1, stream));
    return absl::OkStatus();
  }
};

// int32 Range computes on the host into host memory.
class RangeInt32Host : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return RangeOnHost<int32_t>(ctx); }
};

template <bool kV2>
class SelectGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(SelectPlan p, PrepareSelect(ctx, kV2, &out));
    RILL_CUDA_CHECK(LaunchSelect(p, out->NumElements(), DataTypeSize(out->dtype()),
                                 ctx.input(0).base<bool>(), ctx.input(1).data(),
                                 ctx.input(2).data(), out->data(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

class WhereHost : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return ComputeWhere(ctx); }
};

#define RILL_RANGE_INPUTS (std::vector<int>{0, 1, 2})
RILL_REGISTER_KERNEL_HOST_INPUTS("Range", DEVICE_GPU, "Tidx", DT_FLOAT, RILL_RANGE_INPUTS,
                                 RangeGpu<float>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Range", DEVICE_GPU, "Tidx", DT_DOUBLE, RILL_RANGE_INPUTS,
                                 RangeGpu<double>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Range", DEVICE_GPU, "Tidx", DT_INT64, RILL_RANGE_INPUTS,
                                 RangeGpu<int64_t>);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("Range", DEVICE_GPU, "Tidx", DT_INT32, RILL_RANGE_INPUTS,
                                  RangeInt32Host);
RILL_REGISTER_KERNEL_HOST_INPUTS("LinSpace", DEVICE_GPU, "T", DT_FLOAT, RILL_RANGE_INPUTS,
                                 LinSpaceGpu<float>);
RILL_REGISTER_KERNEL_HOST_INPUTS("LinSpace", DEVICE_GPU, "T", DT_DOUBLE, RILL_RANGE_INPUTS,
                                 LinSpaceGpu<double>);
#undef RILL_RANGE_INPUTS
RILL_REGISTER_KERNEL("Select", DEVICE_GPU, "", DT_INVALID, SelectGpu<false>);
RILL_REGISTER_KERNEL("SelectV2", DEVICE_GPU, "", DT_INVALID, SelectGpu<true>);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("Where", DEVICE_GPU, "", DT_INVALID, {0}, WhereHost);

}  // namespace
}  // namespace rill::gpu
