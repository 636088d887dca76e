// FusedBatchNorm (V1, V2, V3, and _FusedBatchNormEx: V3 with a side input and Relu after
// it) and its gradient ops on the CPU, in either layout (NHWC or NCHW, and their 3-D forms)
// without a transpose: x is walked as [outer, channels, inner] (core/batch_norm.h). Channel sums
// are accumulated in double, so float statistics over large batches keep their precision; the
// arithmetic on them is core/batch_norm_row.h's.
#include <cmath>
#include <limits>
#include <vector>

#include "rill/core/batch_norm.h"
#include "rill/core/batch_norm_row.h"

namespace rill::cpu {
namespace {

// Calls f(channel, flat index) for every element of x in memory order.
template <typename F>
void ForEachElement(const BatchNormGeometry& g, F&& f) {
  int64_t i = 0;
  for (int64_t o = 0; o < g.outer; ++o) {
    for (int64_t c = 0; c < g.channels; ++c) {
      for (int64_t k = 0; k < g.inner; ++k, ++i) f(c, i);
    }
  }
}

// The batch's mean and biased variance per channel (two passes: the variance of the
// centred values, which does not cancel as sum(x^2) - n mean^2 would).
template <typename T>
void ChannelMoments(const T* x, const BatchNormGeometry& g, T* mean, T* variance) {
  const double n = static_cast<double>(g.PerChannel());
  std::vector<double> sum(g.channels, 0.0), centred(g.channels, 0.0);
  ForEachElement(g, [&](int64_t c, int64_t i) { sum[c] += x[i]; });
  for (int64_t c = 0; c < g.channels; ++c) sum[c] /= n;
  ForEachElement(g, [&](int64_t c, int64_t i) {
    const double d = x[i] - sum[c];
    centred[c] += d * d;
  });
  for (int64_t c = 0; c < g.channels; ++c) {
    mean[c] = static_cast<T>(sum[c]);
    variance[c] = static_cast<T>(centred[c] / n);
  }
}

template <typename T>
void FillNaN(Tensor* t) {
  std::fill_n(t->base<T>(), t->NumElements(), std::numeric_limits<T>::quiet_NaN());
}

// _FusedBatchNormEx's epilogue: y += side_input, then Relu, as its attrs ask.
struct BatchNormEpilogue {
  bool side_input = false;
  bool relu = false;
  explicit BatchNormEpilogue(const AttrMap& attrs) {
    auto sides = attrs.find("num_side_inputs");
    auto mode = attrs.find("activation_mode");
    side_input = sides != attrs.end() && std::get<int64_t>(sides->second) > 0;
    relu = mode != attrs.end() && std::get<std::string>(mode->second) == "Relu";
  }
};

template <typename T>
class FusedBatchNormOp : public OpKernel {
 public:
  explicit FusedBatchNormOp(OpKernelConstruction& c)
      : OpKernel(c), a_(BatchNormAttrsOf(c.node().attrs())), epilogue_(c.node().attrs()) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out[6];
    if (epilogue_.side_input && ctx.input(5).shape() != ctx.input(0).shape()) {
      return errors::InvalidArgument("side_input ", ctx.input(5).shape().DebugString(),
                                     " must have x's shape ", ctx.input(0).shape().DebugString());
    }
    RILL_ASSIGN_OR_RETURN(const BatchNormGeometry g, PrepareBatchNorm(ctx, a_, out));
    if (out[5] != nullptr) out[5]->base<T>()[0] = T(0);  // reserve_space_3: nothing to keep
    const int64_t n = g.PerChannel();
    if (n == 0) {  // no values: no statistics (TensorFlow's NaN)
      for (int i = 1; i < 5; ++i) FillNaN<T>(out[i]);
      return absl::OkStatus();
    }
    const T* x = ctx.input(0).base<T>();
    const T *scale = ctx.input(1).base<T>(), *offset = ctx.input(2).base<T>();
    const T *mean_in = ctx.input(3).base<T>(), *var_in = ctx.input(4).base<T>();
    // reserve_space_1 and _2 hold the statistics y is normalized with (what the
    // gradient reads back).
    T *mean = out[3]->base<T>(), *var = out[4]->base<T>();
    if (a_.is_training) {
      ChannelMoments(x, g, mean, var);
    } else {
      std::copy_n(mean_in, g.channels, mean);
      std::copy_n(var_in, g.channels, var);
    }
    std::vector<T> scale_inv(g.channels);
    for (int64_t c = 0; c < g.channels; ++c) {
      scale_inv[c] = scale[c] * BatchNormInvStd(var[c], T(a_.epsilon));
    }
    T* y = out[0]->base<T>();
    ForEachElement(g, [&](int64_t c, int64_t i) {
      y[i] = BatchNormValue(x[i], mean[c], scale_inv[c], offset[c]);
    });
    ApplyEpilogue(ctx, y, out[0]->NumElements());
    for (int64_t c = 0; c < g.channels; ++c) {
      if (a_.is_training) {
        const bool blend = a_.exponential_avg_factor != 1.0f;
        BatchNormRunning(mean[c], var[c], n, T(a_.exponential_avg_factor),
                         blend ? mean_in[c] : T(0), blend ? var_in[c] : T(0), blend,
                         &out[1]->base<T>()[c], &out[2]->base<T>()[c]);
      } else {
        out[1]->base<T>()[c] = mean[c];
        out[2]->base<T>()[c] = var[c];
      }
    }
    return absl::OkStatus();
  }

