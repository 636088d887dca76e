// BatchMatMulV2 on the CPU: one GEMM (gemm.h: oneDNN for float, Eigen otherwise) per output
// matrix, each reading the x and y matrices the broadcast plan names.
#include "rill/core/batch_matmul.h"
#include "rill/kernels/cpu/cwise.h"
#include "rill/kernels/cpu/gemm.h"

namespace rill::cpu {
namespace {

template <typename T>
class BatchMatMulOp : public OpKernel {
 public:
  explicit BatchMatMulOp(OpKernelConstruction& c)
      : OpKernel(c), adj_x_(c.node().attr<bool>("adj_x")), adj_y_(c.node().attr<bool>("adj_y")) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(BatchMatMulPlan p, PrepareBatchMatMul(ctx, adj_x_, adj_y_, &out));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (p.k == 0) {
      AsArray<T>(out).setZero();
      return absl::OkStatus();
    }
    const T* x = ctx.input(0).base<T>();
    const T* y = ctx.input(1).base<T>();
    const int64_t lda = adj_x_ ? p.m : p.k, ldb = adj_y_ ? p.k : p.n;
    for (size_t b = 0; b < p.x_index.size(); ++b) {
      RILL_RETURN_IF_ERROR(Gemm<T>(adj_x_, adj_y_, p.m, p.n, p.k, T(1),
                                   x + p.x_index[b] * p.m * p.k, lda, y + p.y_index[b] * p.k * p.n,
                                   ldb, T(0), out->base<T>() + b * p.m * p.n, p.n));
    }
    return absl::OkStatus();
  }

 private:
  bool adj_x_, adj_y_;
};

#define RILL_REG_BATCH_MATMUL(T, unused)                                           \
  RILL_REGISTER_KERNEL("BatchMatMulV2", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       BatchMatMulOp<T>);
RILL_FOR_SIGNED_TYPES(RILL_REG_BATCH_MATMUL, 0)
#undef RILL_REG_BATCH_MATMUL

}  // namespace
}  // namespace rill::cpu
