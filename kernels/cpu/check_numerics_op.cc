// CheckNumerics on the CPU: the input passed through, or an error naming the NaN or Inf
// values it holds (core/check_numerics.h's test per element).
#include "rill/core/check_numerics.h"
#include "rill/core/kernel_util.h"

namespace rill::cpu {
namespace {

template <typename T>
class CheckNumericsOp : public OpKernel {
 public:
  explicit CheckNumericsOp(OpKernelConstruction& c)
      : OpKernel(c), message_(c.node().attr<std::string>("message")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const T* v = x.base<T>();
    int flags = 0;
    for (int64_t i = 0, n = x.NumElements(); i < n; ++i) flags |= NumericFlags(v[i]);
    RILL_RETURN_IF_ERROR(NumericsStatus(flags, message_));
    return AliasInputAsOutput(ctx, x.shape());
  }

 private:
  std::string message_;
};

#define RILL_REG_CHECK_NUMERICS(T, unused)                                         \
  RILL_REGISTER_KERNEL("CheckNumerics", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       CheckNumericsOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_CHECK_NUMERICS, _)

}  // namespace
}  // namespace rill::cpu
