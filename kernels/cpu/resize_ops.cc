// CPU kernels of the image resizes and their gradients: each element through
// core/resize_row.h (the GPU kernels' own functions) over tables core/resize.h builds.
#include "rill/core/resize.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

const int64_t* Index(const ResizeTables& r) {
  return r.index.IsInitialized() ? r.index.base<int64_t>() : nullptr;
}
const double* Weight(const ResizeTables& r) {
  return r.weight.IsInitialized() ? r.weight.base<double>() : nullptr;
}

// T in, U out (float for bilinear and bicubic, T for nearest).
template <typename T, typename U, ResizeMethod kMethod>
class ResizeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const ResizeTables r, PrepareResize(ctx, kMethod, &out));
    const T* x = ctx.input(0).base<T>();
    U* y = out->base<U>();
    const int64_t n = out->NumElements();
    if constexpr (kMethod == ResizeMethod::kNearest) {
      for (int64_t i = 0; i < n; ++i) y[i] = x[ResizeNearestSource(r.dims, Index(r), i)];
    } else {
      for (int64_t i = 0; i < n; ++i) {
        y[i] = static_cast<U>(ResizeAt(r.dims, Index(r), Weight(r), x, i));
      }
    }
    return absl::OkStatus();
  }
};

// G: the gradient's dtype (float for bilinear and bicubic, T for nearest); T out.
template <typename G, typename T, ResizeMethod kMethod>
class ResizeGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const ResizeTables r, PrepareResizeGrad(ctx, kMethod, &out));
    const G* dy = ctx.input(0).base<G>();
    T* dx = out->base<T>();
    for (int64_t i = 0, n = out->NumElements(); i < n; ++i) {
      dx[i] = static_cast<T>(ResizeGradAt(r.dims, Index(r), Weight(r), dy, i));
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_RESIZE(T, unused)                                                         \
  RILL_REGISTER_KERNEL("ResizeNearestNeighbor", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ResizeOp<T, T, ResizeMethod::kNearest>);                            \
  RILL_REGISTER_KERNEL("ResizeBilinear", DEVICE_CPU, "T", DataTypeToEnum<T>::value,        \
                       ResizeOp<T, float, ResizeMethod::kBilinear>);                       \
  RILL_REGISTER_KERNEL("ResizeBicubic", DEVICE_CPU, "T", DataTypeToEnum<T>::value,         \
                       ResizeOp<T, float, ResizeMethod::kBicubic>);                        \
  RILL_REGISTER_KERNEL("ResizeArea", DEVICE_CPU, "T", DataTypeToEnum<T>::value,            \
                       ResizeOp<T, float, ResizeMethod::kArea>);
RILL_FOR_NUMBER_TYPES(RILL_REG_RESIZE, 0)
#define RILL_REG_RESIZE_GRAD(T, unused)                                                        \
  RILL_REGISTER_KERNEL("ResizeNearestNeighborGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ResizeGradOp<T, T, ResizeMethod::kNearest>);                            \
  RILL_REGISTER_KERNEL("ResizeBilinearGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,        \
                       ResizeGradOp<float, T, ResizeMethod::kBilinear>);                       \
  RILL_REGISTER_KERNEL("ResizeBicubicGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,         \
                       ResizeGradOp<float, T, ResizeMethod::kBicubic>);                        \
  RILL_REGISTER_KERNEL("_ResizeAreaGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,           \
                       ResizeGradOp<float, T, ResizeMethod::kArea>);
RILL_FOR_FLOAT_TYPES(RILL_REG_RESIZE_GRAD, 0)

}  // namespace
}  // namespace rill::cpu
