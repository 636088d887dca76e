// CPU kernels of the float math ops of core/unary_math.h, one element at a time with the
// formula the GPU kernels share.
#include "rill/core/kernel.h"
#include "rill/core/unary_math.h"

namespace rill::cpu {
namespace {

template <typename T, UnaryMath kOp>
class UnaryMathOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, x.shape(), &out));
    const T* in = x.base<T>();
    T* o = out->base<T>();
    for (int64_t i = 0; i < x.NumElements(); ++i) o[i] = ApplyUnaryMath<kOp, T>(in[i]);
    return absl::OkStatus();
  }
};

// The float and double kernel of every op RILL_FOR_UNARY_MATH_OPS lists.
#define RILL_REG_UNARY_MATH_TYPE(T, NAME, KIND) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, UnaryMathOp<T, KIND>);
#define RILL_REG_UNARY_MATH_OP(NAME, KIND) \
  RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH_TYPE, NAME, KIND)
RILL_FOR_UNARY_MATH_OPS(RILL_REG_UNARY_MATH_OP)

}  // namespace
}  // namespace rill::cpu
