// BatchMatMulV2 on the GPU (float, double) through cuBLAS (gemm.h): one strided-batched GEMM
// when every output matrix reads x and y matrices at fixed strides (equal batch dims, or one
// operand a single matrix), else one GEMM per output matrix.
#include "rill/core/batch_matmul.h"
#include "rill/kernels/cuda/gemm.h"

namespace rill::gpu {
namespace {

template <typename T>
class BatchMatMulGpu : public OpKernel {
 public:
  explicit BatchMatMulGpu(OpKernelConstruction& c)
      : OpKernel(c),
        adj_x_(c.node().attr<bool>("adj_x")),
        adj_y_(c.node().attr<bool>("adj_y")),
        tf32_(c.options().allow_tf32) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(BatchMatMulPlan p, PrepareBatchMatMul(ctx, adj_x_, adj_y_, &out));
    if (out->NumElements() == 0) return absl::OkStatus();
    GpuContext* g = ContextOf(ctx);
    if (p.k == 0) {
      RILL_CUDA_CHECK(cudaMemsetAsync(out->data(), 0, out->TotalBytes(), g->stream));
      return absl::OkStatus();
    }
    const int64_t batches = static_cast<int64_t>(p.x_index.size());
    RILL_RETURN_IF_ERROR(CheckGemmDims("BatchMatMulV2", p.m, p.n, p.k, batches));
    const T* x = ctx.input(0).base<T>();
    const T* y = ctx.input(1).base<T>();
    T* o = out->base<T>();
    std::lock_guard<std::mutex> handle_lock(*g->library_mu);
    if (p.strided) {
      return StridedBatchedGemm<T>(g, adj_x_, adj_y_, p.m, p.n, p.k, x, p.x_step * p.m * p.k, y,
                                   p.y_step * p.k * p.n, o, batches, tf32_);
    }
    for (int64_t b = 0; b < batches; ++b) {
      RILL_RETURN_IF_ERROR(
          StridedBatchedGemm<T>(g, adj_x_, adj_y_, p.m, p.n, p.k, x + p.x_index[b] * p.m * p.k, 0,
                                y + p.y_index[b] * p.k * p.n, 0, o + b * p.m * p.n, 1, tf32_));
    }
    return absl::OkStatus();
  }

 private:
  bool adj_x_, adj_y_, tf32_;
};

RILL_REGISTER_KERNEL("BatchMatMulV2", DEVICE_GPU, "T", DT_FLOAT, BatchMatMulGpu<float>);
RILL_REGISTER_KERNEL("BatchMatMulV2", DEVICE_GPU, "T", DT_DOUBLE, BatchMatMulGpu<double>);

}  // namespace
}  // namespace rill::gpu
