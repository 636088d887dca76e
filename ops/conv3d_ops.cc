// Conv3D, Conv3DBackpropInputV2 and Conv3DBackpropFilterV2: schemas, shape functions and
// wrappers (kernels in kernels/cpu/conv3d_ops.cc, gradients in conv_grad.cc).
#include "rill/ops/conv3d_ops.h"

#include "rill/core/conv3d.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::Status CheckFormat(const InferenceContext& c) {
  if (c.attr<std::string>("data_format") != "NDHWC") {
    return errors::InvalidArgument("only data_format NDHWC is supported, got ",
                                   c.attr<std::string>("data_format"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Conv3DDims> DimsOf(const InferenceContext& c, const std::vector<int64_t>& input,
                                  const std::vector<int64_t>& filter) {
  return ComputeConv3DDims(input, filter, c.attr<std::vector<int64_t>>("strides"),
                           c.attr<std::vector<int64_t>>("dilations"),
                           c.attr<std::string>("padding"));
}

absl::Status Conv3DShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckFormat(c));
  RILL_ASSIGN_OR_RETURN(auto in, shape_fns::RankedDims(c, 0, 5, "input"));
  RILL_ASSIGN_OR_RETURN(auto filter, shape_fns::RankedDims(c, 1, 5, "filter"));
  RILL_ASSIGN_OR_RETURN(Conv3DDims g, DimsOf(c, in, filter));
  c.set_output(0, PartialTensorShape(Conv3DOutputDims(g)));
  return absl::OkStatus();
}

// A backprop's output: the shape its sizes input (`sizes`) names, checked against the
// other operand's (input 1 - sizes + 1: the filter, or the input) and the window.
absl::Status BackpropShape(InferenceContext& c, int sizes) {
  RILL_RETURN_IF_ERROR(CheckFormat(c));
  RILL_ASSIGN_OR_RETURN(
      PartialTensorShape s,
      shape_fns::ShapeFromShapeInput(c, sizes, sizes == 0 ? "input_sizes" : "filter_sizes"));
  if (s.unknown_rank()) s = PartialTensorShape::UnknownOfRank(5);
  if (s.dims() != 5) {
    return errors::InvalidArgument(sizes == 0 ? "input_sizes" : "filter_sizes",
                                   " must have 5 elements, got shape ", s.DebugString());
  }
  const int other = sizes == 0 ? 1 : 0;
  RILL_ASSIGN_OR_RETURN(auto known,
                        shape_fns::RankedDims(c, other, 5, other == 1 ? "filter" : "input"));
  RILL_ASSIGN_OR_RETURN(auto dy, shape_fns::RankedDims(c, 2, 5, "out_backprop"));
  std::vector<int64_t> sized(s.dim_sizes().begin(), s.dim_sizes().end());
  RILL_RETURN_IF_ERROR((sizes == 0 ? DimsOf(c, sized, known) : DimsOf(c, known, sized)).status());
  c.set_output(0, s);
  return absl::OkStatus();
}

}  // namespace

#define RILL_CONV3D_ATTRS                                           \
  TypeAttr("T", kFloatTypes)                                        \
      .Attr("strides", AttrKind::kIntList)                          \
      .Attr("padding", AttrKind::kString)                           \
      .Attr("data_format", AttrKind::kString, std::string("NDHWC")) \
      .Attr("dilations", AttrKind::kIntList, std::vector<int64_t>{1, 1, 1, 1, 1})

RILL_REGISTER_OP("Conv3D")
    .Input("input", "T")
    .Input("filter", "T")
    .Output("output", "T")
    .RILL_CONV3D_ATTRS.SetShapeFn(Conv3DShape);
RILL_REGISTER_OP("Conv3DBackpropInputV2")
    .Input("input_sizes", "Tshape")
    .Input("filter", "T")
    .Input("out_backprop", "T")
    .Output("output", "T")
    .TypeAttr("Tshape", kIndexTypes, DT_INT32)
    .RILL_CONV3D_ATTRS.SetShapeFn([](InferenceContext& c) { return BackpropShape(c, 0); });
RILL_REGISTER_OP("Conv3DBackpropFilterV2")
    .Input("input", "T")
    .Input("filter_sizes", DT_INT32)
    .Input("out_backprop", "T")
    .Output("output", "T")
    .RILL_CONV3D_ATTRS.SetShapeFn([](InferenceContext& c) { return BackpropShape(c, 1); });
#undef RILL_CONV3D_ATTRS

namespace ops {
namespace {

void Convolution3D(const Scope& s, const char* op, std::initializer_list<Input> inputs,
                   const IntList& strides, const std::string& padding, const Conv3DAttrs& attrs,
                   OpWrapper* wrapper) {
  internal::NodeBuilder b(s, op);
  for (const Input& in : inputs) b.Input(in);
  b.Attr("strides", strides).Attr("padding", padding);
  if (!attrs.data_format_.empty()) b.Attr("data_format", attrs.data_format_);
  if (!attrs.dilations_.empty()) b.Attr("dilations", attrs.dilations_);
  b.Finalize(wrapper);
}

}  // namespace

Conv3D::Conv3D(const Scope& s, Input input, Input filter, const IntList& strides,
               const std::string& padding, const Attrs& attrs) {
  Convolution3D(s, "Conv3D", {input, filter}, strides, padding, attrs, this);
}
Conv3DBackpropInputV2::Conv3DBackpropInputV2(const Scope& s, Input input_sizes, Input filter,
                                             Input out_backprop, const IntList& strides,
                                             const std::string& padding, const Attrs& attrs) {
  Convolution3D(s, "Conv3DBackpropInputV2", {input_sizes, filter, out_backprop}, strides, padding,
                attrs, this);
}
Conv3DBackpropFilterV2::Conv3DBackpropFilterV2(const Scope& s, Input input, Input filter_sizes,
                                               Input out_backprop, const IntList& strides,
                                               const std::string& padding, const Attrs& attrs) {
  Convolution3D(s, "Conv3DBackpropFilterV2", {input, filter_sizes, out_backprop}, strides, padding,
                attrs, this);
}

}  // namespace ops
}  // namespace rill
