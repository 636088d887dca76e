// Einsum on the CPU: core/einsum_steps.h's plan run with host copies, row sums and a GEMM per
// batch (gemm.h). Scratch comes from the device's allocator, so a plan too large for memory
// is ResourceExhausted, not an abort.
#include <type_traits>
#include <vector>

#include "rill/core/einsum_steps.h"
#include "rill/kernels/cpu/cwise.h"
#include "rill/kernels/cpu/gemm.h"

namespace rill::cpu {
namespace {

template <typename T>
class HostBackend {
 public:
  explicit HostBackend(Allocator* a) : allocator_(a) {}

  absl::StatusOr<T*> Scratch(int64_t n) {
    RILL_ASSIGN_OR_RETURN(Tensor t,
                          Tensor::Create(DataTypeToEnum<T>::value, TensorShape({n}), allocator_));
    keep_.push_back(std::move(t));
    return keep_.back().template base<T>();
  }
  absl::Status Copy(const StridedCopy& c, const T* src, T* dst) {
    RunStridedCopyOnHost(c, src, dst, sizeof(T));
    return absl::OkStatus();
  }
  absl::Status SumRows(const T* src, T* dst, int64_t rows, int64_t r) {
    if constexpr (std::is_floating_point_v<T>) {  // Eigen's vectorized row sums
      using Rows = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(dst, rows) =
          Eigen::Map<const Rows>(src, rows, r).rowwise().sum();
    } else {  // integers wrap, as TensorFlow's sums do, without signed overflow
      using Acc = std::make_unsigned_t<T>;
      for (int64_t i = 0; i < rows; ++i) {
        Acc sum = 0;
        for (const T* p = src + i * r; p != src + (i + 1) * r; ++p) sum += static_cast<Acc>(*p);
        dst[i] = static_cast<T>(sum);
      }
    }
    return absl::OkStatus();
  }

  absl::Status Zero(T* dst, int64_t n) {
    std::fill(dst, dst + n, T(0));
    return absl::OkStatus();
  }
  absl::Status Gemm(const EinsumPlan& p, const T* x, const T* y, T* out) {
    const int64_t sx = p.operand[0].batch_stride, sy = p.operand[1].batch_stride;
    const bool tx = p.operand[0].transposed, ty = p.operand[1].transposed;
    for (int64_t b = 0; b < p.batch; ++b) {
      RILL_RETURN_IF_ERROR(cpu::Gemm<T>(tx, ty, p.m, p.n, p.k, T(1), x + b * sx, tx ? p.m : p.k,
                                        y + b * sy, ty ? p.k : p.n, T(0), out + b * p.m * p.n,
                                        p.n));
    }
    return absl::OkStatus();
  }

 private:
  Allocator* allocator_;
  std::vector<Tensor> keep_;
};

template <typename T>
class EinsumOp : public OpKernel {
 public:
  explicit EinsumOp(OpKernelConstruction& c)
      : OpKernel(c), planner_(c.node().attr<std::string>("equation")) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(EinsumPlan p, planner_.Prepare(ctx, &out));
    HostBackend<T> backend(ctx.device()->allocator());
    const T* y = p.num_inputs == 2 ? ctx.input(1).base<T>() : nullptr;
    return einsum::Run<T>(p, ctx.input(0).base<T>(), y, out->base<T>(), out->NumElements(),
                          backend);
  }

 private:
  EinsumPlanner planner_;
};

#define RILL_REG_EINSUM(T, unused) \
  RILL_REGISTER_KERNEL("Einsum", DEVICE_CPU, "T", DataTypeToEnum<T>::value, EinsumOp<T>);
RILL_FOR_SIGNED_TYPES(RILL_REG_EINSUM, 0)
#undef RILL_REG_EINSUM

}  // namespace
}  // namespace rill::cpu
