#include "rill/core/conv_kernel_util.h"

#include <string>
#include <vector>

#include "rill/core/checked_math.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::StatusOr<TensorShape> Sizes(const Tensor& t, int rank, const char* what) {
  if (t.dims() != 1 || t.NumElements() != rank) {
    return errors::InvalidArgument(what, " must be a ", rank, "-element vector, got shape ",
                                   t.shape().DebugString());
  }
  return shape_fns::ShapeFromTensor(t, what);
}

// Validates input [n, h, w, c], filter [k_h, k_w, c, out_c] (depthwise: [k_h, k_w, c, m],
// c * m outputs in c groups) and an out_backprop (when given) against the geometry.
absl::StatusOr<Conv2DGeometry> ConvGeometry(const Node& node, const TensorShape& input,
                                            const TensorShape& filter, const Tensor* dy,
                                            bool depthwise) {
  if (input.dims() != 4 || filter.dims() != 4) {
    return errors::InvalidArgument("input ", input.DebugString(), " and filter ",
                                   filter.DebugString(), " must both have rank 4");
  }
  if (input.dim_size(3) != filter.dim_size(2)) {
    return errors::InvalidArgument("input ", input.DebugString(), " has ", input.dim_size(3),
                                   " channels but filter ", filter.DebugString(), " expects ",
                                   filter.dim_size(2));
  }
  int64_t out_c = filter.dim_size(3);
  if (depthwise) {
    RILL_ASSIGN_OR_RETURN(out_c, checked::MulOr(filter.dim_size(2), out_c, "output channels"));
  }
  RILL_ASSIGN_OR_RETURN(
      Conv2DGeometry g,
      ComputeConv2DGeometry(input.dim_sizes(), filter.dim_size(0), filter.dim_size(1), out_c,
                            node.attr<std::vector<int64_t>>("strides"),
                            node.attr<std::string>("padding"), ExplicitPaddingsOf(node.attrs()),
                            DilationsOf(node.attrs())));
  if (depthwise) {
    if (g.dilation_h != 1 || g.dilation_w != 1) {
      return errors::InvalidArgument(
          "depthwise convolutions take dilations of 1 only (as TensorFlow's kernels), got ",
          g.dilation_h, "x", g.dilation_w);
    }
    g.groups = g.in_c;
  }
  if (dy != nullptr && dy->shape() != TensorShape({g.batch, g.out_h, g.out_w, g.out_c})) {
    return errors::InvalidArgument("out_backprop has shape ", dy->shape().DebugString(),
                                   ", expected [", g.batch, ",", g.out_h, ",", g.out_w, ",",
                                   g.out_c, "]");
  }
  return g;
}

}  // namespace

absl::Status ConvOperandShapes(OpKernelContext& ctx, ConvMode mode, int rank, TensorShape* input,
                               TensorShape* filter) {
  if (mode == ConvMode::kBackpropInput) {
    RILL_ASSIGN_OR_RETURN(*input, Sizes(ctx.input(0), rank, "input_sizes"));
  } else {
    *input = ctx.input(0).shape();
  }
  if (mode == ConvMode::kBackpropFilter) {
    RILL_ASSIGN_OR_RETURN(*filter, Sizes(ctx.input(1), rank, "filter_sizes"));
  } else {
    *filter = ctx.input(1).shape();
  }
  return absl::OkStatus();
}

absl::StatusOr<Conv2DGeometry> PrepareConv2D(OpKernelContext& ctx, ConvMode mode, Tensor** out,
                                             bool depthwise) {
  TensorShape in_shape, f_shape;
  const Tensor* dy = mode == ConvMode::kForward ? nullptr : &ctx.input(2);
  RILL_RETURN_IF_ERROR(ConvOperandShapes(ctx, mode, 4, &in_shape, &f_shape));
  RILL_ASSIGN_OR_RETURN(Conv2DGeometry g,
                        ConvGeometry(ctx.node(), in_shape, f_shape, dy, depthwise));
  const TensorShape out_shape = mode == ConvMode::kForward
                                    ? TensorShape({g.batch, g.out_h, g.out_w, g.out_c})
                                : mode == ConvMode::kBackpropInput ? in_shape
                                                                   : f_shape;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, out_shape, out));
  return g;
}

bool InputIsConstant(const Node& node, int i) {
  const NodeOut in = node.input(i);
  return in.node != nullptr && in.node->IsConstant();
}

DepthwiseDims DepthwiseDimsOf(const Conv2DGeometry& g) {
  const int64_t m = g.in_c > 0 ? g.out_c / g.in_c : 0;
  return {g.batch,    g.in_h,     g.in_w,  g.in_c,  m,         g.k_h,     g.k_w,
          g.stride_h, g.stride_w, g.out_h, g.out_w, g.pad_top, g.pad_left};
}

