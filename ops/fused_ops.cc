// _FusedMatMul and _FusedConv2D, with TensorFlow's attrs: each is shaped as the op it
// extends (its first two inputs and attrs are that op's), then its arguments (their
// gradients: ops/fused_grad.cc); the optimizer's elementwise fusions; and TensorFlow's
// _UnaryOpsComposition.
#include "rill/ops/fused_ops.h"

#include "rill/core/fused_elementwise.h"
#include "rill/core/fused_epilogue.h"
#include "rill/core/shape_inference.h"
#include "rill/core/unary_composition.h"
#include "rill/ops/gradients.h"
#include "rill/ops/nn_ops.h"

namespace rill {
namespace {

// The base op's shape function on this node (it reads inputs 0 and 1 and its own attrs,
// which the fused op carries), then each argument: a vector as long as the output's
// channels (the bias, or the batch norm's four).
absl::Status FusedShape(InferenceContext& c, const char* base,
                        const absl::StatusOr<FusedEpilogue>& e) {
  RILL_RETURN_IF_ERROR(e.status());
  RILL_RETURN_IF_ERROR(OpRegistry::Global()->LookUp(base)->shape_fn(c));
  for (int i = 0; i < e->num_args(); ++i) RILL_RETURN_IF_ERROR(shape_fns::FusedBias(c, 2 + i));
  return absl::OkStatus();
}

}  // namespace

// TensorFlow's schema: the bias is the one extra argument, and fused_ops names the bias
// and the activation (core/fused_epilogue.h). epsilon is TensorFlow's FusedBatchNorm's,
// which no matmul fusion takes.
RILL_REGISTER_OP("_FusedMatMul")
    .Input("a", "T")
    .Input("b", "T")
    .InputList("args", "num_args", "T")
    .Output("product", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("num_args", AttrKind::kInt)
    .Attr("transpose_a", AttrKind::kBool, false)
    .Attr("transpose_b", AttrKind::kBool, false)
    .Attr("fused_ops", AttrKind::kStringList, std::vector<std::string>{})
    .Attr("epsilon", AttrKind::kFloat, 0.0001f)
    .Attr("leakyrelu_alpha", AttrKind::kFloat, 0.2f)
    .SetShapeFn([](InferenceContext& c) {
      return FusedShape(c, "MatMul", ParseFusedMatMulEpilogue(c.attrs()));
    });

// TensorFlow's schema likewise: a bias, or FusedBatchNorm's scale, offset, mean and
// variance with epsilon. use_cudnn_on_gpu is accepted and changes nothing (cuDNN is the
// GPU kernel's library either way).
RILL_REGISTER_OP("_FusedConv2D")
    .Input("input", "T")
    .Input("filter", "T")
    .InputList("args", "num_args", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("num_args", AttrKind::kInt)
    .Attr("strides", AttrKind::kIntList)
    .Attr("padding", AttrKind::kString)
    .Attr("explicit_paddings", AttrKind::kIntList, std::vector<int64_t>{})
    .Attr("data_format", AttrKind::kString, std::string("NHWC"))
    .Attr("dilations", AttrKind::kIntList, std::vector<int64_t>{1, 1, 1, 1})
    .Attr("use_cudnn_on_gpu", AttrKind::kBool, true)
    .Attr("fused_ops", AttrKind::kStringList, std::vector<std::string>{})
    .Attr("epsilon", AttrKind::kFloat, 0.0001f)
    .Attr("leakyrelu_alpha", AttrKind::kFloat, 0.2f)
    .SetShapeFn([](InferenceContext& c) {
      return FusedShape(c, "Conv2D", ParseFusedConv2DEpilogue(c.attrs()));
    });

// The elementwise chains the optimizer fuses (core/fused_elementwise.h): the inputs
// broadcast together, as the chain's ops broadcast their operands.
RILL_REGISTER_OP("_FusedElementwise")
    .InputList("inputs", "N", "T")
    .Output("y", "T")
    .Attr("N", AttrKind::kInt)
    .TypeAttr("T", kFloatTypes)
    .Attr("program", AttrKind::kIntList)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(
          ParseElementwiseProgram(c.attr<std::vector<int64_t>>("program"), c.num_inputs())
              .status());
      PartialTensorShape out = c.input_shape(0);
      for (int i = 1; i < c.num_inputs(); ++i) {
        RILL_ASSIGN_OR_RETURN(out, shape_fns::Broadcast(out, c.input_shape(i)));
      }
      c.set_output(0, out);
      return absl::OkStatus();
    });

RILL_REGISTER_OP("_UnaryOpsComposition")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("op_names", AttrKind::kStringList)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(CheckComposableUnaryOps(c.attr<std::vector<std::string>>("op_names")));
      c.set_output(0, c.input_shape(0));
      return absl::OkStatus();
    });

