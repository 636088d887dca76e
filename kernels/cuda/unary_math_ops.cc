// GPU kernels of the float math ops of core/unary_math.h (launchers in unary_math.cu).
#include "rill/core/kernel.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, UnaryMath kOp>
class UnaryMathGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, x.shape(), &out));
    RILL_CUDA_CHECK(LaunchUnaryMath<T>(kOp, x.base<T>(), out->base<T>(), x.NumElements(),
                                       ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// The float and double kernel of every op RILL_FOR_UNARY_MATH_OPS lists.
#define RILL_REG_UNARY_MATH_TYPE(T, NAME, KIND) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_GPU, "T", DataTypeToEnum<T>::value, UnaryMathGpu<T, KIND>);
#define RILL_REG_UNARY_MATH_OP(NAME, KIND) \
  RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY_MATH_TYPE, NAME, KIND)
RILL_FOR_UNARY_MATH_OPS(RILL_REG_UNARY_MATH_OP)

}  // namespace
}  // namespace rill::gpu
