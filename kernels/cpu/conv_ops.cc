// CPU kernels of Conv2D and its two gradients: oneDNN's convolution primitives for float
// (dnnl_conv.h); otherwise (double, or a geometry oneDNN refuses) im2col
// per image, then one GEMM (oneDNN sgemm for float, Eigen for double). _FusedConv2D, the
// forward pass with its bias and activation. BiasAdd and BiasAddGrad.
#include <array>
#include <cstring>

#include "rill/core/conv_kernel_util.h"
#include "rill/kernels/cpu/bias_activation.h"
#include "rill/kernels/cpu/conv_epilogue.h"
#include "rill/kernels/cpu/cwise.h"
#include "rill/kernels/cpu/dnnl_conv.h"
#include "rill/kernels/cpu/gemm.h"

namespace rill::cpu {
namespace {

// cols[p, (i * k_w + j) * c + ch] = x[row p's window tap (i, j) (dilated), ch], zero in the
// padding.
template <typename T>
void Im2Col(const Conv2DGeometry& g, const T* x, T* cols) {
  const int64_t K = g.k_h * g.k_w * g.in_c;
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    for (int64_t ow = 0; ow < g.out_w; ++ow) {
      T* row = cols + (oh * g.out_w + ow) * K;
      for (int64_t i = 0; i < g.k_h; ++i) {
        const int64_t ih = oh * g.stride_h - g.pad_top + i * g.dilation_h;
        for (int64_t j = 0; j < g.k_w; ++j) {
          const int64_t iw = ow * g.stride_w - g.pad_left + j * g.dilation_w;
          T* dst = row + (i * g.k_w + j) * g.in_c;
          if (ih < 0 || ih >= g.in_h || iw < 0 || iw >= g.in_w) {
            std::memset(dst, 0, g.in_c * sizeof(T));
          } else {
            std::memcpy(dst, x + (ih * g.in_w + iw) * g.in_c, g.in_c * sizeof(T));
          }
        }
      }
    }
  }
}

// The transpose of Im2Col: dx[window elements] += cols.
template <typename T>
void Col2Im(const Conv2DGeometry& g, const T* cols, T* dx) {
  const int64_t K = g.k_h * g.k_w * g.in_c;
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    for (int64_t ow = 0; ow < g.out_w; ++ow) {
      const T* row = cols + (oh * g.out_w + ow) * K;
      for (int64_t i = 0; i < g.k_h; ++i) {
        const int64_t ih = oh * g.stride_h - g.pad_top + i * g.dilation_h;
        if (ih < 0 || ih >= g.in_h) continue;
        for (int64_t j = 0; j < g.k_w; ++j) {
          const int64_t iw = ow * g.stride_w - g.pad_left + j * g.dilation_w;
          if (iw < 0 || iw >= g.in_w) continue;
          T* dst = dx + (ih * g.in_w + iw) * g.in_c;
          const T* src = row + (i * g.k_w + j) * g.in_c;
          for (int64_t ch = 0; ch < g.in_c; ++ch) dst[ch] += src[ch];
        }
      }
    }
  }
}

