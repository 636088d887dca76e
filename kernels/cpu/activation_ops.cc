// CPU kernels of Relu6, Elu, Selu, LeakyRelu and their gradient ops, element by element
// with the formulas the GPU kernels share (core/point_activation.h).
#include "rill/core/kernel_util.h"
#include "rill/core/point_activation.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

template <typename T, PointActivation kAct>
class ActivationOp : public OpKernel {
 public:
  explicit ActivationOp(OpKernelConstruction& c)
      : OpKernel(c), alpha_(static_cast<T>(AlphaAttrOrZero(c))) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, x.shape(), &out));
    const T alpha = alpha_;
    AsArray<T>(out) =
        AsArray<T>(x).unaryExpr([alpha](T v) { return ApplyPointActivation<kAct, T>(v, alpha); });
    return absl::OkStatus();
  }

 private:
  T alpha_;
};

// (gradients, features or outputs) of one shape.
template <typename T, PointActivation kAct>
class ActivationGradOp : public OpKernel {
 public:
  explicit ActivationGradOp(OpKernelConstruction& c)
      : OpKernel(c), alpha_(static_cast<T>(AlphaAttrOrZero(c))) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(CheckSameShapes(ctx));
    const Tensor& g = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, g.shape(), &out));
    const T alpha = alpha_;
    AsArray<T>(out) = AsArray<T>(g).binaryExpr(AsArray<T>(ctx.input(1)), [alpha](T dy, T a) {
      return PointActivationBackprop<kAct, T>(dy, a, alpha);
    });
    return absl::OkStatus();
  }

 private:
  T alpha_;
};

#define RILL_REG_ACTIVATION(T, NAME, KIND)                                     \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value,        \
                       ActivationOp<T, PointActivation::KIND>);                \
  RILL_REGISTER_KERNEL(NAME "Grad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ActivationGradOp<T, PointActivation::KIND>);
RILL_FOR_SIGNED_TYPES(RILL_REG_ACTIVATION, "Relu6", kRelu6)
RILL_FOR_FLOAT_TYPES(RILL_REG_ACTIVATION, "Elu", kElu)
RILL_FOR_FLOAT_TYPES(RILL_REG_ACTIVATION, "Selu", kSelu)
RILL_FOR_FLOAT_TYPES(RILL_REG_ACTIVATION, "LeakyRelu", kLeakyRelu)

}  // namespace
}  // namespace rill::cpu
