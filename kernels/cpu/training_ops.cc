// CPU kernels of the optimizer updates: in place on the variables (copy on write when a
// reader still holds the old value), scalars read from host inputs.
#include <cmath>

#include "rill/core/apply_util.h"
#include "rill/core/kernel_util.h"
#include "rill/kernels/cpu/cwise.h"
#include "rill/kernels/cpu/gemm.h"

namespace rill::cpu {
namespace {

template <typename T>
T ScalarOf(const Tensor& t) {
  return t.base<T>()[0];
}

template <typename T>
class ApplyGradientDescentOp : public OpKernel {
 public:
  explicit ApplyGradientDescentOp(OpKernelConstruction& c) : OpKernel(c), vars_(c, 1) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, {1}));
    const Tensor& delta = ctx.input(2);
    VarLocks locks;
    VarValues v;
    RILL_RETURN_IF_ERROR(vars_.Prepare(ctx, delta.shape(), &locks, &v));
    AsArray<T>(v[0]) -= ScalarOf<T>(ctx.input(1)) * AsArray<T>(delta);
    ctx.set_output(0, *v[0]);
    return absl::OkStatus();
  }

 private:
  ApplyVars vars_;
};

template <typename T>
class ApplyMomentumOp : public OpKernel {
 public:
  explicit ApplyMomentumOp(OpKernelConstruction& c)
      : OpKernel(c), vars_(c, 2), nesterov_(c.node().attr<bool>("use_nesterov")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, {2, 4}));
    const Tensor& grad = ctx.input(3);
    VarLocks locks;
    VarValues v;
    RILL_RETURN_IF_ERROR(vars_.Prepare(ctx, grad.shape(), &locks, &v));
    const T lr = ScalarOf<T>(ctx.input(2)), momentum = ScalarOf<T>(ctx.input(4));
    auto var = AsArray<T>(v[0]);
    auto accum = AsArray<T>(v[1]);
    auto g = AsArray<T>(grad);
    accum = accum * momentum + g;
    if (nesterov_) {
      var -= g * lr + accum * (momentum * lr);
    } else {
      var -= accum * lr;
    }
    ctx.set_output(0, *v[0]);
    return absl::OkStatus();
  }

 private:
  ApplyVars vars_;
  bool nesterov_;
};

template <typename T>
class ApplyAdamOp : public OpKernel {
 public:
  explicit ApplyAdamOp(OpKernelConstruction& c)
      : OpKernel(c), vars_(c, 3), nesterov_(c.node().attr<bool>("use_nesterov")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, {3, 4, 5, 6, 7, 8}));
    const Tensor& grad = ctx.input(9);
    VarLocks locks;
    VarValues v;
    RILL_RETURN_IF_ERROR(vars_.Prepare(ctx, grad.shape(), &locks, &v));
    const T b1p = ScalarOf<T>(ctx.input(3)), b2p = ScalarOf<T>(ctx.input(4));
    const T lr = ScalarOf<T>(ctx.input(5)), b1 = ScalarOf<T>(ctx.input(6));
    const T b2 = ScalarOf<T>(ctx.input(7)), eps = ScalarOf<T>(ctx.input(8));
    const T lr_t = lr * std::sqrt(T(1) - b2p) / (T(1) - b1p);
    auto var = AsArray<T>(v[0]);
    auto m = AsArray<T>(v[1]);
    auto s = AsArray<T>(v[2]);
    auto g = AsArray<T>(grad);
    m += (g - m) * (T(1) - b1);
    s += (g.square() - s) * (T(1) - b2);
    if (nesterov_) {
      var -= (m * b1 + g * (T(1) - b1)) * lr_t / (s.sqrt() + eps);
    } else {
      var -= m * lr_t / (s.sqrt() + eps);
    }
    ctx.set_output(0, *v[0]);
    return absl::OkStatus();
  }

 private:
  ApplyVars vars_;
  bool nesterov_;
};

// var -= alpha * op(a) op(b), in place: one GEMM with beta = 1 (float through oneDNN).
template <typename T>
class MatMulApplyGradientDescentOp : public OpKernel {
 public:
  explicit MatMulApplyGradientDescentOp(OpKernelConstruction& c)
      : OpKernel(c),
        vars_(c, 1),
        ta_(c.node().attr<bool>("transpose_a")),
        tb_(c.node().attr<bool>("transpose_b")) {}
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, {1}));
    const Tensor& a = ctx.input(2);
    const Tensor& b = ctx.input(3);
    RILL_ASSIGN_OR_RETURN(MatMulGeometry geo, FusedUpdateGeometry(ctx, ta_, tb_));
    const int64_t m = geo.m, n = geo.n, k = geo.k;
    VarLocks locks;
    VarValues v;
    RILL_RETURN_IF_ERROR(vars_.Prepare(ctx, TensorShape({m, n}), &locks, &v));
    const T alpha = ScalarOf<T>(ctx.input(1));
    if (m > 0 && n > 0 && k > 0) {
      RILL_RETURN_IF_ERROR(Gemm<T>(ta_, tb_, m, n, k, -alpha, a.base<T>(), a.dim_size(1),
                                   b.base<T>(), b.dim_size(1), T(1), v[0]->base<T>(), n));
    }
    ctx.set_output(0, *v[0]);
    return absl::OkStatus();
  }

 private:
  ApplyVars vars_;
  bool ta_, tb_;
};

#define RILL_REG_APPLY(T, unused)                                                                \
  RILL_REGISTER_KERNEL("ApplyGradientDescent", DEVICE_CPU, "T", DataTypeToEnum<T>::value,        \
                       ApplyGradientDescentOp<T>);                                               \
  RILL_REGISTER_KERNEL("ApplyMomentum", DEVICE_CPU, "T", DataTypeToEnum<T>::value,               \
                       ApplyMomentumOp<T>);                                                      \
  RILL_REGISTER_KERNEL("ApplyAdam", DEVICE_CPU, "T", DataTypeToEnum<T>::value, ApplyAdamOp<T>);  \
  RILL_REGISTER_KERNEL("_MatMulApplyGradientDescent", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       MatMulApplyGradientDescentOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_APPLY, 0)

}  // namespace
}  // namespace rill::cpu
