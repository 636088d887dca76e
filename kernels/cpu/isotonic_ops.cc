// CPU kernels of IsotonicRegression (each row of the last dim through core/isotonic.h's
// pooling, in the output dtype) and its gradient op _IsotonicRegressionGrad (each gradient
// replaced by the mean of its segment's: the fit is its block's mean, so its Jacobian
// averages within blocks).
#include <vector>

#include "rill/core/isotonic.h"

namespace rill::cpu {
namespace {

template <typename Tin>
class IsotonicOp : public OpKernel {
 public:
  explicit IsotonicOp(OpKernelConstruction& c)
      : OpKernel(c), out_(c.node().attr<DataType>("output_dtype")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.dims() < 1) {
      return errors::InvalidArgument("input must be at least 1-D, got ", x.shape().DebugString());
    }
    Tensor *y, *segments;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &y));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, x.shape(), &segments));
    if (out_ == DT_DOUBLE) return Fit<double>(x, y, segments);
    return Fit<float>(x, y, segments);
  }

 private:
  template <typename Tout>
  static absl::Status Fit(const Tensor& x, Tensor* y, Tensor* segments) {
    const int64_t n = x.dim_size(x.dims() - 1);
    if (n == 0) return absl::OkStatus();
    for (int64_t row = 0; row < x.NumElements() / n; ++row) {
      PoolAdjacentViolators(x.base<Tin>() + row * n, n, y->base<Tout>() + row * n,
                            segments->base<int32_t>() + row * n);
    }
    return absl::OkStatus();
  }
  DataType out_;
};

template <typename T>
class IsotonicGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &g = ctx.input(0), &seg = ctx.input(1);
    if (g.dims() < 1 || g.shape() != seg.shape()) {
      return errors::InvalidArgument("grads and segments must have one shape of rank >= 1, got ",
                                     g.shape().DebugString(), " and ", seg.shape().DebugString());
    }
    Tensor* dx;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, g.shape(), &dx));
    const int64_t n = g.dim_size(g.dims() - 1);
    for (int64_t row = 0; n > 0 && row < g.NumElements() / n; ++row) {
      RILL_RETURN_IF_ERROR(
          Row(g.base<T>() + row * n, seg.base<int32_t>() + row * n, n, dx->base<T>() + row * n));
    }
    return absl::OkStatus();
  }

 private:
  // Segments must number runs 0, 1, 2, ... in order (as IsotonicRegression makes them).
  static absl::Status Row(const T* g, const int32_t* seg, int64_t n, T* dx) {
    for (int64_t start = 0; start < n;) {
      int64_t end = start + 1;
      while (end < n && seg[end] == seg[start]) ++end;
      if (seg[start] != (start == 0 ? 0 : seg[start - 1] + 1)) {
        return errors::InvalidArgument("segments must number each row's runs 0, 1, 2, ...; got ",
                                       seg[start], " at ", start);
      }
      T sum = 0;
      for (int64_t i = start; i < end; ++i) sum += g[i];
      for (int64_t i = start; i < end; ++i) dx[i] = sum / static_cast<T>(end - start);
      start = end;
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_ISOTONIC(T, unused)                                                    \
  RILL_REGISTER_KERNEL("IsotonicRegression", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       IsotonicOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_ISOTONIC, _)
#undef RILL_REG_ISOTONIC
#define RILL_REG_ISOTONIC_GRAD(T, unused)                                                    \
  RILL_REGISTER_KERNEL("_IsotonicRegressionGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       IsotonicGradOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_ISOTONIC_GRAD, _)
#undef RILL_REG_ISOTONIC_GRAD

}  // namespace
}  // namespace rill::cpu
