// CPU kernels of the unary elementwise ops (math and activations), the float classes
// (IsNan, IsInf, IsFinite), AddN, ClipByValue and Cast.
#include <cstring>

#include "rill/core/cast_value.h"
#include "rill/kernels/cpu/cwise_kernels.h"

namespace rill::cpu {
namespace {
using namespace cwise;  // NOLINT(build/namespaces): the functors and kernel templates

template <typename T>
class ClipByValueOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const T *x = ctx.input(0).base<T>(), *lo = ctx.input(1).base<T>(), *hi = ctx.input(2).base<T>();
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(ClipGeometry g, PrepareClipByValue(ctx, &out));
    T* o = out->base<T>();
    for (int64_t i = 0; i < g.n; ++i) o[i] = ClipValue(x[i], lo[i * g.lo_step], hi[i * g.hi_step]);
    return absl::OkStatus();
  }
};

template <typename T>
class AddNOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& first = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(PrepareAddN(ctx, &out));
    auto o = AsArray<T>(out);
    if (ctx.num_inputs() == 1) {
      o = AsArray<T>(first);
      return absl::OkStatus();
    }
    o = AsArray<T>(first) + AsArray<T>(ctx.input(1));
    for (int i = 2; i < ctx.num_inputs(); ++i) o += AsArray<T>(ctx.input(i));
    return absl::OkStatus();
  }
};

class CastOp : public OpKernel {
 public:
  explicit CastOp(OpKernelConstruction& c)
      : OpKernel(c), truncate_(GetNodeAttrOr(c.node().attrs(), "Truncate", false)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    if (x.dtype() == out->dtype()) {
      std::memcpy(out->data(), x.data(), x.TotalBytes());
      return absl::OkStatus();
    }
    const int64_t n = x.NumElements();
    VisitDataType(x.dtype(), [&](auto from) {
      using F = typename decltype(from)::type;
      VisitDataType(out->dtype(), [&](auto to) {
        using T = typename decltype(to)::type;
        const F* src = x.base<F>();
        T* dst = out->base<T>();
        for (int64_t i = 0; i < n; ++i) dst[i] = CastValue<T>(src[i], truncate_);
      });
    });
    return absl::OkStatus();
  }

 private:
  const bool truncate_;
};

// IsNan, IsInf, IsFinite: bool elements by core/unary_math.h's rule.
template <typename T, FloatClass kClass>
class FloatClassOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    AsArray<bool>(out) = AsArray<T>(x).unaryExpr([](T v) { return IsFloatClass<kClass>(v); });
    return absl::OkStatus();
  }
};

#define RILL_REG_FLOAT_CLASS(T, NAME, CLASS) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, FloatClassOp<T, CLASS>);
RILL_FOR_FLOAT_TYPES(RILL_REG_FLOAT_CLASS, "IsNan", FloatClass::kNan)
RILL_FOR_FLOAT_TYPES(RILL_REG_FLOAT_CLASS, "IsInf", FloatClass::kInf)
RILL_FOR_FLOAT_TYPES(RILL_REG_FLOAT_CLASS, "IsFinite", FloatClass::kFinite)

#define RILL_REG_ADDN(T, unused)                                                      \
  RILL_REGISTER_KERNEL("AddN", DEVICE_CPU, "T", DataTypeToEnum<T>::value, AddNOp<T>); \
  RILL_REGISTER_KERNEL("ClipByValue", DEVICE_CPU, "T", DataTypeToEnum<T>::value, ClipByValueOp<T>);

RILL_FOR_SIGNED_TYPES(RILL_REG_UNARY, "Neg", NegF)
RILL_FOR_SIGNED_TYPES(RILL_REG_UNARY, "Abs", AbsF)
RILL_FOR_SIGNED_TYPES(RILL_REG_UNARY, "Square", SquareF)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY, "Sqrt", SqrtF)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY, "Exp", ExpF)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY, "Log", LogF)
RILL_FOR_SIGNED_TYPES(RILL_REG_UNARY, "Sign", SignF)
RILL_FOR_SIGNED_TYPES(RILL_REG_UNARY, "Relu", ReluF)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY, "Sigmoid", SigmoidF)
RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY, "Tanh", TanhF)
RILL_FOR_NUMBER_TYPES(RILL_REG_ADDN, 0)
#define RILL_REG_UNARY_MATH_OP(NAME, KIND) \
  RILL_FOR_FLOAT_TYPES(RILL_REG_UNARY, NAME, UnaryMathF<KIND>)
RILL_FOR_UNARY_MATH_OPS(RILL_REG_UNARY_MATH_OP)
RILL_FOR_UNARY_MATH_ALIASES(RILL_REG_UNARY_MATH_OP)
RILL_REG_UNARY(int32_t, "Reciprocal", IntReciprocalF)
RILL_REG_UNARY(int64_t, "Reciprocal", IntReciprocalF)
RILL_REG_UNARY(int32_t, "Round", IntRoundF)
RILL_REG_UNARY(int64_t, "Round", IntRoundF)

RILL_REG_HOST_UNARY("Neg", NegF)
RILL_REG_HOST_UNARY("Abs", AbsF)
RILL_REG_HOST_UNARY("Square", SquareF)
RILL_REG_HOST_UNARY("Sign", SignF)
RILL_REG_HOST_UNARY("Relu", ReluF)
RILL_REG_HOST_UNARY("Reciprocal", IntReciprocalF)
RILL_REG_HOST_UNARY("Round", IntRoundF)
RILL_REGISTER_KERNEL("Cast", DEVICE_CPU, "", DT_INVALID, CastOp);

}  // namespace
}  // namespace rill::cpu
