// FractionalMaxPool, FractionalAvgPool and their gradient ops: schemas, shape functions and
// wrappers (kernels in kernels/cpu/fractional_pool_ops.cc, gradients in pool_grad.cc).
#include "rill/ops/fractional_pool_ops.h"

#include "rill/core/fractional_pool.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

// The attributes' rules, checked when the node is added so that a kernel never sees others.
absl::Status CheckFractionalAttrs(InferenceContext& c) {
  const auto ratio = c.attr<std::vector<float>>("pooling_ratio");
  if (ratio.size() != 4) {
    return errors::InvalidArgument("pooling_ratio must have 4 values (NHWC), got ", ratio.size());
  }
  if (ratio[0] != 1.0f || ratio[3] != 1.0f) {
    return errors::InvalidArgument(
        "pooling_ratio must be 1 for the batch and the channels (fractional pooling is over rows "
        "and columns only), got ",
        ratio[0], " and ", ratio[3]);
  }
  if (!c.attr<bool>("deterministic") &&
      (c.attr<int64_t>("seed") != 0 || c.attr<int64_t>("seed2") != 0)) {
    return errors::InvalidArgument("seed and seed2 must be 0 unless deterministic is true");
  }
  return absl::OkStatus();
}

absl::Status FractionalPoolShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckFractionalAttrs(c));
  RILL_ASSIGN_OR_RETURN(auto in, shape_fns::RankedDims(c, 0, 4, "value"));
  const auto ratio = c.attr<std::vector<float>>("pooling_ratio");
  const char* names[] = {"batch", "rows", "columns", "channels"};
  std::vector<int64_t> out(4, -1);
  for (int d = 0; d < 4; ++d) {
    if (in[d] < 0) {  // unknown: only the ratio can be checked
      RILL_RETURN_IF_ERROR(CheckPoolingRatio(ratio[d], names[d]));
      continue;
    }
    RILL_ASSIGN_OR_RETURN(out[d], FractionalOutputSize(in[d], ratio[d], names[d]));
  }
  c.set_output(0, PartialTensorShape(out));
  c.set_output(1, PartialTensorShape({out[1] < 0 ? -1 : out[1] + 1}));
  c.set_output(2, PartialTensorShape({out[2] < 0 ? -1 : out[2] + 1}));
  return absl::OkStatus();
}

// A sequence input of a gradient op: a vector (of unknown length, or one more than the
// regions of `out_dim`).
absl::Status SequenceInput(InferenceContext& c, int i, int64_t regions, const char* what) {
  RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, i, what));
  const PartialTensorShape& s = c.input_shape(i);
  if (regions >= 0 && !s.unknown_rank() && s.dim_size(0) >= 0 && s.dim_size(0) != regions + 1) {
    return errors::InvalidArgument(what, " has ", s.dim_size(0), " boundaries for ", regions,
                                   " regions; it needs ", regions + 1);
  }
  return absl::OkStatus();
}

// out_backprop (input `grad`) and the sequences (the two inputs after it).
absl::Status GradInputs(InferenceContext& c, int grad) {
  RILL_ASSIGN_OR_RETURN(auto dy, shape_fns::RankedDims(c, grad, 4, "out_backprop"));
  RILL_RETURN_IF_ERROR(SequenceInput(c, grad + 1, dy[1], "row_pooling_sequence"));
  return SequenceInput(c, grad + 2, dy[2], "col_pooling_sequence");
}

absl::Status MaxGradShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(shape_fns::RankedDims(c, 0, 4, "orig_input").status());
  RILL_ASSIGN_OR_RETURN(auto y, shape_fns::RankedDims(c, 1, 4, "orig_output"));
  RILL_ASSIGN_OR_RETURN(auto dy, shape_fns::RankedDims(c, 2, 4, "out_backprop"));
  if (!PartialTensorShape(y).IsCompatibleWith(PartialTensorShape(dy))) {
    return errors::InvalidArgument("out_backprop ", PartialTensorShape(dy).DebugString(),
                                   " must have orig_output's shape ",
                                   PartialTensorShape(y).DebugString());
  }
  RILL_RETURN_IF_ERROR(GradInputs(c, 2));
  c.set_output(0, c.input_shape(0));
  return absl::OkStatus();
}

absl::Status AvgGradShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape in,
                        shape_fns::ShapeFromShapeInput(c, 0, "orig_input_tensor_shape"));
  if (!in.unknown_rank() && in.dims() != 4) {
    return errors::InvalidArgument("orig_input_tensor_shape must have 4 dims (NHWC), got ",
                                   in.dims());
  }
  RILL_RETURN_IF_ERROR(GradInputs(c, 1));
  c.set_output(0, in.unknown_rank() ? PartialTensorShape({-1, -1, -1, -1}) : in);
  return absl::OkStatus();
}

}  // namespace

