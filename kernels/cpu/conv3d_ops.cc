// CPU kernels of Conv3D, Conv3DBackpropInputV2 and Conv3DBackpropFilterV2: oneDNN's
// convolution primitives for float (dnnl_conv.h), which take dilations and groups as they
// are; otherwise (double, or a shape oneDNN refuses) per image and per group the windows
// gathered into rows (vol2col), then one GEMM, as the 2-D kernels' own path.
#include <cstring>

#include "rill/core/conv3d.h"
#include "rill/kernels/cpu/dnnl_conv.h"
#include "rill/kernels/cpu/gemm.h"

namespace rill::cpu {
namespace {

// Calls fn(col, in) for every tap of every output position's window, in the order of the
// rows [out_d, out_h, out_w] and columns [k_d, k_h, k_w, in_c / groups] of an image's
// window matrix: col is the tap's offset there, in its input element's offset in the image
// (channel 0), or -1 in the padding.
template <typename Fn>
void ForEachTap(const Conv3DDims& g, Fn fn) {
  const int64_t icg = g.in_c / g.groups;
  int64_t col = 0;
  int64_t o[3], t[3], p[3];
  for (o[0] = 0; o[0] < g.out[0]; ++o[0])
    for (o[1] = 0; o[1] < g.out[1]; ++o[1])
      for (o[2] = 0; o[2] < g.out[2]; ++o[2])
        for (t[0] = 0; t[0] < g.k[0]; ++t[0])
          for (t[1] = 0; t[1] < g.k[1]; ++t[1])
            for (t[2] = 0; t[2] < g.k[2]; ++t[2], col += icg) {
              bool inside = true;
              for (int d = 0; d < 3; ++d) {
                p[d] = o[d] * g.stride[d] - g.pad[d] + t[d] * g.dilation[d];
                inside = inside && p[d] >= 0 && p[d] < g.in[d];
              }
              fn(col, inside ? ((p[0] * g.in[1] + p[1]) * g.in[2] + p[2]) * g.in_c : -1);
            }
}

// cols = group `grp`'s windows of image x (zeros in the padding).
template <typename T>
void Vol2Col(const Conv3DDims& g, const T* x, int64_t grp, T* cols) {
  const int64_t icg = g.in_c / g.groups;
  ForEachTap(g, [&](int64_t col, int64_t in) {
    if (in < 0) {
      std::memset(cols + col, 0, icg * sizeof(T));
    } else {
      std::memcpy(cols + col, x + in + grp * icg, icg * sizeof(T));
    }
  });
}

// The transpose of Vol2Col: dx[the taps' elements] += cols.
template <typename T>
void Col2Vol(const Conv3DDims& g, const T* cols, int64_t grp, T* dx) {
  const int64_t icg = g.in_c / g.groups;
  ForEachTap(g, [&](int64_t col, int64_t in) {
    if (in < 0) return;
    T* dst = dx + in + grp * icg;
    for (int64_t ch = 0; ch < icg; ++ch) dst[ch] += cols[col + ch];
  });
}

// kMode 0: Conv3D(input, filter); 1: Conv3DBackpropInputV2(sizes, filter, dy);
// 2: Conv3DBackpropFilterV2(input, sizes, dy).
template <typename T, int kMode>
class Conv3DOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv3DDims g, PrepareConv3D(ctx, static_cast<ConvMode>(kMode), &out));
    const int64_t P = g.out[0] * g.out[1] * g.out[2];
    const int64_t K = g.k[0] * g.k[1] * g.k[2] * (g.in_c / g.groups);
    if (out->NumElements() == 0 || P == 0 || K == 0 || g.out_c == 0) {
      std::memset(out->data(), 0, out->TotalBytes());
      return absl::OkStatus();
    }
    if constexpr (std::is_same_v<T, float>) {
      if (DnnlConv::Supports(g)) {
        constexpr auto kPass = static_cast<ConvPass>(kMode);
        constexpr auto kConvMode = static_cast<ConvMode>(kMode);
        absl::Status st = dnnl_.Run(kPass, g, ConvOperandA(ctx, kConvMode).base<float>(),
                                    ConvOperandB(ctx, kConvMode).base<float>(), out->base<float>());
        if (!absl::IsUnimplemented(st)) return st;  // else the own path below
      }
    }
    return Own(ctx, g, P, K, out);
  }

 private:
  absl::Status Own(OpKernelContext& ctx, const Conv3DDims& g, int64_t P, int64_t K, Tensor* out) {
    if (kMode != 0) std::memset(out->data(), 0, out->TotalBytes());
    RILL_ASSIGN_OR_RETURN(Tensor cols,
                          Tensor::Create(DataTypeToEnum<T>::value, TensorShape({P, K})));
    T* c = cols.base<T>();
    const int64_t oc = g.out_c, ocg = oc / g.groups;
    const int64_t in_image = g.in[0] * g.in[1] * g.in[2] * g.in_c, out_image = P * oc;
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t grp = 0; grp < g.groups; ++grp) {
        const int64_t go = grp * ocg;  // the group's first output channel
        if constexpr (kMode == 0) {
          Vol2Col(g, ctx.input(0).base<T>() + n * in_image, grp, c);
          RILL_RETURN_IF_ERROR(Gemm<T>(false, false, P, ocg, K, T(1), c, K,
                                       ctx.input(1).base<T>() + go, oc, T(0),
                                       out->base<T>() + n * out_image + go, oc));
        } else if constexpr (kMode == 1) {
          RILL_RETURN_IF_ERROR(Gemm<T>(false, true, P, K, ocg, T(1),
                                       ctx.input(2).base<T>() + n * out_image + go, oc,
                                       ctx.input(1).base<T>() + go, oc, T(0), c, K));
          Col2Vol(g, c, grp, out->base<T>() + n * in_image);
        } else {
          Vol2Col(g, ctx.input(0).base<T>() + n * in_image, grp, c);
          RILL_RETURN_IF_ERROR(Gemm<T>(true, false, K, ocg, P, T(1), c, K,
                                       ctx.input(2).base<T>() + n * out_image + go, oc, T(1),
                                       out->base<T>() + go, oc));
        }
      }
    }
    return absl::OkStatus();
  }

  DnnlConv dnnl_;  // float only
};

#define RILL_REG_CONV3D(T, unused)                                                           \
  RILL_REGISTER_KERNEL("Conv3D", DEVICE_CPU, "T", DataTypeToEnum<T>::value, Conv3DOp<T, 0>); \
  RILL_REGISTER_KERNEL("Conv3DBackpropInputV2", DEVICE_CPU, "T", DataTypeToEnum<T>::value,   \
                       Conv3DOp<T, 1>);                                                      \
  RILL_REGISTER_KERNEL("Conv3DBackpropFilterV2", DEVICE_CPU, "T", DataTypeToEnum<T>::value,  \
                       Conv3DOp<T, 2>);
RILL_FOR_FLOAT_TYPES(RILL_REG_CONV3D, 0)

}  // namespace
}  // namespace rill::cpu
