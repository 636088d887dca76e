// The elementwise kernels' functors and kernel templates, shared by the files that register
// them (cwise_binary_ops.cc, cwise_compare_ops.cc, cwise_unary_ops.cc): each op family
// instantiates Eigen's expressions for every type, and one file for all of them took 112 s
// to compile under ASan.
#pragma once

#include <cmath>
#include <type_traits>

#include "rill/core/binary_math.h"
#include "rill/core/kernel_util.h"
#include "rill/core/special_math.h"
#include "rill/core/unary_math.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu::cwise {

#define RILL_BINARY_FUNCTOR(Name, expr)             \
  struct Name {                                     \
    template <typename A, typename B>               \
    auto operator()(const A& a, const B& b) const { \
      return expr;                                  \
    }                                               \
  };
RILL_BINARY_FUNCTOR(AddF, a + b)
RILL_BINARY_FUNCTOR(SubF, a - b)
RILL_BINARY_FUNCTOR(SquaredDifferenceF, (a - b).square())
RILL_BINARY_FUNCTOR(MulF, a* b)
RILL_BINARY_FUNCTOR(MaxF, a.max(b))
RILL_BINARY_FUNCTOR(MinF, a.min(b))
RILL_BINARY_FUNCTOR(EqualF, a == b)
RILL_BINARY_FUNCTOR(LessF, a < b)
RILL_BINARY_FUNCTOR(GreaterF, a > b)
RILL_BINARY_FUNCTOR(NotEqualF, a != b)
RILL_BINARY_FUNCTOR(LessEqualF, a <= b)
RILL_BINARY_FUNCTOR(GreaterEqualF, a >= b)
RILL_BINARY_FUNCTOR(LogicalAndF, a&& b)
RILL_BINARY_FUNCTOR(LogicalOrF, a || b)
#undef RILL_BINARY_FUNCTOR

// Integer division truncates; lowest / -1 wraps to lowest (the library is built with
// -fwrapv) instead of trapping. Division by zero is refused before (BinaryOp).
struct DivF {
  template <typename A, typename B>
  auto operator()(const A& a, const B& b) const {
    using T = typename A::Scalar;
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      return a.binaryExpr(b, [](T x, T y) -> T { return y == T(-1) ? T(-x) : T(x / y); });
    } else {
      return a / b;
    }
  }
};

// FloorDiv, FloorMod, TruncateDiv, TruncateMod (core/binary_math.h's formulas) and Atan2,
// element by element.
#define RILL_SCALAR_BINARY_FUNCTOR(Name, fn)                          \
  struct Name {                                                       \
    template <typename A, typename B>                                 \
    auto operator()(const A& a, const B& b) const {                   \
      using T = typename A::Scalar;                                   \
      return a.binaryExpr(b, [](T x, T y) -> T { return fn(x, y); }); \
    }                                                                 \
  };
RILL_SCALAR_BINARY_FUNCTOR(FloorDivF, FloorDivOf)
RILL_SCALAR_BINARY_FUNCTOR(FloorModF, FloorModOf)
RILL_SCALAR_BINARY_FUNCTOR(TruncateDivF, TruncateDivOf)
RILL_SCALAR_BINARY_FUNCTOR(TruncateModF, TruncateModOf)
RILL_SCALAR_BINARY_FUNCTOR(Atan2F, std::atan2)  // (y, x), TensorFlow's order
#undef RILL_SCALAR_BINARY_FUNCTOR

template <SafeBinary kOp>
struct SafeBinaryF {
  template <typename A, typename B>
  auto operator()(const A& a, const B& b) const {
    using T = typename A::Scalar;
    return a.binaryExpr(b, [](T x, T y) -> T { return SafeBinaryOf<kOp, T>(x, y); });
  }
};

template <typename T>
T IntPow(T base, T exp) {
  T r = 1;
  while (exp > 0) {
    if (exp & 1) r = static_cast<T>(r * base);
    base = static_cast<T>(base * base);
    exp >>= 1;
  }
  return r;
}

struct PowF {
  template <typename A, typename B>
  auto operator()(const A& a, const B& b) const {
    using T = typename A::Scalar;
    return a.binaryExpr(b, [](T x, T y) -> T {
      if constexpr (std::is_integral_v<T>) {
        return IntPow(x, y);
      } else {
        return std::pow(x, y);
      }
    });
  }
};

struct PolygammaF {
  template <typename A, typename B>
  auto operator()(const A& a, const B& b) const {
    using T = typename A::Scalar;
    return a.binaryExpr(b, [](T n, T x) -> T { return Polygamma(n, x); });
  }
};

