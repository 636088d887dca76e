// MaxPoolV2, MaxPool3D, AvgPool3D and their gradients: schemas, shape functions and
// wrappers (kernels in kernels/*/pool_ops.cc and pool3d_ops.cc, gradients in pool_grad.cc).
#include "rill/ops/pool_ops.h"

#include "rill/core/conv_util.h"
#include "rill/core/pool3d.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::Status CheckFormat(InferenceContext& c, const char* want) {
  if (c.attr<std::string>("data_format") != want) {
    return errors::InvalidArgument("only data_format ", want, " is supported, got ",
                                   c.attr<std::string>("data_format"));
  }
  return absl::OkStatus();
}

absl::Status Pool3DShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckFormat(c, "NDHWC"));
  RILL_ASSIGN_OR_RETURN(auto in, shape_fns::RankedDims(c, 0, 5, "input"));
  RILL_ASSIGN_OR_RETURN(Pool3DDims g, ComputePool3DDims(in, c.attr<std::vector<int64_t>>("ksize"),
                                                        c.attr<std::vector<int64_t>>("strides"),
                                                        c.attr<std::string>("padding")));
  c.set_output(0, PartialTensorShape({g.batch, g.out[0], g.out[1], g.out[2], g.channels}));
  return absl::OkStatus();
}

absl::Status AvgPool3DGradShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckFormat(c, "NDHWC"));
  const PartialTensorShape& s = c.input_shape(0);
  if (!s.unknown_rank() && (s.dims() != 1 || (s.dim_size(0) >= 0 && s.dim_size(0) != 5))) {
    return errors::InvalidArgument("orig_input_shape must be a 5-element vector, got shape ",
                                   s.DebugString());
  }
  std::vector<int64_t> in(5, -1);
  if (const Tensor* t = c.input_tensor(0)) {
    RILL_ASSIGN_OR_RETURN(TensorShape shape, shape_fns::ShapeFromTensor(*t, "orig_input_shape"));
    in.assign(shape.dim_sizes().begin(), shape.dim_sizes().end());
  }
  // Checks the window against the input (a VALID window larger than it, a bad ksize).
  RILL_RETURN_IF_ERROR(ComputePool3DDims(in, c.attr<std::vector<int64_t>>("ksize"),
                                         c.attr<std::vector<int64_t>>("strides"),
                                         c.attr<std::string>("padding"))
                           .status());
  c.set_output(0, PartialTensorShape(in));
  return absl::OkStatus();
}

// A constant 4-element int32 ksize or strides input of MaxPoolV2; empty when not constant.
absl::StatusOr<std::vector<int64_t>> WindowInput(InferenceContext& c, int i, const char* what) {
  const PartialTensorShape& s = c.input_shape(i);
  if (!s.unknown_rank() && (s.dims() != 1 || (s.dim_size(0) >= 0 && s.dim_size(0) != 4))) {
    return errors::InvalidArgument(what, " must be a 4-element vector (NHWC), got shape ",
                                   s.DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto values, shape_fns::ConstInts(c, i, what));
  return values.value_or(std::vector<int64_t>());
}

// MaxPoolV2 (window inputs 1, 2) and MaxPoolGradV2 (3, 4): the pooled shape when ksize
// and strides are constants, else [batch, ?, ?, channels].
absl::StatusOr<PartialTensorShape> PoolV2Out(InferenceContext& c, int window) {
  RILL_RETURN_IF_ERROR(CheckFormat(c, "NHWC"));
  RILL_ASSIGN_OR_RETURN(auto in, shape_fns::RankedDims(c, 0, 4, "input"));
  RILL_ASSIGN_OR_RETURN(auto ksize, WindowInput(c, window, "ksize"));
  RILL_ASSIGN_OR_RETURN(auto strides, WindowInput(c, window + 1, "strides"));
  if (ksize.empty() || strides.empty()) return PartialTensorShape({in[0], -1, -1, in[3]});
  RILL_RETURN_IF_ERROR(CheckNhwcList(ksize, "ksize"));
  RILL_ASSIGN_OR_RETURN(Conv2DGeometry g,
                        ComputeConv2DGeometry(in, ksize[1], ksize[2], in[3], strides,
                                              c.attr<std::string>("padding")));
  return PartialTensorShape({g.batch, g.out_h, g.out_w, g.in_c});
}

// MaxPoolWithArgmax's pooled shape (also checked by its gradient against its input).
absl::StatusOr<PartialTensorShape> ArgmaxPoolOut(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(auto in, shape_fns::RankedDims(c, 0, 4, "input"));
  const auto& ksize = c.attr<std::vector<int64_t>>("ksize");
  RILL_RETURN_IF_ERROR(CheckNhwcList(ksize, "ksize"));
  RILL_ASSIGN_OR_RETURN(
      Conv2DGeometry g,
      ComputeConv2DGeometry(in, ksize[1], ksize[2], in[3], c.attr<std::vector<int64_t>>("strides"),
                            c.attr<std::string>("padding")));
  return PartialTensorShape({g.batch, g.out_h, g.out_w, g.in_c});
}

}  // namespace

