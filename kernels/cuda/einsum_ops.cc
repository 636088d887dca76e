// Einsum on the GPU (float, double): core/einsum_steps.h's plan run on the stream with
// copy.cu's strided copies, reduce.cu's row sums and one strided-batched cuBLAS GEMM
// (gemm.h; an operand broadcast over the whole batch has stride 0).
#include <mutex>
#include <vector>

#include "rill/core/einsum_steps.h"
#include "rill/kernels/cuda/copy_launch.h"
#include "rill/kernels/cuda/gemm.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
class DeviceBackend {
 public:
  DeviceBackend(OpKernelContext& ctx, bool tf32) : ctx_(ctx), g_(ContextOf(ctx)), tf32_(tf32) {}

  // Scratch freed when the kernel returns is safe: the allocator reuses memory in stream
  // order, after the work enqueued here.
  absl::StatusOr<T*> Scratch(int64_t n) {
    Tensor t(ctx_.device()->allocator(), DataTypeToEnum<T>::value, TensorShape({n}));
    if (!t.IsInitialized() && n > 0) {
      return errors::ResourceExhausted("out of GPU memory for Einsum's ", n, "-element scratch");
    }
    keep_.push_back(std::move(t));
    return keep_.back().template base<T>();
  }
  absl::Status Copy(const StridedCopy& c, const T* src, T* dst) {
    RILL_CUDA_CHECK(LaunchCopy(c, sizeof(T), src, dst, g_->stream));
    return absl::OkStatus();
  }
  absl::Status SumRows(const T* src, T* dst, int64_t rows, int64_t r) {
    T* scratch = nullptr;
    if (const int64_t n = ReduceScratchElements(rows, r); n > 0) {
      RILL_ASSIGN_OR_RETURN(scratch, Scratch(n));
    }
    RILL_CUDA_CHECK(LaunchReduce<T>(ReduceKind::kSum, src, dst, rows, r, 1, scratch, g_->stream));
    return absl::OkStatus();
  }
  absl::Status Zero(T* dst, int64_t n) {
    RILL_CUDA_CHECK(cudaMemsetAsync(dst, 0, n * sizeof(T), g_->stream));
    return absl::OkStatus();
  }
  absl::Status Gemm(const EinsumPlan& p, const T* x, const T* y, T* out) {
    RILL_RETURN_IF_ERROR(CheckGemmDims("Einsum", p.m, p.n, p.k, p.batch));
    std::lock_guard<std::mutex> handle_lock(*g_->library_mu);
    return StridedBatchedGemm<T>(g_, p.operand[0].transposed, p.operand[1].transposed, p.m, p.n,
                                 p.k, x, p.operand[0].batch_stride, y, p.operand[1].batch_stride,
                                 out, p.batch, tf32_);
  }

 private:
  OpKernelContext& ctx_;
  GpuContext* g_;
  bool tf32_;
  std::vector<Tensor> keep_;
};

template <typename T>
class EinsumGpu : public OpKernel {
 public:
  explicit EinsumGpu(OpKernelConstruction& c)
      : OpKernel(c),
        planner_(c.node().attr<std::string>("equation")),
        tf32_(c.options().allow_tf32) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(EinsumPlan p, planner_.Prepare(ctx, &out));
    DeviceBackend<T> backend(ctx, tf32_);
    const T* y = p.num_inputs == 2 ? ctx.input(1).base<T>() : nullptr;
    return einsum::Run<T>(p, ctx.input(0).base<T>(), y, out->base<T>(), out->NumElements(),
                          backend);
  }

 private:
  EinsumPlanner planner_;
  bool tf32_;
};

RILL_REGISTER_KERNEL("Einsum", DEVICE_GPU, "T", DT_FLOAT, EinsumGpu<float>);
RILL_REGISTER_KERNEL("Einsum", DEVICE_GPU, "T", DT_DOUBLE, EinsumGpu<double>);

}  // namespace
}  // namespace rill::gpu