 private:
  void ApplyEpilogue(OpKernelContext& ctx, T* y, int64_t n) const {
    if (epilogue_.side_input) {
      const T* side = ctx.input(5).base<T>();
      for (int64_t i = 0; i < n; ++i) y[i] += side[i];
    }
    if (epilogue_.relu) {
      for (int64_t i = 0; i < n; ++i) y[i] = y[i] > T(0) ? y[i] : T(0);
    }
  }

  BatchNormAttrs a_;
  BatchNormEpilogue epilogue_;
};

template <typename T>
class FusedBatchNormGradOp : public OpKernel {
 public:
  explicit FusedBatchNormGradOp(OpKernelConstruction& c)
      : OpKernel(c), a_(BatchNormAttrsOf(c.node().attrs())) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out[5];
    RILL_ASSIGN_OR_RETURN(const BatchNormGeometry g, PrepareBatchNormGrad(ctx, a_, out));
    const T *dy = ctx.input(0).base<T>(), *x = ctx.input(1).base<T>();
    const T *scale = ctx.input(2).base<T>(), *mean = ctx.input(3).base<T>();
    const T* var = ctx.input(4).base<T>();
    T *scale_bp = out[1]->base<T>(), *offset_bp = out[2]->base<T>();
    std::vector<double> sum_dy(g.channels, 0.0), sum_dy_xc(g.channels, 0.0);
    ForEachElement(g, [&](int64_t c, int64_t i) {
      sum_dy[c] += dy[i];
      sum_dy_xc[c] += static_cast<double>(dy[i]) * (x[i] - mean[c]);
    });
    const int64_t n = g.PerChannel();
    std::vector<BatchNormBackpropCoefficients<T>> k(g.channels);
    for (int64_t c = 0; c < g.channels; ++c) {
      offset_bp[c] = static_cast<T>(sum_dy[c]);
      scale_bp[c] =
          n == 0 ? T(0) : static_cast<T>(sum_dy_xc[c]) * BatchNormInvStd(var[c], T(a_.epsilon));
      k[c] = BatchNormBackprop(scale[c], mean[c], var[c], T(a_.epsilon), offset_bp[c], scale_bp[c],
                               n, a_.is_training);
    }
    T* dx = out[0]->base<T>();
    ForEachElement(
        g, [&](int64_t c, int64_t i) { dx[i] = BatchNormBackpropValue(k[c], dy[i], x[i]); });
    return absl::OkStatus();
  }

 private:
  BatchNormAttrs a_;
};

#define RILL_REG_BATCH_NORM(T, version)                                                         \
  RILL_REGISTER_KERNEL("FusedBatchNorm" version, DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       FusedBatchNormOp<T>);                                                    \
  RILL_REGISTER_KERNEL("FusedBatchNormGrad" version, DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       FusedBatchNormGradOp<T>);
RILL_REG_BATCH_NORM(float, "")  // V1 is float only, as TensorFlow's
RILL_FOR_FLOAT_TYPES(RILL_REG_BATCH_NORM, "V2")
RILL_FOR_FLOAT_TYPES(RILL_REG_BATCH_NORM, "V3")
#undef RILL_REG_BATCH_NORM
#define RILL_REG_BATCH_NORM_EX(T, _)                                                   \
  RILL_REGISTER_KERNEL("_FusedBatchNormEx", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       FusedBatchNormOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_BATCH_NORM_EX)
#undef RILL_REG_BATCH_NORM_EX

}  // namespace
}  // namespace rill::cpu
