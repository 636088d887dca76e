// CPU kernels of the fake quantization ops and their gradients: core/fake_quant.h's nudged
// ranges (one, or one per channel of the last dim), then each element.
#include <vector>

#include "rill/core/fake_quant.h"

namespace rill::cpu {
namespace {

// The ranges the node asks for: its attrs (Args ops) or its min and max inputs (from
// input `first`).
absl::StatusOr<std::vector<QuantRange>> Ranges(OpKernelContext& ctx, const QuantAttrs& a, bool vars,
                                               bool per_channel, int first) {
  if (!vars)
    return std::vector<QuantRange>{NudgeQuantRange(a.min, a.max, a.num_bits, a.narrow_range)};
  return ReadQuantRanges(ctx.input(first), ctx.input(first + 1), ctx.input(first + 2), per_channel,
                         a);
}

template <bool kVars, bool kPerChannel>
class FakeQuantOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const QuantAttrs a, ReadQuantAttrs(node().attrs(), !kVars));
    RILL_ASSIGN_OR_RETURN(const auto ranges, Ranges(ctx, a, kVars, kPerChannel, 0));
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    const float* in = x.base<float>();
    float* y = out->base<float>();
    const int64_t channels = static_cast<int64_t>(ranges.size());
    for (int64_t i = 0; i < x.NumElements(); ++i) y[i] = FakeQuantize(in[i], ranges[i % channels]);
    return absl::OkStatus();
  }
};

// Gradients: backprops (Args), or backprops and the sums below and above each range (Vars).
template <bool kVars, bool kPerChannel>
class FakeQuantGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const QuantAttrs a, ReadQuantAttrs(node().attrs(), !kVars));
    RILL_ASSIGN_OR_RETURN(const auto ranges, Ranges(ctx, a, kVars, kPerChannel, 1));
    const Tensor &g = ctx.input(0), &x = ctx.input(1);
    if (g.shape() != x.shape()) {
      return errors::InvalidArgument("gradients and inputs must have one shape, got ",
                                     g.shape().DebugString(), " and ", x.shape().DebugString());
    }
    Tensor* dx;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &dx));
    const int64_t channels = static_cast<int64_t>(ranges.size());
    std::vector<double> below(static_cast<size_t>(channels)), above(below.size());
    const float *gi = g.base<float>(), *xi = x.base<float>();
    float* d = dx->base<float>();
    for (int64_t i = 0; i < x.NumElements(); ++i) {
      const QuantRange& r = ranges[i % channels];
      const bool inside = xi[i] >= r.min && xi[i] <= r.max;
      d[i] = inside ? gi[i] : 0.0f;
      if (xi[i] < r.min) below[i % channels] += gi[i];
      if (xi[i] > r.max) above[i % channels] += gi[i];
    }
    if constexpr (kVars) {
      const TensorShape range_shape = ctx.input(2).shape();
      Tensor *dmin, *dmax;
      RILL_RETURN_IF_ERROR(ctx.allocate_output(1, range_shape, &dmin));
      RILL_RETURN_IF_ERROR(ctx.allocate_output(2, range_shape, &dmax));
      for (int64_t c = 0; c < channels; ++c) {
        dmin->base<float>()[c] = static_cast<float>(below[c]);
        dmax->base<float>()[c] = static_cast<float>(above[c]);
      }
    }
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("FakeQuantWithMinMaxArgs", DEVICE_CPU, "", DT_INVALID,
                     FakeQuantOp<false, false>);
RILL_REGISTER_KERNEL("FakeQuantWithMinMaxVars", DEVICE_CPU, "", DT_INVALID,
                     FakeQuantOp<true, false>);
RILL_REGISTER_KERNEL("FakeQuantWithMinMaxVarsPerChannel", DEVICE_CPU, "", DT_INVALID,
                     FakeQuantOp<true, true>);
RILL_REGISTER_KERNEL("FakeQuantWithMinMaxArgsGradient", DEVICE_CPU, "", DT_INVALID,
                     FakeQuantGradOp<false, false>);
RILL_REGISTER_KERNEL("FakeQuantWithMinMaxVarsGradient", DEVICE_CPU, "", DT_INVALID,
                     FakeQuantGradOp<true, false>);
RILL_REGISTER_KERNEL("FakeQuantWithMinMaxVarsPerChannelGradient", DEVICE_CPU, "", DT_INVALID,
                     FakeQuantGradOp<true, true>);

}  // namespace
}  // namespace rill::cpu
