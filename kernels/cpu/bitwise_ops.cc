// CPU kernels of the bitwise ops (core/bitwise.h's formulas), with NumPy broadcasting.
#include "rill/core/bitwise.h"
#include "rill/kernels/cpu/cwise_kernels.h"

namespace rill::cpu {
namespace {
using namespace cwise;  // NOLINT(build/namespaces): the kernel templates

template <Bitwise kOp>
struct BitwiseF {
  template <typename A, typename B>
  auto operator()(const A& a, const B& b) const {
    using T = typename A::Scalar;
    return a.binaryExpr(b, [](T x, T y) -> T { return BitwiseOf<kOp, T>(x, y); });
  }
};

struct InvertF {
  template <typename A>
  auto operator()(const A& a) const {
    using T = typename A::Scalar;
    return a.unaryExpr([](T v) { return InvertOf(v); });
  }
};

template <typename T>
class PopulationCountOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    const T* in = x.base<T>();
    uint8_t* o = out->base<uint8_t>();
    for (int64_t i = 0; i < x.NumElements(); ++i) o[i] = PopulationCountOf(in[i]);
    return absl::OkStatus();
  }
};

#define RILL_REG_BITWISE(T, unused)                                                  \
  RILL_REG_BINARY(T, "BitwiseAnd", BitwiseF<Bitwise::kAnd>)                          \
  RILL_REG_BINARY(T, "BitwiseOr", BitwiseF<Bitwise::kOr>)                            \
  RILL_REG_BINARY(T, "BitwiseXor", BitwiseF<Bitwise::kXor>)                          \
  RILL_REG_BINARY(T, "LeftShift", BitwiseF<Bitwise::kLeftShift>)                     \
  RILL_REG_BINARY(T, "RightShift", BitwiseF<Bitwise::kRightShift>)                   \
  RILL_REG_UNARY(T, "Invert", InvertF)                                               \
  RILL_REGISTER_KERNEL("PopulationCount", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       PopulationCountOp<T>);
RILL_REG_BITWISE(int32_t, _)
RILL_REG_BITWISE(int64_t, _)
RILL_REG_BITWISE(uint8_t, _)
RILL_REG_BITWISE(int8_t, _)
RILL_REG_BITWISE(int16_t, _)
RILL_REG_BITWISE(uint16_t, _)
RILL_REG_BITWISE(uint32_t, _)
RILL_REG_BITWISE(uint64_t, _)
#undef RILL_REG_BITWISE

}  // namespace
}  // namespace rill::cpu
