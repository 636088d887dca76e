// CPU kernels of DepthwiseConv2dNative and its two gradients. Float goes through oneDNN's
// grouped convolution (one group per input channel: oneDNN's depthwise kernels); double,
// and geometries oneDNN refuses, through the row functions the GPU kernels share
// (core/depthwise_row.h), one output value at a time.
#include "rill/core/conv_kernel_util.h"
#include "rill/core/depthwise_row.h"
#include "rill/kernels/cpu/conv_epilogue.h"
#include "rill/kernels/cpu/dnnl_conv.h"

namespace rill::cpu {
namespace {

template <typename T, ConvMode kMode>
void DirectDepthwise(const DepthwiseDims& d, const Tensor& in0, const Tensor& in1,
                     const Tensor& in2, T* out) {
  if constexpr (kMode == ConvMode::kForward) {
    const T* x = in0.base<T>();
    const T* f = in1.base<T>();
    const int64_t out_c = d.c * d.m;
    for (int64_t b = 0; b < d.batch; ++b)
      for (int64_t oh = 0; oh < d.out_h; ++oh)
        for (int64_t ow = 0; ow < d.out_w; ++ow)
          for (int64_t oc = 0; oc < out_c; ++oc) *out++ = DepthwiseOutput(d, x, f, b, oh, ow, oc);
  } else if constexpr (kMode == ConvMode::kBackpropInput) {
    const T* f = in1.base<T>();
    const T* dy = in2.base<T>();
    for (int64_t b = 0; b < d.batch; ++b)
      for (int64_t ih = 0; ih < d.in_h; ++ih)
        for (int64_t iw = 0; iw < d.in_w; ++iw)
          for (int64_t ch = 0; ch < d.c; ++ch) *out++ = DepthwiseInputGrad(d, f, dy, b, ih, iw, ch);
  } else {
    const T* x = in0.base<T>();
    const T* dy = in2.base<T>();
    const int64_t out_c = d.c * d.m;
    for (int64_t i = 0; i < d.k_h; ++i)
      for (int64_t j = 0; j < d.k_w; ++j)
        for (int64_t oc = 0; oc < out_c; ++oc) *out++ = DepthwiseFilterGrad(d, x, dy, i, j, oc);
  }
}

// Input 0 is the input (forward, filter backprop) or input_sizes; input 1 the filter or
// filter_sizes; input 2 out_backprop. kEpilogue (forward):
// _FusedDepthwiseConv2dNativeElementwise(input, filter, operands...) (conv_epilogue.h).
template <typename T, ConvMode kMode, bool kEpilogue = false>
class DepthwiseOp : public OpKernel {
 public:
  explicit DepthwiseOp(OpKernelConstruction& c)
      : OpKernel(c), constant_filter_(kMode == ConvMode::kForward && InputIsConstant(c.node(), 1)) {
    if constexpr (kEpilogue) epilogue_.emplace(c);
  }
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PrepareConv2D(ctx, kMode, &out, /*depthwise=*/true));
    ConvPostOps storage;
    const ConvPostOps* post = nullptr;
    if constexpr (kEpilogue) {
      RILL_RETURN_IF_ERROR(epilogue_->Check(ctx, out->shape()));
      post = epilogue_->PostOps(ctx, out->shape(), &storage);
    }
    if (out->NumElements() == 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(const bool finished, Convolve(ctx, g, post, out));
    if constexpr (kEpilogue) {
      if (!finished) epilogue_->Apply(ctx, out);
    }
    return absl::OkStatus();
  }

 private:
  // Computes out; true when oneDNN applied `post` too.
  absl::StatusOr<bool> Convolve(OpKernelContext& ctx, const Conv2DGeometry& g,
                                const ConvPostOps* post, Tensor* out) {
    const Tensor& in2 = kMode == ConvMode::kForward ? ctx.input(1) : ctx.input(2);
    if constexpr (std::is_same_v<T, float>) {
      if (DnnlConv::Supports(g)) {
        constexpr ConvPass kPass = kMode == ConvMode::kForward         ? ConvPass::kForward
                                   : kMode == ConvMode::kBackpropInput ? ConvPass::kBackwardData
                                                                       : ConvPass::kBackwardWeights;
        const float* a =
            (kMode == ConvMode::kBackpropInput ? ctx.input(1) : ctx.input(0)).base<float>();
        absl::Status st = dnnl_.Run(kPass, g, a, in2.base<float>(), out->base<float>(), nullptr,
                                    constant_filter_, post);
        if (absl::IsUnimplemented(st) && post != nullptr) {  // the convolution alone, then
          post = nullptr;                                    // the epilogue after it
          st = dnnl_.Run(kPass, g, a, in2.base<float>(), out->base<float>(), nullptr,
                         constant_filter_, nullptr);
        }
        if (st.ok()) return post != nullptr;
        if (!absl::IsUnimplemented(st)) return st;  // else the direct path below
      }
    }
    DirectDepthwise<T, kMode>(DepthwiseDimsOf(g), ctx.input(0), ctx.input(1), in2, out->base<T>());
    return false;
  }

  const bool constant_filter_;
  DnnlConv dnnl_;                            // float only
  std::optional<ConvEpilogue<T>> epilogue_;  // kEpilogue's
};

#define RILL_REG_DEPTHWISE(T, unused)                                                       \
  RILL_REGISTER_KERNEL("DepthwiseConv2dNative", DEVICE_CPU, "T", DataTypeToEnum<T>::value,  \
                       DepthwiseOp<T, ConvMode::kForward>);                                 \
  RILL_REGISTER_KERNEL("DepthwiseConv2dNativeBackpropInput", DEVICE_CPU, "T",               \
                       DataTypeToEnum<T>::value, DepthwiseOp<T, ConvMode::kBackpropInput>); \
  RILL_REGISTER_KERNEL("DepthwiseConv2dNativeBackpropFilter", DEVICE_CPU, "T",              \
                       DataTypeToEnum<T>::value, DepthwiseOp<T, ConvMode::kBackpropFilter>);
RILL_FOR_FLOAT_TYPES(RILL_REG_DEPTHWISE, 0)
#define RILL_REG_DEPTHWISE_EPILOGUE(T, unused)                                    \
  RILL_REGISTER_KERNEL("_FusedDepthwiseConv2dNativeElementwise", DEVICE_CPU, "T", \
                       DataTypeToEnum<T>::value, DepthwiseOp<T, ConvMode::kForward, true>);
RILL_FOR_FLOAT_TYPES(RILL_REG_DEPTHWISE_EPILOGUE, 0)

}  // namespace
}  // namespace rill::cpu