// kMode 0: Conv2D(input, filter); 1: BackpropInput(sizes, filter, dy);
// 2: BackpropFilter(input, sizes, dy). kFused (kMode 0): _FusedConv2D(input, filter, args),
// whose bias and Relu/Sigmoid/Tanh oneDNN applies in the primitive; any other end (a batch
// norm, Relu6, Elu, LeakyRelu, the bias alone), or the im2col path, finishes after it.
// kEpilogue (kMode 0): _FusedConv2DElementwise(input, filter, operands...), the same with
// an elementwise program (conv_epilogue.h).
template <typename T, int kMode, bool kFused = false, bool kEpilogue = false>
class ConvOp : public OpKernel {
 public:
  explicit ConvOp(OpKernelConstruction& c)
      : OpKernel(c),
        fused_(FusedOf(c)),
        act_(fused_.ok() && !fused_->batch_norm ? fused_->bias_activation() : std::nullopt),
        constant_filter_(kMode == 0 && InputIsConstant(c.node(), 1)),
        dnnl_(act_) {
    if constexpr (kEpilogue) epilogue_.emplace(c);
  }
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PrepareConv2D(ctx, static_cast<ConvMode>(kMode), &out));
    const T* bias = nullptr;            // what oneDNN adds in the primitive
    std::array<const T*, 4> args = {};  // no allocation in a step
    if constexpr (kFused) {
      RILL_RETURN_IF_ERROR(fused_.status());
      for (int i = 0; i < fused_->num_args(); ++i) {
        RILL_RETURN_IF_ERROR(CheckFusedBias(ctx, 2 + i, out->shape()));
        args[i] = ctx.input(2 + i).base<T>();
      }
      if (act_) bias = args[0];
    }
    ConvPostOps storage;
    const ConvPostOps* post = nullptr;
    if constexpr (kEpilogue) {
      RILL_RETURN_IF_ERROR(epilogue_->Check(ctx, out->shape()));
      post = epilogue_->PostOps(ctx, out->shape(), &storage);
    }
    bool finished = false;  // the bias and activation, or the epilogue, applied too
    RILL_RETURN_IF_ERROR(Convolve(ctx, g, bias, post, out, &finished));
    if (kFused && !finished) {
      FusedEpilogueRows<T>(*fused_, out->base<T>(), args, g.batch * g.out_h * g.out_w, g.out_c);
    }
    if constexpr (kEpilogue) {
      if (!finished) epilogue_->Apply(ctx, out);
    }
    return absl::OkStatus();
  }

 private:
  static absl::StatusOr<FusedEpilogue> FusedOf(const OpKernelConstruction& c) {
    if constexpr (!kFused) return FusedEpilogue();
    return ParseFusedConv2DEpilogue(c.node().attrs());
  }

  absl::Status Convolve(OpKernelContext& ctx, const Conv2DGeometry& g, const T* bias,
                        const ConvPostOps* post, Tensor* out, bool* finished) {
    const Tensor* dy = kMode == 0 ? nullptr : &ctx.input(2);
    const int64_t P = g.out_h * g.out_w, K = g.k_h * g.k_w * g.in_c;
    if (out->NumElements() == 0 || P == 0 || K == 0) {
      std::memset(out->data(), 0, out->TotalBytes());
      return absl::OkStatus();
    }
    if constexpr (std::is_same_v<T, float>) {
      if (DnnlConv::Supports(g)) {
        constexpr auto kPass = static_cast<ConvPass>(kMode);
        constexpr auto kConvMode = static_cast<ConvMode>(kMode);
        const float* a = ConvOperandA(ctx, kConvMode).base<float>();
        const float* b = ConvOperandB(ctx, kConvMode).base<float>();
        absl::Status st =
            dnnl_.Run(kPass, g, a, b, out->base<float>(), bias, constant_filter_, post);
        if (absl::IsUnimplemented(st) && post != nullptr) {  // the convolution alone, then
          post = nullptr;                                    // the epilogue after it
          st = dnnl_.Run(kPass, g, a, b, out->base<float>(), bias, constant_filter_, nullptr);
        }
        *finished = st.ok() && (bias != nullptr || post != nullptr);
        if (!absl::IsUnimplemented(st)) return st;  // else the im2col path below
      }
    }
    if (kMode != 0) std::memset(out->data(), 0, out->TotalBytes());
    RILL_ASSIGN_OR_RETURN(Tensor cols,
                          Tensor::Create(DataTypeToEnum<T>::value, TensorShape({P, K})));
    const int64_t in_image = g.in_h * g.in_w * g.in_c, out_image = P * g.out_c;
    for (int64_t n = 0; n < g.batch; ++n) {
      if constexpr (kMode == 0) {
        Im2Col(g, ctx.input(0).base<T>() + n * in_image, cols.base<T>());
        RILL_RETURN_IF_ERROR(Gemm<T>(false, false, P, g.out_c, K, T(1), cols.base<T>(), K,
                                     ctx.input(1).base<T>(), g.out_c, T(0),
                                     out->base<T>() + n * out_image, g.out_c));
      } else if constexpr (kMode == 1) {
        RILL_RETURN_IF_ERROR(Gemm<T>(false, true, P, K, g.out_c, T(1),
                                     dy->base<T>() + n * out_image, g.out_c, ctx.input(1).base<T>(),
                                     g.out_c, T(0), cols.base<T>(), K));
        Col2Im(g, cols.base<T>(), out->base<T>() + n * in_image);
      } else {
        Im2Col(g, ctx.input(0).base<T>() + n * in_image, cols.base<T>());
        RILL_RETURN_IF_ERROR(Gemm<T>(true, false, K, g.out_c, P, T(1), cols.base<T>(), K,
                                     dy->base<T>() + n * out_image, g.out_c, T(1), out->base<T>(),
                                     g.out_c));
      }
    }
    return absl::OkStatus();
  }

  const absl::StatusOr<FusedEpilogue> fused_;  // _FusedConv2D's end
  const std::optional<FusedActivation> act_;   // the part of it oneDNN applies
  const bool constant_filter_;                 // the forward's filter is a Const's value
  DnnlConv dnnl_;                              // float only
  std::optional<ConvEpilogue<T>> epilogue_;    // kEpilogue's
};

