// CPU kernels of the fused end of a Dense or Conv2D layer: _BiasActivation (bias add and
// activation in one pass) and _BiasActivationGrad (the activation's gradient and the bias's
// column sums in one node). Same arithmetic as BiasAdd, Relu/Sigmoid/Tanh and their
// gradient ops, so a fused and an unfused model train alike.
#include "rill/core/conv_kernel_util.h"
#include "rill/kernels/cpu/bias_activation.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

template <typename T>
using RowMajor = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
class BiasActivationOp : public OpKernel {
 public:
  explicit BiasActivationOp(OpKernelConstruction& c)
      : OpKernel(c), act_(ParseFusedActivation(c.node().attr<std::string>("activation"))) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& v = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t c, PrepareBiasAdd(ctx, &out));
    const int64_t rows = c == 0 ? 0 : v.NumElements() / c;
    BiasActivationRows<T>(act_, v.base<T>(), ctx.input(1).base<T>(), out->base<T>(), rows, c);
    return absl::OkStatus();
  }

 private:
  FusedActivation act_;
};

template <typename T>
class BiasActivationGradOp : public OpKernel {
 public:
  explicit BiasActivationGradOp(OpKernelConstruction& c)
      : OpKernel(c), act_(ParseFusedActivation(c.node().attr<std::string>("activation"))) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor *dz, *db;
    RILL_ASSIGN_OR_RETURN(const BiasGradGeometry g, PrepareBiasActivationGrad(ctx, &dz, &db));
    Eigen::Map<const RowMajor<T>> dy(ctx.input(0).base<T>(), g.rows, g.channels);
    Eigen::Map<const RowMajor<T>> y(ctx.input(1).base<T>(), g.rows, g.channels);
    Eigen::Map<RowMajor<T>> d(dz->base<T>(), g.rows, g.channels);
    switch (act_) {
      case FusedActivation::kRelu:
        d = (y > T(0)).select(dy, T(0));
        break;
      case FusedActivation::kSigmoid:
        d = dy * y * (T(1) - y);
        break;
      case FusedActivation::kTanh:
        d = dy * (T(1) - y * y);
        break;
    }
    Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>> bias(db->base<T>(), g.channels);
    if (g.rows == 0) {
      bias.setZero();
    } else {
      bias = d.colwise().sum();
    }
    return absl::OkStatus();
  }

 private:
  FusedActivation act_;
};

#define RILL_REG_BIAS_ACT(T, unused)                                                     \
  RILL_REGISTER_KERNEL("_BiasActivation", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       BiasActivationOp<T>);                                             \
  RILL_REGISTER_KERNEL("_BiasActivationGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       BiasActivationGradOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_BIAS_ACT, 0)

}  // namespace
}  // namespace rill::cpu