#define RILL_FRACTIONAL_POOL_OP(NAME)                \
  RILL_REGISTER_OP(NAME)                             \
      .Input("value", "T")                           \
      .Output("output", "T")                         \
      .Output("row_pooling_sequence", DT_INT64)      \
      .Output("col_pooling_sequence", DT_INT64)      \
      .Attr("pooling_ratio", AttrKind::kFloatList)   \
      .Attr("pseudo_random", AttrKind::kBool, false) \
      .Attr("overlapping", AttrKind::kBool, false)   \
      .Attr("deterministic", AttrKind::kBool, false) \
      .Attr("seed", AttrKind::kInt, int64_t{0})      \
      .Attr("seed2", AttrKind::kInt, int64_t{0})     \
      .TypeAttr("T", kSignedNumberTypes)             \
      .SetIsStateful()                               \
      .SetShapeFn(FractionalPoolShape);
RILL_FRACTIONAL_POOL_OP("FractionalMaxPool")
RILL_FRACTIONAL_POOL_OP("FractionalAvgPool")
#undef RILL_FRACTIONAL_POOL_OP

RILL_REGISTER_OP("FractionalMaxPoolGrad")
    .Input("orig_input", "T")
    .Input("orig_output", "T")
    .Input("out_backprop", "T")
    .Input("row_pooling_sequence", DT_INT64)
    .Input("col_pooling_sequence", DT_INT64)
    .Output("output", "T")
    .Attr("overlapping", AttrKind::kBool, false)
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(MaxGradShape);
RILL_REGISTER_OP("FractionalAvgPoolGrad")
    .Input("orig_input_tensor_shape", DT_INT64)
    .Input("out_backprop", "T")
    .Input("row_pooling_sequence", DT_INT64)
    .Input("col_pooling_sequence", DT_INT64)
    .Output("output", "T")
    .Attr("overlapping", AttrKind::kBool, false)
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(AvgGradShape);

namespace ops {
namespace {

Operation FractionalPool(const Scope& s, const char* op, Input value,
                         const std::vector<float>& ratio, const FractionalPoolAttrs& a) {
  return internal::NodeBuilder(s, op)
      .Input(value)
      .Attr("pooling_ratio", ratio)
      .Attr("pseudo_random", a.pseudo_random_)
      .Attr("overlapping", a.overlapping_)
      .Attr("deterministic", a.deterministic_)
      .Attr("seed", a.seed_)
      .Attr("seed2", a.seed2_)
      .Finalize();
}

}  // namespace

#define RILL_DEFINE_FRACTIONAL_POOL(Name)                                              \
  Name::Name(const Scope& scope, Input value, const std::vector<float>& pooling_ratio, \
             const Attrs& attrs)                                                       \
      : operation(FractionalPool(scope, #Name, value, pooling_ratio, attrs)) {         \
    if (operation.node() == nullptr) return;                                           \
    output = Output(operation, 0);                                                     \
    row_pooling_sequence = Output(operation, 1);                                       \
    col_pooling_sequence = Output(operation, 2);                                       \
  }
RILL_DEFINE_FRACTIONAL_POOL(FractionalMaxPool)
RILL_DEFINE_FRACTIONAL_POOL(FractionalAvgPool)
#undef RILL_DEFINE_FRACTIONAL_POOL

namespace internal {
FractionalMaxPoolGrad::FractionalMaxPoolGrad(const Scope& s, Input orig_input, Input orig_output,
                                             Input out_backprop, Input row_pooling_sequence,
                                             Input col_pooling_sequence, const Attrs& attrs) {
  NodeBuilder(s, "FractionalMaxPoolGrad")
      .Input(orig_input)
      .Input(orig_output)
      .Input(out_backprop)
      .Input(row_pooling_sequence)
      .Input(col_pooling_sequence)
      .Attr("overlapping", attrs.overlapping_)
      .Finalize(this);
}
FractionalAvgPoolGrad::FractionalAvgPoolGrad(const Scope& s, Input orig_input_tensor_shape,
                                             Input out_backprop, Input row_pooling_sequence,
                                             Input col_pooling_sequence, const Attrs& attrs) {
  NodeBuilder(s, "FractionalAvgPoolGrad")
      .Input(orig_input_tensor_shape)
      .Input(out_backprop)
      .Input(row_pooling_sequence)
      .Input(col_pooling_sequence)
      .Attr("overlapping", attrs.overlapping_)
      .Finalize(this);
}
}  // namespace internal

}  // namespace ops
}  // namespace rill