SymmetricPadLayout SymmetricPadLayoutOf(const Conv2DGeometry& g) {
  const int64_t span_h = DilatedSpan(g.k_h, g.dilation_h),
                span_w = DilatedSpan(g.k_w, g.dilation_w);
  const int64_t pad_bottom = (g.out_h - 1) * g.stride_h + span_h - g.in_h - g.pad_top;
  const int64_t pad_right = (g.out_w - 1) * g.stride_w + span_w - g.in_w - g.pad_left;
  const int64_t sym_h = g.in_h + 2 * g.pad_top - span_h, sym_w = g.in_w + 2 * g.pad_left - span_w;
  if (sym_h >= 0 && sym_w >= 0 && sym_h / g.stride_h + 1 == g.out_h &&
      sym_w / g.stride_w + 1 == g.out_w) {
    return {g.in_h, g.in_w, g.pad_top, g.pad_left, false};
  }
  return {g.in_h + g.pad_top + (pad_bottom > 0 ? pad_bottom : 0),
          g.in_w + g.pad_left + (pad_right > 0 ? pad_right : 0), 0, 0, true};
}

absl::StatusOr<Conv2DGeometry> PoolGeometry(const Node& node, const TensorShape& in) {
  return PoolGeometryOf(in, node.attr<std::vector<int64_t>>("ksize"),
                        node.attr<std::vector<int64_t>>("strides"),
                        node.attr<std::string>("padding"));
}

absl::StatusOr<Conv2DGeometry> PoolGeometryOf(const TensorShape& in,
                                              const std::vector<int64_t>& ksize,
                                              const std::vector<int64_t>& strides,
                                              const std::string& padding) {
  if (in.dims() != 4) {
    return errors::InvalidArgument("input must be 4-D [batch, height, width, channels], got ",
                                   in.DebugString());
  }
  RILL_RETURN_IF_ERROR(CheckNhwcList(ksize, "ksize"));
  return ComputeConv2DGeometry(in.dim_sizes(), ksize[1], ksize[2], in.dim_size(3), strides,
                               padding);
}

namespace {

absl::StatusOr<std::vector<int64_t>> WindowInput(const Tensor& t, const char* what) {
  if (t.dims() != 1 || t.NumElements() != 4) {
    return errors::InvalidArgument(what, " must be a 4-element vector (NHWC), got shape ",
                                   t.shape().DebugString());
  }
  const int32_t* v = t.base<int32_t>();
  return std::vector<int64_t>(v, v + 4);
}

// The geometry of a pool kernel over `in`: from the node's ksize and strides attrs, or
// (window_input >= 0: MaxPoolV2, MaxPoolGradV2) from its host inputs window_input and
// window_input + 1.
absl::StatusOr<Conv2DGeometry> KernelPoolGeometry(OpKernelContext& ctx, const TensorShape& in,
                                                  int window_input) {
  if (window_input < 0) return PoolGeometry(ctx.node(), in);
  RILL_ASSIGN_OR_RETURN(auto ksize, WindowInput(ctx.input(window_input), "ksize"));
  RILL_ASSIGN_OR_RETURN(auto strides, WindowInput(ctx.input(window_input + 1), "strides"));
  return PoolGeometryOf(in, ksize, strides, ctx.node().attr<std::string>("padding"));
}

}  // namespace

absl::StatusOr<Conv2DGeometry> PreparePool(OpKernelContext& ctx, Tensor** out, int window_input) {
  RILL_ASSIGN_OR_RETURN(Conv2DGeometry g,
                        KernelPoolGeometry(ctx, ctx.input(0).shape(), window_input));
  RILL_RETURN_IF_ERROR(
      ctx.allocate_output(0, TensorShape({g.batch, g.out_h, g.out_w, g.in_c}), out));
  return g;
}

absl::StatusOr<Conv2DGeometry> PrepareMaxPoolGrad(OpKernelContext& ctx, Tensor** out,
                                                  int window_input) {
  const Tensor& x = ctx.input(0);
  const Tensor& dy = ctx.input(2);
  RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, KernelPoolGeometry(ctx, x.shape(), window_input));
  const TensorShape want({g.batch, g.out_h, g.out_w, g.in_c});
  if (dy.shape() != want || ctx.input(1).shape() != want) {
    return errors::InvalidArgument("orig_output ", ctx.input(1).shape().DebugString(), " and grad ",
                                   dy.shape().DebugString(), " must be ", want.DebugString());
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), out));
  return g;
}

