// CPU kernels of LRN and LRNGrad: each element through core/lrn_row.h (the GPU kernels'
// own formulas), row by row over the depth.
#include "rill/core/lrn.h"

namespace rill::cpu {
namespace {

template <typename T, bool kGrad>
class LrnOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const LrnParams p, PrepareLrn(ctx, &out));
    if (p.depth == 0) return absl::OkStatus();
    const int64_t rows = out->NumElements() / p.depth;
    T* y = out->base<T>();
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t at = r * p.depth;
      for (int64_t d = 0; d < p.depth; ++d) {
        if constexpr (kGrad) {
          y[at + d] = LrnGradAt(ctx.input(0).base<T>() + at, ctx.input(1).base<T>() + at, d, p);
        } else {
          y[at + d] = LrnAt(ctx.input(0).base<T>() + at, d, p);
        }
      }
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_LRN(T, unused)                                                            \
  RILL_REGISTER_KERNEL("LRN", DEVICE_CPU, "T", DataTypeToEnum<T>::value, LrnOp<T, false>); \
  RILL_REGISTER_KERNEL("LRNGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, LrnOp<T, true>);
RILL_FOR_FLOAT_TYPES(RILL_REG_LRN, _)

}  // namespace
}  // namespace rill::cpu
