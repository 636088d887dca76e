// CPU kernels of MaxPool (and MaxPoolV2), AvgPool and their gradients over NHWC tensors. Padding
// never wins a max and is not counted in an average; a max's gradient goes to the first maximal
// element of its window (scan order), as TensorFlow's CPU kernel does.
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "rill/core/conv_kernel_util.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

// Calls f(out_index, in_index_of_each_window_element...) per window, per channel.
template <typename F>
void ForEachWindow(const Conv2DGeometry& g, F f) {
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t oh = 0; oh < g.out_h; ++oh) {
      const int64_t h0 = std::max<int64_t>(oh * g.stride_h - g.pad_top, 0);
      const int64_t h1 = std::min<int64_t>(oh * g.stride_h - g.pad_top + g.k_h, g.in_h);
      for (int64_t ow = 0; ow < g.out_w; ++ow) {
        const int64_t w0 = std::max<int64_t>(ow * g.stride_w - g.pad_left, 0);
        const int64_t w1 = std::min<int64_t>(ow * g.stride_w - g.pad_left + g.k_w, g.in_w);
        const int64_t out_base = ((n * g.out_h + oh) * g.out_w + ow) * g.in_c;
        f(out_base, n, h0, h1, w0, w1);
      }
    }
  }
}

// kWindow >= 0: ksize and strides are host inputs kWindow and kWindow + 1 (MaxPoolV2,
// MaxPoolGradV2), not attrs.
template <typename T, bool kMax, int kWindow = -1>
class PoolOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PreparePool(ctx, &out, kWindow));
    const T* in = x.base<T>();
    T* o = out->base<T>();
    const int64_t C = g.in_c;
    // Window position outer, channels inner: every read is a contiguous run of C values,
    // and the channel loop vectorizes.
    ForEachWindow(g, [&](int64_t ob, int64_t n, int64_t h0, int64_t h1, int64_t w0, int64_t w1) {
      T* dst = o + ob;
      std::fill(dst, dst + C, kMax ? -std::numeric_limits<T>::infinity() : T(0));
      for (int64_t h = h0; h < h1; ++h) {
        for (int64_t w = w0; w < w1; ++w) {
          const T* src = in + ((n * g.in_h + h) * g.in_w + w) * C;
          for (int64_t c = 0; c < C; ++c) {
            dst[c] = kMax ? (src[c] > dst[c] ? src[c] : dst[c]) : dst[c] + src[c];
          }
        }
      }
      if (!kMax) {
        const T scale = T(1) / static_cast<T>((h1 - h0) * (w1 - w0));
        for (int64_t c = 0; c < C; ++c) dst[c] *= scale;
      }
    });
    return absl::OkStatus();
  }
};

template <typename T, int kWindow = -1>
class MaxPoolGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& dy = ctx.input(2);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PrepareMaxPoolGrad(ctx, &out, kWindow));
    std::memset(out->data(), 0, out->TotalBytes());
    const T* in = x.base<T>();
    const T* d = dy.base<T>();
    T* o = out->base<T>();
    const int64_t C = g.in_c;
    // Per window: the first maximal element of each channel (scan order), found with the
    // channels inner as in the forward pass, then its gradient added. On the stack up to
    // 128 channels (no allocation per run for usual layers).
    // The loops index raw pointers: InlinedVector's operator[] branches on where its
    // elements live, which kept the channel loop from vectorizing (MaxPoolGrad took twice
    // as long).
    absl::InlinedVector<T, 128> best_store(C);
    absl::InlinedVector<int64_t, 128> where_store(C);
    T* const best = best_store.data();
    int64_t* const where = where_store.data();
    ForEachWindow(g, [&](int64_t ob, int64_t n, int64_t h0, int64_t h1, int64_t w0, int64_t w1) {
      if (h0 >= h1 || w0 >= w1) return;
      bool first = true;
      for (int64_t h = h0; h < h1; ++h) {
        for (int64_t w = w0; w < w1; ++w) {
          const int64_t base = ((n * g.in_h + h) * g.in_w + w) * C;
          const T* src = in + base;
          for (int64_t c = 0; c < C; ++c) {
            const bool take = first || src[c] > best[c];
            best[c] = take ? src[c] : best[c];
            where[c] = take ? base + c : where[c];
          }
          first = false;
        }
      }
      for (int64_t c = 0; c < C; ++c) o[where[c]] += d[ob + c];
    });
    return absl::OkStatus();
  }
};

template <typename T>
class AvgPoolGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& dy = ctx.input(1);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PrepareAvgPoolGrad(ctx, &out));
    std::memset(out->data(), 0, out->TotalBytes());
    const T* d = dy.base<T>();
    T* o = out->base<T>();
    const int64_t C = g.in_c;
    ForEachWindow(g, [&](int64_t ob, int64_t n, int64_t h0, int64_t h1, int64_t w0, int64_t w1) {
      const T scale = T(1) / static_cast<T>((h1 - h0) * (w1 - w0));
      for (int64_t h = h0; h < h1; ++h)
        for (int64_t w = w0; w < w1; ++w) {
          T* dst = o + ((n * g.in_h + h) * g.in_w + w) * C;
          for (int64_t c = 0; c < C; ++c) dst[c] += d[ob + c] * scale;
        }
    });
    return absl::OkStatus();
  }
};

#define RILL_REG_POOL(T, unused)                                                                \
  RILL_REGISTER_KERNEL("MaxPool", DEVICE_CPU, "T", DataTypeToEnum<T>::value, PoolOp<T, true>);  \
  RILL_REGISTER_KERNEL("AvgPool", DEVICE_CPU, "T", DataTypeToEnum<T>::value, PoolOp<T, false>); \
  RILL_REGISTER_KERNEL("MaxPoolGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,                \
                       MaxPoolGradOp<T>);                                                       \
  RILL_REGISTER_KERNEL("AvgPoolGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value,                \
                       AvgPoolGradOp<T>);                                                       \
  RILL_REGISTER_KERNEL("MaxPoolV2", DEVICE_CPU, "T", DataTypeToEnum<T>::value,                  \
                       PoolOp<T, true, 1>);                                                     \
  RILL_REGISTER_KERNEL("MaxPoolGradV2", DEVICE_CPU, "T", DataTypeToEnum<T>::value,              \
                       MaxPoolGradOp<T, 3>);
RILL_FOR_FLOAT_TYPES(RILL_REG_POOL, 0)

}  // namespace
}  // namespace rill::cpu
