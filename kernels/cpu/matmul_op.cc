// MatMul on the CPU: float through oneDNN's sgemm (row-major, its JIT picks AVX-512/AMX
// paths at run time); double and integers through Eigen's GEMM (gemm.h). _FusedMatMul is
// the same product, then its bias and activation over the product in place while its rows
// are still in cache.
#include "oneapi/dnnl/dnnl.h"
#include "rill/core/conv_kernel_util.h"
#include "rill/core/kernel_util.h"
#include "rill/kernels/cpu/bias_activation.h"
#include "rill/kernels/cpu/cwise.h"
#include "rill/kernels/cpu/gemm.h"

namespace rill::cpu {
namespace {

template <typename T, bool kFused = false>
class MatMulOp : public OpKernel {
 public:
  explicit MatMulOp(OpKernelConstruction& c)
      : OpKernel(c),
        ta_(c.node().attr<bool>("transpose_a")),
        tb_(c.node().attr<bool>("transpose_b")) {
    if constexpr (kFused) epilogue_ = ParseFusedMatMulEpilogue(c.node().attrs());
  }
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(MatMulGeometry g, PrepareMatMul(ctx, ta_, tb_, &out));
    if constexpr (kFused) {
      RILL_RETURN_IF_ERROR(epilogue_.status());
      RILL_RETURN_IF_ERROR(CheckFusedBias(ctx, 2, out->shape()));
    }
    const int64_t m = g.m, n = g.n, k = g.k;
    if (m == 0 || n == 0) return absl::OkStatus();
    if (k == 0) {
      AsArray<T>(out).setZero();
    } else {
      RILL_RETURN_IF_ERROR(Gemm<T>(ta_, tb_, m, n, k, T(1), a.base<T>(), a.dim_size(1), b.base<T>(),
                                   b.dim_size(1), T(0), out->base<T>(), n));
    }
    if constexpr (kFused) {
      FusedEpilogueRows<T>(*epilogue_, out->base<T>(), {ctx.input(2).base<T>()}, m, n);
    }
    return absl::OkStatus();
  }

 private:
  bool ta_, tb_;
  absl::StatusOr<FusedEpilogue> epilogue_ = FusedEpilogue();  // _FusedMatMul's
};

// oneDNN's first call detects the ISA, JITs and starts its OpenMP threads (~65 ms here);
// do it when the CPU device is created, not in a user's first Run.
const bool kWarmupRegistered = [] {
  RegisterKernelWarmup(DEVICE_CPU, [] {
    float a[64] = {}, b[64] = {}, c[64];
    dnnl_sgemm('N', 'N', 8, 8, 8, 1.0f, a, 8, b, 8, 0.0f, c, 8);
  });
  return true;
}();

#define RILL_REG_MATMUL(T, unused) \
  RILL_REGISTER_KERNEL("MatMul", DEVICE_CPU, "T", DataTypeToEnum<T>::value, MatMulOp<T>);
RILL_FOR_SIGNED_TYPES(RILL_REG_MATMUL, 0)
#define RILL_REG_FUSED_MATMUL(T, unused)                                          \
  RILL_REGISTER_KERNEL("_FusedMatMul", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       MatMulOp<T, true>);
RILL_FOR_FLOAT_TYPES(RILL_REG_FUSED_MATMUL, 0)

}  // namespace
}  // namespace rill::cpu