namespace {
ArgmaxPoolDims ArgmaxDimsOf(const Conv2DGeometry& g, const Node& node) {
  return {g.batch,
          g.in_h,
          g.in_w,
          g.in_c,
          g.k_h,
          g.k_w,
          g.stride_h,
          g.stride_w,
          g.out_h,
          g.out_w,
          g.pad_top,
          g.pad_left,
          node.attr<bool>("include_batch_in_index")};
}
}  // namespace

absl::StatusOr<ArgmaxPoolDims> PrepareMaxPoolWithArgmax(OpKernelContext& ctx, Tensor** out,
                                                        Tensor** argmax) {
  RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PreparePool(ctx, out));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(1, (*out)->shape(), argmax));
  return ArgmaxDimsOf(g, ctx.node());
}

absl::StatusOr<ArgmaxPoolDims> PrepareMaxPoolGradWithArgmax(OpKernelContext& ctx, Tensor** out) {
  const Tensor& x = ctx.input(0);
  RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PoolGeometry(ctx.node(), x.shape()));
  const TensorShape want({g.batch, g.out_h, g.out_w, g.in_c});
  if (ctx.input(1).shape() != want || ctx.input(2).shape() != want) {
    return errors::InvalidArgument("grad ", ctx.input(1).shape().DebugString(), " and argmax ",
                                   ctx.input(2).shape().DebugString(), " must be ",
                                   want.DebugString(), " (the pooled input's shape)");
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), out));
  return ArgmaxDimsOf(g, ctx.node());
}

absl::StatusOr<Conv2DGeometry> PrepareAvgPoolGrad(OpKernelContext& ctx, Tensor** out) {
  const Tensor& sizes = ctx.input(0);
  const Tensor& dy = ctx.input(1);
  if (sizes.dims() != 1 || sizes.NumElements() != 4) {
    return errors::InvalidArgument("orig_input_shape must be a 4-element vector, got shape ",
                                   sizes.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(TensorShape in_shape,
                        shape_fns::ShapeFromTensor(sizes, "orig_input_shape"));
  RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PoolGeometry(ctx.node(), in_shape));
  const TensorShape want({g.batch, g.out_h, g.out_w, g.in_c});
  if (dy.shape() != want) {
    return errors::InvalidArgument("grad has shape ", dy.shape().DebugString(), ", expected ",
                                   want.DebugString());
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, in_shape, out));
  return g;
}

absl::StatusOr<int64_t> PrepareBiasAdd(OpKernelContext& ctx, Tensor** out) {
  const Tensor& v = ctx.input(0);
  const Tensor& b = ctx.input(1);
  if (v.dims() < 1 || b.dims() != 1 || b.dim_size(0) != v.dim_size(v.dims() - 1)) {
    return errors::InvalidArgument("bias of shape ", b.shape().DebugString(),
                                   " does not match the last dim of ", v.shape().DebugString());
  }
  RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, v.shape(), out));
  return b.NumElements();
}

absl::StatusOr<BiasGradGeometry> PrepareBiasAddGrad(OpKernelContext& ctx, Tensor** out) {
  const Tensor& d = ctx.input(0);
  if (d.dims() < 1) return errors::InvalidArgument("out_backprop must have rank >= 1");
  const int64_t c = d.dim_size(d.dims() - 1), rows = c == 0 ? 0 : d.NumElements() / c;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({c}), out));
  return BiasGradGeometry{rows, c};
}

absl::Status CheckFusedBias(const OpKernelContext& ctx, int i, const TensorShape& out) {
  const Tensor& b = ctx.input(i);
  if (b.dims() != 1 || out.dims() < 1 || b.dim_size(0) != out.dim_size(out.dims() - 1)) {
    return errors::InvalidArgument("bias of shape ", b.shape().DebugString(),
                                   " does not match the last dim of the output ",
                                   out.DebugString());
  }
  return absl::OkStatus();
}

FusedActivation ParseFusedActivation(const std::string& name) {
  if (name == "sigmoid") return FusedActivation::kSigmoid;
  if (name == "tanh") return FusedActivation::kTanh;
  return FusedActivation::kRelu;
}

absl::StatusOr<BiasGradGeometry> PrepareBiasActivationGrad(OpKernelContext& ctx, Tensor** backprops,
                                                           Tensor** bias_backprop) {
  const Tensor& g = ctx.input(0);
  const Tensor& y = ctx.input(1);
  if (g.shape() != y.shape() || y.dims() < 1) {
    return errors::InvalidArgument("gradients ", g.shape().DebugString(), " and outputs ",
                                   y.shape().DebugString(),
                                   " must have the same shape, of rank >= 1");
  }
  const int64_t c = y.dim_size(y.dims() - 1), rows = c == 0 ? 0 : y.NumElements() / c;
  RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, y.shape(), backprops));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape({c}), bias_backprop));
  return BiasGradGeometry{rows, c};
}

}  // namespace rill
