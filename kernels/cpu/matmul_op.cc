// MatMul on the CPU: float through oneDNN's sgemm (row-major, its JIT picks AVX-512/AMX
// paths at run time); double and integers through Eigen's GEMM.
#include "oneapi/dnnl/dnnl.h"
#include "rill/core/kernel_util.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

template <typename T>
class MatMulOp : public OpKernel {
 public:
  explicit MatMulOp(OpKernelConstruction& c)
      : OpKernel(c),
        ta_(c.node().attr<bool>("transpose_a")),
        tb_(c.node().attr<bool>("transpose_b")) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(MatMulGeometry g, PrepareMatMul(ctx, ta_, tb_, &out));
    const int64_t m = g.m, n = g.n, k = g.k;
    if (m == 0 || n == 0) return absl::OkStatus();
    if (k == 0) {
      AsArray<T>(out).setZero();
      return absl::OkStatus();
    }
    if constexpr (std::is_same_v<T, float>) {
      dnnl_status_t st =
          dnnl_sgemm(ta_ ? 'T' : 'N', tb_ ? 'T' : 'N', m, n, k, 1.0f, a.base<float>(),
                     a.dim_size(1), b.base<float>(), b.dim_size(1), 0.0f, out->base<float>(), n);
      if (st != dnnl_success) {
        return errors::Internal("oneDNN sgemm failed with status ", static_cast<int>(st), " for [",
                                m, "x", k, "] x [", k, "x", n, "]");
      }
    } else {
      using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      Eigen::Map<const M> ma(a.base<T>(), a.dim_size(0), a.dim_size(1));
      Eigen::Map<const M> mb(b.base<T>(), b.dim_size(0), b.dim_size(1));
      Eigen::Map<M> mc(out->base<T>(), m, n);
      if (ta_ && tb_)
        mc.noalias() = ma.transpose() * mb.transpose();
      else if (ta_)
        mc.noalias() = ma.transpose() * mb;
      else if (tb_)
        mc.noalias() = ma * mb.transpose();
      else
        mc.noalias() = ma * mb;
    }
    return absl::OkStatus();
  }

 private:
  bool ta_, tb_;
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

}  // namespace
}  // namespace rill::cpu
