// GPU kernel of CheckNumerics: the device ORs each element's flags into one int, which the
// host reads back (the step waits for it: the error, if any, belongs to this node).
#include "rill/core/check_numerics.h"
#include "rill/core/kernel_util.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class CheckNumericsGpu : public OpKernel {
 public:
  explicit CheckNumericsGpu(OpKernelConstruction& c)
      : OpKernel(c), message_(c.node().attr<std::string>("message")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    int flags = 0;
    if (x.NumElements() > 0) {
      Tensor device_flags(ctx.device()->allocator(), DT_INT32, TensorShape({}));
      if (!device_flags.IsInitialized()) {
        return errors::ResourceExhausted("out of GPU memory for CheckNumerics' flags");
      }
      cudaStream_t s = ContextOf(ctx)->stream;
      int* d = device_flags.base<int32_t>();
      RILL_CUDA_CHECK(cudaMemsetAsync(d, 0, sizeof(int), s));
      RILL_CUDA_CHECK(LaunchNumericFlags(x.base<T>(), x.NumElements(), d, s));
      RILL_CUDA_CHECK(cudaMemcpyAsync(&flags, d, sizeof(int), cudaMemcpyDeviceToHost, s));
      RILL_CUDA_CHECK(cudaStreamSynchronize(s));
    }
    RILL_RETURN_IF_ERROR(NumericsStatus(flags, message_));
    return AliasInputAsOutput(ctx, x.shape());
  }

 private:
  std::string message_;
};

RILL_REGISTER_KERNEL("CheckNumerics", DEVICE_GPU, "T", DT_FLOAT, CheckNumericsGpu<float>);
RILL_REGISTER_KERNEL("CheckNumerics", DEVICE_GPU, "T", DT_DOUBLE, CheckNumericsGpu<double>);

}  // namespace
}  // namespace rill::gpu
