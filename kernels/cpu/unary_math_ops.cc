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

#define RILL_REG_UNARY_MATH(T, NAME, KIND) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, UnaryMathOp<T, KIND>);
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH, "Rsqrt", UnaryMath::kRsqrt)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH, "Reciprocal", UnaryMath::kReciprocal)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH, "Floor", UnaryMath::kFloor)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH, "Ceil", UnaryMath::kCeil)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH, "Round", UnaryMath::kRound)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH, "Sin", UnaryMath::kSin)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH, "Cos", UnaryMath::kCos)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH, "Erf", UnaryMath::kErf)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH, "Softplus", UnaryMath::kSoftplus)

}  // namespace
}  // namespace rill::cpu
