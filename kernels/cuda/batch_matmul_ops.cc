// BatchMatMulV2 on the GPU (float, double) through cuBLAS: one strided-batched GEMM when
// every output matrix reads x and y matrices at fixed strides (equal batch dims, or one
// operand a single matrix), else one GEMM per output matrix. Row-major C = op(A) op(B) is
// column-major C^T = op(B)^T op(A)^T, so the operands are swapped as in MatMul.
#include <limits>

#include "rill/core/batch_matmul.h"
#include "rill/kernels/cuda/gpu_context.h"

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
    constexpr int64_t kMaxInt = std::numeric_limits<int>::max();
    const int64_t batches = static_cast<int64_t>(p.x_index.size());
    if (p.m > kMaxInt || p.n > kMaxInt || p.k > kMaxInt || batches > kMaxInt) {
      return errors::InvalidArgument("BatchMatMulV2 dimension beyond cuBLAS's int range: m ", p.m,
                                     ", n ", p.n, ", k ", p.k, ", ", batches, " matrices");
    }
    const T* x = ctx.input(0).base<T>();
    const T* y = ctx.input(1).base<T>();
    T* o = out->base<T>();
    std::lock_guard<std::mutex> handle_lock(*g->library_mu);
    if (p.strided) {
      return Gemm(g, x, p.x_step * p.m * p.k, y, p.y_step * p.k * p.n, o, p, batches);
    }
    for (int64_t b = 0; b < batches; ++b) {
      RILL_RETURN_IF_ERROR(Gemm(g, x + p.x_index[b] * p.m * p.k, 0, y + p.y_index[b] * p.k * p.n, 0,
                                o + b * p.m * p.n, p, 1));
    }
    return absl::OkStatus();
  }

 private:
  // `count` products, x and y advancing by their strides (elements), the output by m * n.
  absl::Status Gemm(GpuContext* g, const T* x, int64_t x_stride, const T* y, int64_t y_stride,
                    T* out, const BatchMatMulPlan& p, int64_t count) {
    const T one = 1, zero = 0;
    const auto op = [](bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; };
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
    const int lda = adj_x_ ? m : k, ldb = adj_y_ ? k : n;
    if constexpr (std::is_same_v<T, float>) {
      RILL_CUDA_CHECK(cublasGemmStridedBatchedEx(
          g->cublas, op(adj_y_), op(adj_x_), n, m, k, &one, y, CUDA_R_32F, ldb, y_stride, x,
          CUDA_R_32F, lda, x_stride, &zero, out, CUDA_R_32F, n, p.m * p.n, static_cast<int>(count),
          tf32_ ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    } else {
      RILL_CUDA_CHECK(cublasDgemmStridedBatched(g->cublas, op(adj_y_), op(adj_x_), n, m, k, &one, y,
                                                ldb, y_stride, x, lda, x_stride, &zero, out, n,
                                                p.m * p.n, static_cast<int>(count)));
    }
    return absl::OkStatus();
  }

  bool adj_x_, adj_y_, tf32_;
};

RILL_REGISTER_KERNEL("BatchMatMulV2", DEVICE_GPU, "T", DT_FLOAT, BatchMatMulGpu<float>);
RILL_REGISTER_KERNEL("BatchMatMulV2", DEVICE_GPU, "T", DT_DOUBLE, BatchMatMulGpu<double>);

}  // namespace
}  // namespace rill::gpu
