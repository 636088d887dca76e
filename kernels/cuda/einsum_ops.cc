// Einsum on the GPU (float, double): the operands permuted on the device (copy.cu's strided
// copies, skipped when already in order), one strided-batched cuBLAS GEMM (gemm.h), and the
// product permuted into the output's label order.
#include "rill/core/einsum.h"
#include "rill/kernels/cuda/copy_launch.h"
#include "rill/kernels/cuda/gemm.h"

namespace rill::gpu {
namespace {

// Enqueues `copy` from `src` into the fresh device tensor *dst of `n` elements.
absl::Status Copy(const OpKernelContext& ctx, const StridedCopy& copy, const void* src, DataType dt,
                  int64_t n, Tensor* dst) {
  *dst = Tensor(ctx.device()->allocator(), dt, TensorShape({n}));
  if (!dst->IsInitialized()) {
    return errors::ResourceExhausted("out of GPU memory for Einsum's ", n, "-element operand");
  }
  RILL_CUDA_CHECK(LaunchCopy(copy, DataTypeSize(dt), src, dst->data(), ContextOf(ctx)->stream));
  return absl::OkStatus();
}

template <typename T>
class EinsumGpu : public OpKernel {
 public:
  explicit EinsumGpu(OpKernelConstruction& c)
      : OpKernel(c),
        equation_(c.node().attr<std::string>("equation")),
        tf32_(c.options().allow_tf32) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &x = ctx.input(0), &y = ctx.input(1);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(EinsumPlan p, PrepareEinsum(ctx, equation_, &out));
    if (out->NumElements() == 0) return absl::OkStatus();
    GpuContext* g = ContextOf(ctx);
    if (p.k == 0) {
      RILL_CUDA_CHECK(cudaMemsetAsync(out->data(), 0, out->TotalBytes(), g->stream));
      return absl::OkStatus();
    }
    RILL_RETURN_IF_ERROR(CheckGemmDims("Einsum", p.m, p.n, p.k, p.batch));
    Tensor xt = x, yt = y, mid;
    if (!p.Identity(p.x_perm)) {
      RILL_RETURN_IF_ERROR(Copy(ctx, PermutationCopy(x.shape().dim_sizes(), p.x_perm), x.data(),
                                x.dtype(), x.NumElements(), &xt));
    }
    if (!p.Identity(p.y_perm)) {
      RILL_RETURN_IF_ERROR(Copy(ctx, PermutationCopy(y.shape().dim_sizes(), p.y_perm), y.data(),
                                y.dtype(), y.NumElements(), &yt));
    }
    const bool direct = p.Identity(p.out_perm);
    if (!direct) {
      mid = Tensor(ctx.device()->allocator(), out->dtype(), TensorShape({out->NumElements()}));
      if (!mid.IsInitialized()) return errors::ResourceExhausted("out of GPU memory for Einsum");
    }
    T* prod = direct ? out->base<T>() : mid.base<T>();
    {
      std::lock_guard<std::mutex> handle_lock(*g->library_mu);
      RILL_RETURN_IF_ERROR(StridedBatchedGemm<T>(g, false, false, p.m, p.n, p.k, xt.base<T>(),
                                                 p.m * p.k, yt.base<T>(), p.k * p.n, prod, p.batch,
                                                 tf32_));
    }
    if (direct) return absl::OkStatus();
    const StridedCopy back = PermutationCopy(p.mid_dims, p.out_perm);
    RILL_CUDA_CHECK(LaunchCopy(back, sizeof(T), prod, out->data(), g->stream));
    return absl::OkStatus();
  }

 private:
  std::string equation_;
  bool tf32_;
};

RILL_REGISTER_KERNEL("Einsum", DEVICE_GPU, "T", DT_FLOAT, EinsumGpu<float>);
RILL_REGISTER_KERNEL("Einsum", DEVICE_GPU, "T", DT_DOUBLE, EinsumGpu<double>);

}  // namespace
}  // namespace rill::gpu