#define RILL_ARGMAX_ATTRS                         \
  TypeAttr("T", kFloatTypes)                      \
      .TypeAttr("Targmax", kIndexTypes, DT_INT64) \
      .Attr("ksize", AttrKind::kIntList)          \
      .Attr("strides", AttrKind::kIntList)        \
      .Attr("padding", AttrKind::kString)         \
      .Attr("include_batch_in_index", AttrKind::kBool, false)
RILL_REGISTER_OP("MaxPoolWithArgmax")
    .Input("input", "T")
    .Output("output", "T")
    .Output("argmax", "Targmax")
    .RILL_ARGMAX_ATTRS.SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out, ArgmaxPoolOut(c));
      c.set_output(0, out);
      c.set_output(1, out);
      return absl::OkStatus();
    });
RILL_REGISTER_OP("MaxPoolGradWithArgmax")
    .Input("input", "T")
    .Input("grad", "T")
    .Input("argmax", "Targmax")
    .Output("output", "T")
    .RILL_ARGMAX_ATTRS.SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out, ArgmaxPoolOut(c));
      for (int i : {1, 2}) {
        if (!c.input_shape(i).IsCompatibleWith(out)) {
          return errors::InvalidArgument(i == 1 ? "grad " : "argmax ",
                                         c.input_shape(i).DebugString(), " must have the pooled ",
                                         "shape ", out.DebugString());
        }
      }
      c.set_output(0, c.input_shape(0));
      return absl::OkStatus();
    });
#undef RILL_ARGMAX_ATTRS

#define RILL_POOL_ATTRS(FORMAT)           \
  TypeAttr("T", kFloatTypes)              \
      .Attr("padding", AttrKind::kString) \
      .Attr("data_format", AttrKind::kString, std::string(FORMAT))
#define RILL_WINDOW_ATTRS Attr("ksize", AttrKind::kIntList).Attr("strides", AttrKind::kIntList)

RILL_REGISTER_OP("MaxPoolV2")
    .Input("input", "T")
    .Input("ksize", DT_INT32)
    .Input("strides", DT_INT32)
    .Output("output", "T")
    .RILL_POOL_ATTRS("NHWC")
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out, PoolV2Out(c, 1));
      c.set_output(0, out);
      return absl::OkStatus();
    });
RILL_REGISTER_OP("MaxPoolGradV2")
    .Input("orig_input", "T")
    .Input("orig_output", "T")
    .Input("grad", "T")
    .Input("ksize", DT_INT32)
    .Input("strides", DT_INT32)
    .Output("output", "T")
    .RILL_POOL_ATTRS("NHWC")
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(PoolV2Out(c, 3).status());
      c.set_output(0, c.input_shape(0));
      return absl::OkStatus();
    });
RILL_REGISTER_OP("MaxPool3D")
    .Input("input", "T")
    .Output("output", "T")
    .RILL_WINDOW_ATTRS.RILL_POOL_ATTRS("NDHWC")
    .SetShapeFn(Pool3DShape);
RILL_REGISTER_OP("AvgPool3D")
    .Input("input", "T")
    .Output("output", "T")
    .RILL_WINDOW_ATTRS.RILL_POOL_ATTRS("NDHWC")
    .SetShapeFn(Pool3DShape);
RILL_REGISTER_OP("MaxPool3DGrad")
    .Input("orig_input", "T")
    .Input("orig_output", "T")
    .Input("grad", "T")
    .Output("output", "T")
    .RILL_WINDOW_ATTRS.RILL_POOL_ATTRS("NDHWC")
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(Pool3DShape(c));
      c.set_output(0, c.input_shape(0));
      return absl::OkStatus();
    });
