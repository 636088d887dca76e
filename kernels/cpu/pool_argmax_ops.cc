// CPU kernels of MaxPoolWithArgmax (through the row function the GPU kernel shares,
// core/pool_argmax_row.h) and MaxPoolGradWithArgmax, which adds each gradient value at its
// argmax after checking that the index lies in its own image (TensorFlow's CPU kernel
// checks the same: an argmax is an input, and may be anything).
#include <cstring>

#include "rill/core/conv_kernel_util.h"

namespace rill::cpu {
namespace {

// Targmax (int32 or int64) is chosen per run from the argmax tensor's dtype.
template <typename T>
class MaxPoolWithArgmaxOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor *out, *argmax;
    RILL_ASSIGN_OR_RETURN(ArgmaxPoolDims d, PrepareMaxPoolWithArgmax(ctx, &out, &argmax));
    if (argmax->dtype() == DT_INT32) return Pool<int32_t>(d, ctx.input(0), out, argmax);
    return Pool<int64_t>(d, ctx.input(0), out, argmax);
  }

 private:
  template <typename Index>
  absl::Status Pool(const ArgmaxPoolDims& d, const Tensor& in, Tensor* out, Tensor* argmax) {
    const T* x = in.base<T>();
    T* y = out->base<T>();
    Index* a = argmax->base<Index>();
    for (int64_t e = 0; e < out->NumElements(); ++e) {
      a[e] = static_cast<Index>(MaxPoolArgmaxAt(d, x, e, &y[e]));
    }
    return absl::OkStatus();
  }
};

template <typename T>
class MaxPoolGradWithArgmaxOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(ArgmaxPoolDims d, PrepareMaxPoolGradWithArgmax(ctx, &out));
    std::memset(out->data(), 0, out->TotalBytes());
    if (ctx.input(2).dtype() == DT_INT32) return Scatter<int32_t>(ctx, d, out);
    return Scatter<int64_t>(ctx, d, out);
  }

 private:
  template <typename Index>
  absl::Status Scatter(OpKernelContext& ctx, const ArgmaxPoolDims& d, Tensor* out) {
    const T* dy = ctx.input(1).base<T>();
    const Index* a = ctx.input(2).base<Index>();
    T* dx = out->base<T>();
    const int64_t image = d.in_h * d.in_w * d.c, pooled = d.out_h * d.out_w * d.c;
    for (int64_t e = 0; e < ctx.input(1).NumElements(); ++e) {
      const int64_t n = e / pooled, first = d.include_batch ? n * image : 0;
      const int64_t i = static_cast<int64_t>(a[e]);
      if (i < first || i >= first + image) {
        return errors::InvalidArgument("argmax ", i, " at pooled element ", e, " is outside image ",
                                       n, "'s indices [", first, ", ", first + image, ")");
      }
      dx[i - first + n * image] += dy[e];
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_ARGMAX(T, unused)                                                         \
  RILL_REGISTER_KERNEL("MaxPoolWithArgmax", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       MaxPoolWithArgmaxOp<T>);                                            \
  RILL_REGISTER_KERNEL("MaxPoolGradWithArgmax", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       MaxPoolGradWithArgmaxOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_ARGMAX, 0)

}  // namespace
}  // namespace rill::cpu
