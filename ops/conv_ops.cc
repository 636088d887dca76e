#include "rill/ops/conv_ops.h"

#include "rill/core/checked_math.h"
#include "rill/core/conv_util.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

std::vector<int64_t> Dims4(const PartialTensorShape& s) {
  if (s.unknown_rank()) return {-1, -1, -1, -1};
  return {s.dim_sizes().begin(), s.dim_sizes().end()};
}

absl::Status CheckRank(const PartialTensorShape& s, int rank, const char* what) {
  if (!s.unknown_rank() && s.dims() != rank) {
    return errors::InvalidArgument(what, " must have rank ", rank, ", got shape ", s.DebugString());
  }
  return absl::OkStatus();
}

absl::Status CheckFormat(InferenceContext& c) {
  if (c.attr<std::string>("data_format") != "NHWC") {
    return errors::InvalidArgument("only data_format NHWC is supported, got ",
                                   c.attr<std::string>("data_format"));
  }
  return absl::OkStatus();
}

// Output of a convolution of `in` by a window; -1 where unknown.
absl::StatusOr<PartialTensorShape> ConvOut(InferenceContext& c, const PartialTensorShape& in,
                                           int64_t k_h, int64_t k_w, int64_t out_c) {
  RILL_RETURN_IF_ERROR(CheckRank(in, 4, "input"));
  auto g =
      ComputeConv2DGeometry(Dims4(in), k_h < 0 ? 1 : k_h, k_w < 0 ? 1 : k_w, out_c,
                            c.attr<std::vector<int64_t>>("strides"), c.attr<std::string>("padding"),
                            ExplicitPaddingsOf(c.attrs()), DilationsOf(c.attrs()));
  RILL_RETURN_IF_ERROR(g.status());
  const bool unknown_window = k_h < 0 || k_w < 0;
  return PartialTensorShape(
      {g->batch, unknown_window ? -1 : g->out_h, unknown_window ? -1 : g->out_w, out_c});
}

// Conv2D: filter [k_h, k_w, c, out_c]; depthwise: filter [k_h, k_w, c, m], c * m outputs.
absl::Status ConvShape(InferenceContext& c, bool depthwise) {
  RILL_RETURN_IF_ERROR(CheckFormat(c));
  RILL_RETURN_IF_ERROR(CheckNhwcList(c.attr<std::vector<int64_t>>("dilations"), "dilations"));
  for (int64_t d : c.attr<std::vector<int64_t>>("dilations")) {
    if (depthwise && d != 1) {
      return errors::InvalidArgument(
          "depthwise convolutions take dilations of 1 only (as TensorFlow's kernels)");
    }
  }
  const auto& in = c.input_shape(0);
  const auto& f = c.input_shape(1);
  RILL_RETURN_IF_ERROR(CheckRank(in, 4, "input"));
  RILL_RETURN_IF_ERROR(CheckRank(f, 4, "filter"));
  auto fd = Dims4(f);
  auto id = Dims4(in);
  if (!in.unknown_rank() && id[3] >= 0 && fd[2] >= 0 && id[3] != fd[2]) {
    return errors::InvalidArgument("input has ", id[3], " channels but the filter ",
                                   f.DebugString(), " expects ", fd[2]);
  }
  int64_t out_c = fd[3];
  if (depthwise) {
    const int64_t ch = fd[2] >= 0 ? fd[2] : id[3];
    if (ch < 0 || fd[3] < 0) {
      out_c = -1;
    } else {
      RILL_ASSIGN_OR_RETURN(out_c, checked::MulOr(ch, fd[3], "the output channels"));
    }
  }
  RILL_ASSIGN_OR_RETURN(auto out, ConvOut(c, in, fd[0], fd[1], out_c));
  c.set_output(0, out);
  return absl::OkStatus();
}

// Shape from a constant size input (Conv2DBackprop*, AvgPoolGrad), else rank 4 unknown.
absl::Status SizesShape(InferenceContext& c, int sizes_input) {
  RILL_RETURN_IF_ERROR(CheckFormat(c));
  const auto& s = c.input_shape(sizes_input);
  if (!s.unknown_rank() && (s.dims() != 1 || (s.dim_size(0) >= 0 && s.dim_size(0) != 4))) {
    return errors::InvalidArgument("sizes must be a 4-element vector, got shape ", s.DebugString());
  }
  RILL_RETURN_IF_ERROR(CheckNhwcList(c.attr<std::vector<int64_t>>("strides"), "strides"));
  if (const Tensor* t = c.input_tensor(sizes_input)) {
    RILL_ASSIGN_OR_RETURN(TensorShape shape, shape_fns::ShapeFromTensor(*t, "sizes"));
    if (shape.dims() != 4) return errors::InvalidArgument("sizes must have 4 elements");
    c.set_output(0, PartialTensorShape(shape));
  } else {
    c.set_output(0, PartialTensorShape::UnknownOfRank(4));
  }
  return absl::OkStatus();
}