RILL_REGISTER_OP("AvgPool3DGrad")
    .Input("orig_input_shape", DT_INT32)
    .Input("grad", "T")
    .Output("output", "T")
    .RILL_WINDOW_ATTRS.RILL_POOL_ATTRS("NDHWC")
    .SetShapeFn(AvgPool3DGradShape);
#undef RILL_POOL_ATTRS
#undef RILL_WINDOW_ATTRS

namespace ops {
namespace {

using internal::NodeBuilder;

// The op's attributes; data_format only when the caller set one (else the op's default).
void Finish(NodeBuilder& b, const std::string& padding, const PoolAttrs& attrs,
            OpWrapper* wrapper) {
  b.Attr("padding", padding);
  if (!attrs.data_format_.empty()) b.Attr("data_format", attrs.data_format_);
  b.Finalize(wrapper);
}

void Window(const Scope& s, const char* op, std::initializer_list<Input> inputs,
            const IntList& ksize, const IntList& strides, const std::string& padding,
            const PoolAttrs& attrs, OpWrapper* wrapper) {
  NodeBuilder b(s, op);
  for (const Input& in : inputs) b.Input(in);
  b.Attr("ksize", ksize).Attr("strides", strides);
  Finish(b, padding, attrs, wrapper);
}

}  // namespace

MaxPoolV2::MaxPoolV2(const Scope& s, Input input, Input ksize, Input strides,
                     const std::string& padding, const Attrs& attrs) {
  NodeBuilder b(s, "MaxPoolV2");
  b.Input(input).Input(ksize).Input(strides);
  Finish(b, padding, attrs, this);
}
MaxPool3D::MaxPool3D(const Scope& s, Input input, const IntList& ksize, const IntList& strides,
                     const std::string& padding, const Attrs& attrs) {
  Window(s, "MaxPool3D", {input}, ksize, strides, padding, attrs, this);
}
AvgPool3D::AvgPool3D(const Scope& s, Input input, const IntList& ksize, const IntList& strides,
                     const std::string& padding, const Attrs& attrs) {
  Window(s, "AvgPool3D", {input}, ksize, strides, padding, attrs, this);
}
MaxPool3DGrad::MaxPool3DGrad(const Scope& s, Input orig_input, Input orig_output, Input grad,
                             const IntList& ksize, const IntList& strides,
                             const std::string& padding, const Attrs& attrs) {
  Window(s, "MaxPool3DGrad", {orig_input, orig_output, grad}, ksize, strides, padding, attrs, this);
}
AvgPool3DGrad::AvgPool3DGrad(const Scope& s, Input orig_input_shape, Input grad,
                             const IntList& ksize, const IntList& strides,
                             const std::string& padding, const Attrs& attrs) {
  Window(s, "AvgPool3DGrad", {orig_input_shape, grad}, ksize, strides, padding, attrs, this);
}

MaxPoolWithArgmax::MaxPoolWithArgmax(const Scope& s, Input input, const IntList& ksize,
                                     const IntList& strides, const std::string& padding,
                                     const Attrs& attrs)
    : operation(NodeBuilder(s, "MaxPoolWithArgmax")
                    .Input(input)
                    .Attr("ksize", ksize)
                    .Attr("strides", strides)
                    .Attr("padding", padding)
                    .Attr("Targmax", attrs.targmax_)
                    .Attr("include_batch_in_index", attrs.include_batch_in_index_)
                    .Finalize()) {
  if (operation.node() == nullptr) return;
  output = Output(operation, 0);
  argmax = Output(operation, 1);
}
MaxPoolGradWithArgmax::MaxPoolGradWithArgmax(const Scope& s, Input input, Input grad, Input argmax,
                                             const IntList& ksize, const IntList& strides,
                                             const std::string& padding, const Attrs& attrs) {
  NodeBuilder(s, "MaxPoolGradWithArgmax")
      .Input(input)
      .Input(grad)
      .Input(argmax)
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Attr("include_batch_in_index", attrs.include_batch_in_index_)
      .Finalize(this);
}

namespace internal {
MaxPoolGradV2::MaxPoolGradV2(const Scope& s, Input orig_input, Input orig_output, Input grad,
                             Input ksize, Input strides, const std::string& padding,
                             const Attrs& attrs) {
  NodeBuilder b(s, "MaxPoolGradV2");
  b.Input(orig_input).Input(orig_output).Input(grad).Input(ksize).Input(strides);
  Finish(b, padding, attrs, this);
}
}  // namespace internal

}  // namespace ops
}  // namespace rill
