// MirrorPadGrad on the CPU: each output element through core/mirror_pad_row.h (the GPU
// kernel's own formula).
#include "rill/core/rearrange_copy.h"

namespace rill::cpu {
namespace {

template <typename T>
class MirrorPadGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const MirrorFold f, PrepareMirrorPadGrad(ctx, &out));
    const T* g = ctx.input(0).base<T>();
    T* o = out->base<T>();
    for (int64_t i = 0, n = out->NumElements(); i < n; ++i) o[i] = MirrorPadGradAt(g, f, i);
    return absl::OkStatus();
  }
};

#define RILL_REG_MIRROR_PAD_GRAD(T, unused)                                        \
  RILL_REGISTER_KERNEL("MirrorPadGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       MirrorPadGradOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_MIRROR_PAD_GRAD, _)

}  // namespace
}  // namespace rill::cpu