absl::Status PoolShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckFormat(c));
  const auto& k = c.attr<std::vector<int64_t>>("ksize");
  RILL_RETURN_IF_ERROR(CheckNhwcList(k, "ksize"));
  const auto& in = c.input_shape(0);
  RILL_RETURN_IF_ERROR(CheckRank(in, 4, "input"));
  RILL_ASSIGN_OR_RETURN(auto out, ConvOut(c, in, k[1], k[2], Dims4(in)[3]));
  c.set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

#define RILL_CONV_ATTRS                    \
  TypeAttr("T", kFloatTypes)               \
      .Attr("strides", AttrKind::kIntList) \
      .Attr("padding", AttrKind::kString)  \
      .Attr("data_format", AttrKind::kString, std::string("NHWC"))
#define RILL_DILATIONS Attr("dilations", AttrKind::kIntList, std::vector<int64_t>{1, 1, 1, 1})
// The convolutions take TensorFlow's padding "EXPLICIT" too: 8 values, before and after
// each NHWC dim (ONNX's asymmetric pads, without a Pad op before).
#define RILL_EXPLICIT_PADDINGS Attr("explicit_paddings", AttrKind::kIntList, std::vector<int64_t>{})

// Conv2D and DepthwiseConv2dNative (TensorFlow's depthwise convolution: filter
// [k_h, k_w, c, m], output channel ch * m + q from input channel ch), each with its two
// gradients.
#define RILL_REGISTER_CONV(NAME, DEPTHWISE)                              \
  RILL_REGISTER_OP(NAME)                                                 \
      .Input("input", "T")                                               \
      .Input("filter", "T")                                              \
      .Output("output", "T")                                             \
      .RILL_CONV_ATTRS.RILL_DILATIONS.RILL_EXPLICIT_PADDINGS.SetShapeFn( \
          [](InferenceContext& c) { return ConvShape(c, DEPTHWISE); });  \
  RILL_REGISTER_OP(NAME "BackpropInput")                                 \
      .Input("input_sizes", DT_INT32)                                    \
      .Input("filter", "T")                                              \
      .Input("out_backprop", "T")                                        \
      .Output("output", "T")                                             \
      .RILL_CONV_ATTRS.RILL_DILATIONS.RILL_EXPLICIT_PADDINGS.SetShapeFn( \
          [](InferenceContext& c) { return SizesShape(c, 0); });         \
  RILL_REGISTER_OP(NAME "BackpropFilter")                                \
      .Input("input", "T")                                               \
      .Input("filter_sizes", DT_INT32)                                   \
      .Input("out_backprop", "T")                                        \
      .Output("output", "T")                                             \
      .RILL_CONV_ATTRS.RILL_DILATIONS.RILL_EXPLICIT_PADDINGS.SetShapeFn( \
          [](InferenceContext& c) { return SizesShape(c, 1); });
RILL_REGISTER_CONV("Conv2D", false)
RILL_REGISTER_CONV("DepthwiseConv2dNative", true)
#undef RILL_REGISTER_CONV
RILL_REGISTER_OP("MaxPool")
    .Input("input", "T")
    .Output("output", "T")
    .Attr("ksize", AttrKind::kIntList)
    .RILL_CONV_ATTRS.SetShapeFn(PoolShape);
RILL_REGISTER_OP("MaxPoolGrad")
    .Input("orig_input", "T")
    .Input("orig_output", "T")
    .Input("grad", "T")
    .Output("output", "T")
    .Attr("ksize", AttrKind::kIntList)
    .RILL_CONV_ATTRS.SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(PoolShape(c));
      c.set_output(0, c.input_shape(0));
      return absl::OkStatus();
    });
RILL_REGISTER_OP("AvgPool")
    .Input("value", "T")
    .Output("output", "T")
    .Attr("ksize", AttrKind::kIntList)
    .RILL_CONV_ATTRS.SetShapeFn(PoolShape);
RILL_REGISTER_OP("AvgPoolGrad")
    .Input("orig_input_shape", DT_INT32)
    .Input("grad", "T")
    .Output("output", "T")
    .Attr("ksize", AttrKind::kIntList)
    .RILL_CONV_ATTRS.SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(CheckNhwcList(c.attr<std::vector<int64_t>>("ksize"), "ksize"));
      return SizesShape(c, 0);
    });
#undef RILL_CONV_ATTRS
#undef RILL_DILATIONS
#undef RILL_EXPLICIT_PADDINGS

RILL_REGISTER_OP("BiasAdd")
    .Input("value", "T")
    .Input("bias", "T")
    .Output("output", "T")
    .TypeAttr("T", kNumberTypes)
    .Attr("data_format", AttrKind::kString, std::string("NHWC"))
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(CheckFormat(c));
      return shape_fns::BiasAdd(c);
    });
