// Einsum on the CPU: the operands permuted into [batch, M, K] and [batch, K, N] (strided
// copies, skipped when already in order), a GEMM per batch (gemm.h), and the product
// permuted into the output's label order.
#include <vector>

#include "rill/core/einsum.h"
#include "rill/kernels/cpu/cwise.h"
#include "rill/kernels/cpu/gemm.h"

namespace rill::cpu {
namespace {

// `t` with its dims permuted: `t` itself when the permutation is the identity.
template <typename T>
const T* Permuted(const EinsumPlan& p, const Tensor& t, const std::vector<int>& perm,
                  std::vector<T>* buf) {
  if (p.Identity(perm)) return t.base<T>();
  buf->resize(t.NumElements());
  RunStridedCopyOnHost(PermutationCopy(t.shape().dim_sizes(), perm), t.data(), buf->data(),
                       sizeof(T));
  return buf->data();
}

template <typename T>
class EinsumOp : public OpKernel {
 public:
  explicit EinsumOp(OpKernelConstruction& c)
      : OpKernel(c), equation_(c.node().attr<std::string>("equation")) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &x = ctx.input(0), &y = ctx.input(1);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(EinsumPlan p, PrepareEinsum(ctx, equation_, &out));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (p.k == 0) {
      AsArray<T>(out).setZero();
      return absl::OkStatus();
    }
    std::vector<T> xb, yb, mid;
    const T* xt = Permuted(p, x, p.x_perm, &xb);
    const T* yt = Permuted(p, y, p.y_perm, &yb);
    const bool direct = p.Identity(p.out_perm);
    if (!direct) mid.resize(out->NumElements());
    T* prod = direct ? out->base<T>() : mid.data();
    for (int64_t b = 0; b < p.batch; ++b) {
      RILL_RETURN_IF_ERROR(Gemm<T>(false, false, p.m, p.n, p.k, T(1), xt + b * p.m * p.k, p.k,
                                   yt + b * p.k * p.n, p.n, T(0), prod + b * p.m * p.n, p.n));
    }
    if (!direct) {
      RunStridedCopyOnHost(PermutationCopy(p.mid_dims, p.out_perm), prod, out->data(), sizeof(T));
    }
    return absl::OkStatus();
  }

 private:
  std::string equation_;
};

#define RILL_REG_EINSUM(T, unused) \
  RILL_REGISTER_KERNEL("Einsum", DEVICE_CPU, "T", DataTypeToEnum<T>::value, EinsumOp<T>);
RILL_FOR_SIGNED_TYPES(RILL_REG_EINSUM, 0)
#undef RILL_REG_EINSUM

}  // namespace
}  // namespace rill::cpu
