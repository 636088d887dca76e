// CPU kernels of MaxPool3D, AvgPool3D and their gradients: each element through
// core/pool3d_row.h (the GPU kernels' own functions). MaxPool3DGrad scatters each window's
// gradient onto its argmax in output order, which adds in the order the GPU's gather does.
#include <cstring>

#include "rill/core/pool3d.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

template <typename T, bool kMax>
class Pool3DOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const Pool3DDims g, PreparePool3D(ctx, &out));
    const T* x = ctx.input(0).base<T>();
    T* o = out->base<T>();
    for (int64_t i = 0, n = out->NumElements(); i < n; ++i) o[i] = Pool3DAt<T, kMax>(g, x, i);
    return absl::OkStatus();
  }
};

template <typename T>
class MaxPool3DGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const Pool3DDims g, PrepareMaxPool3DGrad(ctx, &out));
    std::memset(out->data(), 0, out->TotalBytes());
    const T* x = ctx.input(0).base<T>();
    const T* dy = ctx.input(2).base<T>();
    T* o = out->base<T>();
    for (int64_t i = 0, n = ctx.input(2).NumElements(); i < n; ++i) {
      o[MaxPool3DArgmaxAt(g, x, i)] += dy[i];
    }
    return absl::OkStatus();
  }
};

template <typename T>
class AvgPool3DGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const Pool3DDims g, PrepareAvgPool3DGrad(ctx, &out));
    const T* dy = ctx.input(1).base<T>();
    T* o = out->base<T>();
    for (int64_t i = 0, n = out->NumElements(); i < n; ++i) o[i] = AvgPool3DGradAt(g, dy, i);
    return absl::OkStatus();
  }
};

#define RILL_REG_POOL3D(T, unused)                                                                 \
  RILL_REGISTER_KERNEL("MaxPool3D", DEVICE_CPU, "T", DataTypeToEnum<T>::value, Pool3DOp<T, true>); \
  RILL_REGISTER_KERNEL("AvgPool3D", DEVICE_CPU, "T", DataTypeToEnum<T>::value,                     \
                       Pool3DOp<T, false>);                                                        \
  RILL_REGISTER_KERNEL("MaxPool3DGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,                 \
                       MaxPool3DGradOp<T>);                                                        \
  RILL_REGISTER_KERNEL("AvgPool3DGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,                 \
                       AvgPool3DGradOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_POOL3D, 0)

}  // namespace
}  // namespace rill::cpu