RILL_REGISTER_OP("BiasAddGrad")
    .Input("out_backprop", "T")
    .Output("output", "T")
    .TypeAttr("T", kNumberTypes)
    .Attr("data_format", AttrKind::kString, std::string("NHWC"))
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(CheckFormat(c));
      const auto& v = c.input_shape(0);
      if (!v.unknown_rank() && v.dims() < 1) {
        return errors::InvalidArgument("out_backprop must have rank >= 1, got a scalar");
      }
      c.set_output(0, v.unknown_rank() ? PartialTensorShape({-1})
                                       : PartialTensorShape({v.dim_size(v.dims() - 1)}));
      return absl::OkStatus();
    });

namespace ops {
using internal::NodeBuilder;

namespace {
// A convolution node: its tensor inputs, strides, padding and the attrs the caller set.
void Convolution(const Scope& s, const char* op, std::initializer_list<Input> inputs,
                 const IntList& strides, const std::string& padding, const ConvAttrs& a,
                 OpWrapper* w) {
  NodeBuilder b(s, op);
  for (const Input& in : inputs) b.Input(in);
  b.Attr("strides", strides).Attr("padding", padding);
  if (!a.explicit_paddings_.empty()) b.Attr("explicit_paddings", a.explicit_paddings_);
  if (!a.dilations_.empty()) b.Attr("dilations", a.dilations_);
  if (!a.data_format_.empty()) b.Attr("data_format", a.data_format_);
  b.Finalize(w);
}
ConvAttrs Paddings(const IntList& explicit_paddings) {
  return ConvAttrs().ExplicitPaddings(explicit_paddings);
}
}  // namespace

// Each convolution wrapper: with explicit paddings (rill's older form), and with Attrs.
#define RILL_CONV_WRAPPER(CLASS, INPUTS, ...)                                                   \
  CLASS::CLASS(const Scope& s, __VA_ARGS__, const IntList& strides, const std::string& padding, \
               const IntList& explicit_paddings) {                                              \
    Convolution(s, #CLASS, INPUTS, strides, padding, Paddings(explicit_paddings), this);        \
  }                                                                                             \
  CLASS::CLASS(const Scope& s, __VA_ARGS__, const IntList& strides, const std::string& padding, \
               const Attrs& attrs) {                                                            \
    Convolution(s, #CLASS, INPUTS, strides, padding, attrs, this);                              \
  }
#define RILL_IN2 \
  { input, filter }
#define RILL_IN3 \
  { sizes, filter, dy }
#define RILL_IN3F \
  { input, sizes, dy }
RILL_CONV_WRAPPER(Conv2D, RILL_IN2, Input input, Input filter)
RILL_CONV_WRAPPER(Conv2DBackpropInput, RILL_IN3, Input sizes, Input filter, Input dy)
RILL_CONV_WRAPPER(Conv2DBackpropFilter, RILL_IN3F, Input input, Input sizes, Input dy)
RILL_CONV_WRAPPER(DepthwiseConv2dNative, RILL_IN2, Input input, Input filter)
RILL_CONV_WRAPPER(DepthwiseConv2dNativeBackpropInput, RILL_IN3, Input sizes, Input filter, Input dy)
RILL_CONV_WRAPPER(DepthwiseConv2dNativeBackpropFilter, RILL_IN3F, Input input, Input sizes,
                  Input dy)
#undef RILL_CONV_WRAPPER
#undef RILL_IN2
#undef RILL_IN3
#undef RILL_IN3F

MaxPool::MaxPool(const Scope& s, Input input, const IntList& ksize, const IntList& strides,
                 const std::string& padding) {
  NodeBuilder(s, "MaxPool")
      .Input(input)
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Finalize(this);
}
MaxPoolGrad::MaxPoolGrad(const Scope& s, Input orig_input, Input orig_output, Input grad,
                         const IntList& ksize, const IntList& strides, const std::string& padding) {
  NodeBuilder(s, "MaxPoolGrad")
      .Input(orig_input)
      .Input(orig_output)
      .Input(grad)
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Finalize(this);
}
AvgPool::AvgPool(const Scope& s, Input value, const IntList& ksize, const IntList& strides,
                 const std::string& padding) {
  NodeBuilder(s, "AvgPool")
      .Input(value)
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Finalize(this);
}
AvgPoolGrad::AvgPoolGrad(const Scope& s, Input shape, Input grad, const IntList& ksize,
                         const IntList& strides, const std::string& padding) {
  NodeBuilder(s, "AvgPoolGrad")
      .Input(shape)
      .Input(grad)
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Finalize(this);
}
BiasAdd::BiasAdd(const Scope& s, Input value, Input bias) {
  NodeBuilder(s, "BiasAdd").Input(value).Input(bias).Finalize(this);
}
BiasAddGrad::BiasAddGrad(const Scope& s, Input out_backprop) {
  NodeBuilder(s, "BiasAddGrad").Input(out_backprop).Finalize(this);
}

}  // namespace ops
}  // namespace rill