template <typename T>
class BiasAddOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& v = ctx.input(0);
    const Tensor& b = ctx.input(1);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t c, PrepareBiasAdd(ctx, &out));
    const int64_t rows = c == 0 ? 0 : v.NumElements() / c;
    using M = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<const M> in(v.base<T>(), rows, c);
    Eigen::Map<M> o(out->base<T>(), rows, c);
    o = in.rowwise() + Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>>(b.base<T>(), c);
    return absl::OkStatus();
  }
};

template <typename T>
class BiasAddGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& d = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const BiasGradGeometry bg, PrepareBiasAddGrad(ctx, &out));
    const int64_t c = bg.channels, rows = bg.rows;
    using M = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<const M> in(d.base<T>(), rows, c);
    Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>> o(out->base<T>(), c);
    if (rows == 0) {
      o.setZero();
    } else {
      o = in.colwise().sum();
    }
    return absl::OkStatus();
  }
};

#define RILL_REG_CONV(T, unused)                                                           \
  RILL_REGISTER_KERNEL("Conv2D", DEVICE_CPU, "T", DataTypeToEnum<T>::value, ConvOp<T, 0>); \
  RILL_REGISTER_KERNEL("Conv2DBackpropInput", DEVICE_CPU, "T", DataTypeToEnum<T>::value,   \
                       ConvOp<T, 1>);                                                      \
  RILL_REGISTER_KERNEL("Conv2DBackpropFilter", DEVICE_CPU, "T", DataTypeToEnum<T>::value,  \
                       ConvOp<T, 2>);
RILL_FOR_FLOAT_TYPES(RILL_REG_CONV, 0)
#define RILL_REG_FUSED_CONV(T, unused)                                            \
  RILL_REGISTER_KERNEL("_FusedConv2D", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ConvOp<T, 0, true>);
RILL_FOR_FLOAT_TYPES(RILL_REG_FUSED_CONV, 0)
#define RILL_REG_CONV_EPILOGUE(T, unused)                                                    \
  RILL_REGISTER_KERNEL("_FusedConv2DElementwise", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ConvOp<T, 0, false, true>);
RILL_FOR_FLOAT_TYPES(RILL_REG_CONV_EPILOGUE, 0)
#define RILL_REG_BIAS(T, unused)                                                            \
  RILL_REGISTER_KERNEL("BiasAdd", DEVICE_CPU, "T", DataTypeToEnum<T>::value, BiasAddOp<T>); \
  RILL_REGISTER_KERNEL("BiasAddGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, BiasAddGradOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_BIAS, 0)

}  // namespace
}  // namespace rill::cpu