template <typename T, typename Out, typename F>
class BinaryOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    TensorShape shape;
    if (a.shape() == b.shape()) {
      shape = a.shape();  // the common case: no broadcasting to work out
    } else {
      RILL_ASSIGN_OR_RETURN(shape, shape_fns::Broadcast(a.shape(), b.shape()));
    }
    if constexpr (std::is_integral_v<T> &&
                  (std::is_same_v<F, DivF> || std::is_same_v<F, FloorDivF> ||
                   std::is_same_v<F, FloorModF> || std::is_same_v<F, TruncateDivF> ||
                   std::is_same_v<F, TruncateModF>)) {
      if ((AsArray<T>(b) == T(0)).any()) return errors::InvalidArgument("Integer division by zero");
    }
    if constexpr (std::is_integral_v<T> && std::is_same_v<F, PowF> && std::is_signed_v<T>) {
      if ((AsArray<T>(b) < T(0)).any()) {
        return errors::InvalidArgument("Integers to negative integer powers are not allowed");
      }
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    BinaryBroadcast<T, Out>(a, b, out, F{});
    return absl::OkStatus();
  }
};

#define RILL_UNARY_FUNCTOR(Name, expr)  \
  struct Name {                         \
    template <typename A>               \
    auto operator()(const A& a) const { \
      using T = typename A::Scalar;     \
      (void)sizeof(T);                  \
      return expr;                      \
    }                                   \
  };
RILL_UNARY_FUNCTOR(NegF, -a)
RILL_UNARY_FUNCTOR(AbsF, a.abs())
RILL_UNARY_FUNCTOR(SquareF, a.square())
RILL_UNARY_FUNCTOR(SqrtF, a.sqrt())
RILL_UNARY_FUNCTOR(ExpF, a.exp())
RILL_UNARY_FUNCTOR(LogF, a.log())
RILL_UNARY_FUNCTOR(SignF, a.sign())
RILL_UNARY_FUNCTOR(ReluF, a.max(T(0)))
RILL_UNARY_FUNCTOR(SigmoidF, (T(1) + (-a).exp()).inverse())
RILL_UNARY_FUNCTOR(TanhF, a.tanh())
RILL_UNARY_FUNCTOR(LogicalNotF, !a)
// Integer Reciprocal (1 / x, truncated: 0 for |x| > 1; zeros are refused before) and Round
// (every integer is already round).
RILL_UNARY_FUNCTOR(IntReciprocalF, a.unaryExpr([](T v) { return static_cast<T>(T(1) / v); }))
RILL_UNARY_FUNCTOR(IntRoundF, a)
#undef RILL_UNARY_FUNCTOR

// The float math of core/unary_math.h, element by element with the formula the GPU
// kernels share.
template <UnaryMath kOp>
struct UnaryMathF {
  template <typename A>
  auto operator()(const A& a) const {
    using T = typename A::Scalar;
    return a.unaryExpr([](T v) { return ApplyUnaryMath<kOp, T>(v); });
  }
};

template <typename T, typename F>
class UnaryOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if constexpr (std::is_same_v<F, IntReciprocalF>) {
      if ((AsArray<T>(x) == T(0)).any()) return errors::InvalidArgument("Integer division by zero");
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, x.shape(), &out));
    AsArray<T>(out) = F{}(AsArray<T>(x));
    return absl::OkStatus();
  }
};

// The CPU registrations of the templates above, one line per type.
#define RILL_REG_BINARY(T, NAME, F) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, BinaryOp<T, T, F>);
#define RILL_REG_COMPARE(T, NAME, F) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, BinaryOp<T, bool, F>);
#define RILL_REG_UNARY(T, NAME, F) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, UnaryOp<T, F>);

// int32 elementwise ops on the GPU, as TensorFlow registers them there: operands and
// result stay in host memory and this CPU code computes them. int32 tensors are shapes,
// sizes and axes in practice (Mean's gradient divides element counts), read on the host
// by their consumers, so a GPU kernel would only add copies and a wait for the stream.
// Integer Div and Pow of the other widths also compute here: their divisors and
// exponents are checked on the host.
#define RILL_REG_HOST(T, NAME, OUT, F)                                                         \
  RILL_REGISTER_KERNEL_HOST_OUTPUTS(NAME, DEVICE_GPU, "T", DataTypeToEnum<T>::value, ({0, 1}), \
                                    BinaryOp<T, OUT, F>);
#define RILL_REG_HOST_UNARY(NAME, F) \
  RILL_REGISTER_KERNEL_HOST_OUTPUTS(NAME, DEVICE_GPU, "T", DT_INT32, ({0}), UnaryOp<int32_t, F>);

}  // namespace rill::cpu::cwise