namespace {

// The base convolution's output; every operand must broadcast into it without growing it.
absl::Status ConvElementwiseShape(InferenceContext& c, const char* base) {
  RILL_RETURN_IF_ERROR(OpRegistry::Global()->LookUp(base)->shape_fn(c));
  RILL_RETURN_IF_ERROR(
      ParseElementwiseProgram(c.attr<std::vector<int64_t>>("program"), c.num_inputs() - 1)
          .status());
  const PartialTensorShape out = c.outputs()[0];
  for (int i = 2; i < c.num_inputs(); ++i) {
    RILL_ASSIGN_OR_RETURN(PartialTensorShape b, shape_fns::Broadcast(out, c.input_shape(i)));
    bool grows = !out.unknown_rank() && !b.unknown_rank() && b.dims() != out.dims();
    for (int d = 0; !grows && !out.unknown_rank() && !b.unknown_rank() && d < b.dims(); ++d) {
      grows = out.dim_size(d) >= 0 && b.dim_size(d) >= 0 && b.dim_size(d) != out.dim_size(d);
    }
    if (grows) {
      return errors::InvalidArgument("epilogue operand ", i, " of shape ",
                                     c.input_shape(i).DebugString(),
                                     " grows the convolution's output ", out.DebugString());
    }
  }
  return absl::OkStatus();
}

}  // namespace

#define RILL_REGISTER_CONV_ELEMENTWISE(NAME, BASE)                             \
  RILL_REGISTER_OP(NAME)                                                       \
      .Input("input", "T")                                                     \
      .Input("filter", "T")                                                    \
      .InputList("operands", "N", "T")                                         \
      .Output("output", "T")                                                   \
      .TypeAttr("T", kFloatTypes)                                              \
      .Attr("N", AttrKind::kInt)                                               \
      .Attr("strides", AttrKind::kIntList)                                     \
      .Attr("padding", AttrKind::kString)                                      \
      .Attr("data_format", AttrKind::kString, std::string("NHWC"))             \
      .Attr("dilations", AttrKind::kIntList, std::vector<int64_t>{1, 1, 1, 1}) \
      .Attr("explicit_paddings", AttrKind::kIntList, std::vector<int64_t>{})   \
      .Attr("program", AttrKind::kIntList)                                     \
      .SetShapeFn([](InferenceContext& c) { return ConvElementwiseShape(c, BASE); });
RILL_REGISTER_CONV_ELEMENTWISE("_FusedConv2DElementwise", "Conv2D")
RILL_REGISTER_CONV_ELEMENTWISE("_FusedDepthwiseConv2dNativeElementwise", "DepthwiseConv2dNative")
#undef RILL_REGISTER_CONV_ELEMENTWISE

namespace ops {
using internal::NodeBuilder;

FusedElementwise::FusedElementwise(const Scope& scope, InputList inputs,
                                   const std::vector<int64_t>& program) {
  NodeBuilder(scope, "_FusedElementwise", "FusedElementwise")
      .Inputs(inputs)
      .Attr("program", program)
      .Finalize(this);
}

UnaryOpsComposition::UnaryOpsComposition(const Scope& scope, Input x,
                                         const std::vector<std::string>& op_names) {
  NodeBuilder(scope, "_UnaryOpsComposition", "UnaryOpsComposition")
      .Input(x)
      .Attr("op_names", op_names)
      .Finalize(this);
}

FusedConvElementwise::FusedConvElementwise(const Scope& scope, Input input, Input filter,
                                           InputList operands, const std::vector<int64_t>& program,
                                           const IntList& strides, const std::string& padding,
                                           bool depthwise) {
  const char* op = depthwise ? "_FusedDepthwiseConv2dNativeElementwise" : "_FusedConv2DElementwise";
  NodeBuilder(scope, op, "FusedConvElementwise")
      .Input(input)
      .Input(filter)
      .Inputs(operands)
      .Attr("program", program)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Finalize(this);
}

FusedMatMul::FusedMatMul(const Scope& scope, Input a, Input b, Input bias,
                         const std::string& activation, const MatMul::Attrs& attrs,
                         float leakyrelu_alpha) {
  NodeBuilder(scope, "_FusedMatMul", "FusedMatMul")
      .Input(a)
      .Input(b)
      .Inputs({bias})
      .Attr("transpose_a", attrs.transpose_a_)
      .Attr("transpose_b", attrs.transpose_b_)
      .Attr("fused_ops", FusedBiasOps(activation))
      .Attr("leakyrelu_alpha", leakyrelu_alpha)
      .Finalize(this);
}

FusedConv2D::FusedConv2D(const Scope& scope, Input input, Input filter, Input bias,
                         const IntList& strides, const std::string& padding,
                         const std::string& activation, float leakyrelu_alpha) {
  NodeBuilder(scope, "_FusedConv2D", "FusedConv2D")
      .Input(input)
      .Input(filter)
      .Inputs({bias})
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Attr("fused_ops", FusedBiasOps(activation))
      .Attr("leakyrelu_alpha", leakyrelu_alpha)
      .Finalize(this);
}

// The optimizer fuses elementwise chains in a plan, after the gradients were built from the
// plain ops; a graph that holds the fused op itself is not differentiated through it.
RILL_REGISTER_NO_GRADIENT("_FusedElementwise");
RILL_REGISTER_NO_GRADIENT("_UnaryOpsComposition");
RILL_REGISTER_NO_GRADIENT("_FusedConv2DElementwise");
RILL_REGISTER_NO_GRADIENT("_FusedDepthwiseConv2dNativeElementwise");

}  // namespace ops
}  // namespace rill
