// CPU kernel of Cross: each 3-vector through core/cross_row.h (the GPU kernel's own).
#include "rill/core/cross.h"

namespace rill::cpu {
namespace {

template <typename T>
class CrossOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t vectors, PrepareCross(ctx, &out));
    const T *a = ctx.input(0).base<T>(), *b = ctx.input(1).base<T>();
    T* y = out->base<T>();
    for (int64_t v = 0; v < vectors; ++v) CrossAt(a, b, y, v);
    return absl::OkStatus();
  }
};

#define RILL_REG_CROSS(T, unused) \
  RILL_REGISTER_KERNEL("Cross", DEVICE_CPU, "T", DataTypeToEnum<T>::value, CrossOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_CROSS, _)
#undef RILL_REG_CROSS

}  // namespace
}  // namespace rill::cpu
