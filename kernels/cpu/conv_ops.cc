// CPU kernels of Conv2D and its two gradients: oneDNN's convolution primitives for float
// (dnnl_conv.h); otherwise (double, or a VALID geometry that leaves rows unused) im2col
// per image, then one GEMM (oneDNN sgemm for float, Eigen for double). BiasAdd and
// BiasAddGrad.
#include <cstring>

#include "rill/core/conv_util.h"
#include "rill/kernels/cpu/cwise.h"
#include "rill/kernels/cpu/dnnl_conv.h"
#include "rill/kernels/cpu/gemm.h"

namespace rill::cpu {
namespace {

// cols[p, (i * k_w + j) * c + ch] = x[row p's window (i, j), ch], zero in the padding.
template <typename T>
void Im2Col(const Conv2DGeometry& g, const T* x, T* cols) {
  const int64_t K = g.k_h * g.k_w * g.in_c;
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    for (int64_t ow = 0; ow < g.out_w; ++ow) {
      T* row = cols + (oh * g.out_w + ow) * K;
      for (int64_t i = 0; i < g.k_h; ++i) {
        const int64_t ih = oh * g.stride_h - g.pad_top + i;
        for (int64_t j = 0; j < g.k_w; ++j) {
          const int64_t iw = ow * g.stride_w - g.pad_left + j;
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
        const int64_t ih = oh * g.stride_h - g.pad_top + i;
        if (ih < 0 || ih >= g.in_h) continue;
        for (int64_t j = 0; j < g.k_w; ++j) {
          const int64_t iw = ow * g.stride_w - g.pad_left + j;
          if (iw < 0 || iw >= g.in_w) continue;
          T* dst = dx + (ih * g.in_w + iw) * g.in_c;
          const T* src = row + (i * g.k_w + j) * g.in_c;
          for (int64_t ch = 0; ch < g.in_c; ++ch) dst[ch] += src[ch];
        }
      }
    }
  }
}

absl::StatusOr<std::vector<int64_t>> Sizes(const Tensor& t, const char* what) {
  if (t.dims() != 1 || t.NumElements() != 4) {
    return errors::InvalidArgument(what, " must be a 4-element vector, got shape ",
                                   t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(TensorShape s, shape_fns::ShapeFromTensor(t, what));
  return std::vector<int64_t>(s.dim_sizes().begin(), s.dim_sizes().end());
}

// Validates input [n, h, w, c], filter [k_h, k_w, c, out_c] and an out_backprop (when
// given) against the geometry.
absl::StatusOr<Conv2DGeometry> Geometry(const Node& node, const TensorShape& input,
                                        const TensorShape& filter, const Tensor* dy) {
  if (input.dims() != 4 || filter.dims() != 4) {
    return errors::InvalidArgument("input ", input.DebugString(), " and filter ",
                                   filter.DebugString(), " must both have rank 4");
  }
  if (input.dim_size(3) != filter.dim_size(2)) {
    return errors::InvalidArgument("input ", input.DebugString(), " has ", input.dim_size(3),
                                   " channels but filter ", filter.DebugString(), " expects ",
                                   filter.dim_size(2));
  }
  std::vector<int64_t> in(input.dim_sizes().begin(), input.dim_sizes().end());
  RILL_ASSIGN_OR_RETURN(
      Conv2DGeometry g,
      ComputeConv2DGeometry(in, filter.dim_size(0), filter.dim_size(1), filter.dim_size(3),
                            node.attr<std::vector<int64_t>>("strides"),
                            node.attr<std::string>("padding")));
  if (dy != nullptr && dy->shape() != TensorShape({g.batch, g.out_h, g.out_w, g.out_c})) {
    return errors::InvalidArgument("out_backprop has shape ", dy->shape().DebugString(),
                                   ", expected [", g.batch, ",", g.out_h, ",", g.out_w, ",",
                                   g.out_c, "]");
  }
  return g;
}

// kMode 0: Conv2D(input, filter); 1: BackpropInput(sizes, filter, dy);
// 2: BackpropFilter(input, sizes, dy).
template <typename T, int kMode>
class ConvOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    TensorShape in_shape, f_shape;
    const Tensor* dy = kMode == 0 ? nullptr : &ctx.input(2);
    if constexpr (kMode == 1) {
      RILL_ASSIGN_OR_RETURN(auto s, Sizes(ctx.input(0), "input_sizes"));
      RILL_ASSIGN_OR_RETURN(in_shape, TensorShape::Build(s));
    } else {
      in_shape = ctx.input(0).shape();
    }
    if constexpr (kMode == 2) {
      RILL_ASSIGN_OR_RETURN(auto s, Sizes(ctx.input(1), "filter_sizes"));
      RILL_ASSIGN_OR_RETURN(f_shape, TensorShape::Build(s));
    } else {
      f_shape = ctx.input(1).shape();
    }
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, Geometry(node(), in_shape, f_shape, dy));
    const int64_t P = g.out_h * g.out_w, K = g.k_h * g.k_w * g.in_c;
    Tensor* out;
    const TensorShape out_shape = kMode == 0   ? TensorShape({g.batch, g.out_h, g.out_w, g.out_c})
                                  : kMode == 1 ? in_shape
                                               : f_shape;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, out_shape, &out));
    if (out->NumElements() == 0 || P == 0 || K == 0) {
      std::memset(out->data(), 0, out->TotalBytes());
      return absl::OkStatus();
    }
    if constexpr (std::is_same_v<T, float>) {
      if (DnnlConv::Supports(g)) {
        constexpr ConvPass kPass = kMode == 0   ? ConvPass::kForward
                                   : kMode == 1 ? ConvPass::kBackwardData
                                                : ConvPass::kBackwardWeights;
        const float* a = (kMode == 1 ? ctx.input(1) : ctx.input(0)).base<float>();
        const float* b = kMode == 0 ? ctx.input(1).base<float>() : dy->base<float>();
        return dnnl_.Run(kPass, g, a, b, out->base<float>());
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

 private:
  DnnlConv dnnl_;  // float only
};

template <typename T>
class BiasAddOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& v = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (v.dims() < 1 || b.dims() != 1 || b.dim_size(0) != v.dim_size(v.dims() - 1)) {
      return errors::InvalidArgument("bias of shape ", b.shape().DebugString(),
                                     " does not match the last dim of ", v.shape().DebugString());
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, v.shape(), &out));
    const int64_t c = b.NumElements(), rows = c == 0 ? 0 : v.NumElements() / c;
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
    if (d.dims() < 1) return errors::InvalidArgument("out_backprop must have rank >= 1");
    const int64_t c = d.dim_size(d.dims() - 1), rows = c == 0 ? 0 : d.NumElements() / c;
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({c}), &out));
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
#define RILL_REG_BIAS(T, unused)                                                            \
  RILL_REGISTER_KERNEL("BiasAdd", DEVICE_CPU, "T", DataTypeToEnum<T>::value, BiasAddOp<T>); \
  RILL_REGISTER_KERNEL("BiasAddGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, BiasAddGradOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_BIAS, 0)

}  // namespace
}  // namespace rill::cpu
