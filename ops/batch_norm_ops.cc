// FusedBatchNorm, V2 and V3 and their gradient ops: schemas, shape functions
// (core/batch_norm.h's checks, shared with the kernels) and wrappers. V1 computes in T
// throughout (float, as TensorFlow's); V2 and V3 keep statistics in U; V3 adds a
// reserve_space_3 output (a scalar 0 here) and its gradient op that input.
// _FusedBatchNormEx is V3 with a side input added to y and an activation after it
// (TensorFlow's remapper makes it; graphs and tests name it). Gradients:
// ops/batch_norm_grad.cc.
#include "rill/ops/batch_norm_ops.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "rill/core/batch_norm.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

std::vector<PartialTensorShape> Shapes(const InferenceContext& c, int n) {
  std::vector<PartialTensorShape> v;
  for (int i = 0; i < n; ++i) v.push_back(c.input_shape(i));
  return v;
}

// rill's kernels take statistics in x's own dtype (V1 has no U: T throughout).
absl::Status SameTU(const InferenceContext& c) {
  if (c.attrs().count("U") == 0) return absl::OkStatus();
  if (c.attr<DataType>("T") != c.attr<DataType>("U")) {
    return errors::InvalidArgument("U (", DataTypeString(c.attr<DataType>("U")), ") must equal T (",
                                   DataTypeString(c.attr<DataType>("T")),
                                   "): rill normalizes in x's own dtype");
  }
  return absl::OkStatus();
}

absl::Status ForwardShape(InferenceContext& c, bool reserve_space_3) {
  RILL_RETURN_IF_ERROR(SameTU(c));
  RILL_ASSIGN_OR_RETURN(int64_t channels,
                        CheckBatchNormShapes(BatchNormAttrsOf(c.attrs()), Shapes(c, 5)));
  c.set_output(0, c.input_shape(0));
  for (int i = 1; i < 5; ++i) c.set_output(i, PartialTensorShape({channels}));
  if (reserve_space_3) c.set_output(5, PartialTensorShape({}));
  return absl::OkStatus();
}

absl::Status GradShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(SameTU(c));
  RILL_ASSIGN_OR_RETURN(int64_t channels,
                        CheckBatchNormGradShapes(BatchNormAttrsOf(c.attrs()), Shapes(c, 5)));
  c.set_output(0, c.input_shape(1).unknown_rank() ? c.input_shape(0) : c.input_shape(1));
  for (int i = 1; i < 3; ++i) c.set_output(i, PartialTensorShape({channels}));
  for (int i = 3; i < 5; ++i) c.set_output(i, PartialTensorShape({0}));
  return absl::OkStatus();
}

void ForwardAttrs(OpDefBuilder& b) {
  b.Attr("epsilon", AttrKind::kFloat, 0.0001f)
      .Attr("exponential_avg_factor", AttrKind::kFloat, 1.0f)
      .Attr("data_format", AttrKind::kString, std::string("NHWC"))
      .Attr("is_training", AttrKind::kBool, true);
}

void GradAttrs(OpDefBuilder& b) {
  b.Attr("epsilon", AttrKind::kFloat, 0.0001f)
      .Attr("data_format", AttrKind::kString, std::string("NHWC"))
      .Attr("is_training", AttrKind::kBool, true);
}

// x's inputs and outputs; `u` names the statistics' dtype attr ("T" for V1).
void ForwardArgs(OpDefBuilder& b, const char* u) {
  b.Input("x", "T").Input("scale", u).Input("offset", u).Input("mean", u).Input("variance", u);
  b.Output("y", "T").Output("batch_mean", u).Output("batch_variance", u);
  b.Output("reserve_space_1", u).Output("reserve_space_2", u);
}
void ForwardArgsT(OpDefBuilder& b) { ForwardArgs(b, "T"); }
void ForwardArgsU(OpDefBuilder& b) { ForwardArgs(b, "U"); }

void GradArgs(OpDefBuilder& b, const char* u) {
  b.Input("y_backprop", "T").Input("x", "T").Input("scale", u);
  b.Input("reserve_space_1", u).Input("reserve_space_2", u);
}
void GradArgsT(OpDefBuilder& b) { GradArgs(b, "T"); }
void GradArgsU(OpDefBuilder& b) { GradArgs(b, "U"); }

}  // namespace

RILL_REGISTER_OP("FusedBatchNorm")
    .Apply(ForwardArgsT)
    .TypeAttr("T", {DT_FLOAT})
    .Apply(ForwardAttrs)
    .SetShapeFn([](InferenceContext& c) { return ForwardShape(c, false); });

RILL_REGISTER_OP("FusedBatchNormV2")
    .Apply(ForwardArgsU)
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("U", kFloatTypes)
    .Apply(ForwardAttrs)
    .SetShapeFn([](InferenceContext& c) { return ForwardShape(c, false); });

RILL_REGISTER_OP("FusedBatchNormGrad")
    .Apply(GradArgsT)
    .Output("x_backprop", "T")
    .Output("scale_backprop", "T")
    .Output("offset_backprop", "T")
    .Output("reserve_space_3", "T")
    .Output("reserve_space_4", "T")
    .TypeAttr("T", {DT_FLOAT})
    .Apply(GradAttrs)
    .SetShapeFn(GradShape);

RILL_REGISTER_OP("FusedBatchNormGradV2")
    .Apply(GradArgsU)
    .Output("x_backprop", "T")
    .Output("scale_backprop", "U")
    .Output("offset_backprop", "U")
    .Output("reserve_space_3", "U")
    .Output("reserve_space_4", "U")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("U", kFloatTypes)
    .Apply(GradAttrs)
    .SetShapeFn(GradShape);

RILL_REGISTER_OP("FusedBatchNormV3")
    .Apply(ForwardArgsU)
    .Output("reserve_space_3", "U")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("U", kFloatTypes)
    .Apply(ForwardAttrs)
    .SetShapeFn([](InferenceContext& c) { return ForwardShape(c, true); });

RILL_REGISTER_OP("FusedBatchNormGradV3")
    .Apply(GradArgsU)
    .Input("reserve_space_3", "U")
    .Output("x_backprop", "T")
    .Output("scale_backprop", "U")
    .Output("offset_backprop", "U")
    .Output("reserve_space_4", "U")
    .Output("reserve_space_5", "U")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("U", kFloatTypes)
    .Apply(GradAttrs)
    .SetShapeFn(GradShape);

// V3's checks, and the side input (at most one, x's shape) and activation's.
absl::Status FusedBatchNormExShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(ForwardShape(c, true));
  const int64_t sides = c.attr<int64_t>("num_side_inputs");
  if (sides > 1) {
    return errors::InvalidArgument("_FusedBatchNormEx takes at most 1 side input, got ", sides);
  }
  const std::string& mode = c.attr<std::string>("activation_mode");
  if (mode != "Identity" && mode != "Relu") {
    return errors::InvalidArgument(
        "_FusedBatchNormEx: activation_mode must be Identity or Relu, "
        "got '",
        mode, "'");
  }
  if (sides == 1 && !c.input_shape(5).IsCompatibleWith(c.input_shape(0))) {
    return errors::InvalidArgument("_FusedBatchNormEx: side_input ", c.input_shape(5).DebugString(),
                                   " must have x's shape ", c.input_shape(0).DebugString());
  }
  return absl::OkStatus();
}

RILL_REGISTER_OP("_FusedBatchNormEx")
    .Apply(ForwardArgsU)
    .InputList("side_input", "num_side_inputs", "T", /*min_length=*/0)
    .Output("reserve_space_3", "U")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("U", kFloatTypes)
    .Apply(ForwardAttrs)
    .Attr("num_side_inputs", AttrKind::kInt, int64_t{0})
    .Attr("activation_mode", AttrKind::kString, std::string("Identity"))
    .SetShapeFn(FusedBatchNormExShape);

namespace ops {

namespace {

// A node of batch-norm op `op` (any version, forward or gradient) on `in`; `factor`: the
// forward ops' exponential_avg_factor (the gradient ops have none).
Operation BatchNormNode(const char* op, const Scope& scope, const std::vector<Input>& in,
                        float epsilon, const std::string& data_format, bool is_training,
                        std::optional<float> factor) {
  internal::NodeBuilder b(scope, op);
  for (const Input& i : in) b.Input(i);
  b.Attr("epsilon", epsilon).Attr("data_format", data_format).Attr("is_training", is_training);
  if (factor.has_value()) b.Attr("exponential_avg_factor", *factor);
  return b.Finalize();
}

Operation ForwardNode(const char* op, const Scope& scope, const std::vector<Input>& in,
                      const FusedBatchNormV3::Attrs& a) {
  return BatchNormNode(op, scope, in, a.epsilon_, a.data_format_, a.is_training_,
                       a.exponential_avg_factor_);
}

Operation GradNode(const char* op, const Scope& scope, const std::vector<Input>& in,
                   const FusedBatchNormGradV3::Attrs& a) {
  return BatchNormNode(op, scope, in, a.epsilon_, a.data_format_, a.is_training_, std::nullopt);
}

// outs[i] = output i of `op`, when it was made.
void TakeOutputs(const Operation& op, std::initializer_list<Output*> outs) {
  if (op.node() == nullptr) return;
  int i = 0;
  for (Output* o : outs) *o = Output(op, i++);
}

}  // namespace

FusedBatchNormV3::FusedBatchNormV3(const Scope& scope, Input x, Input scale, Input offset,
                                   Input mean, Input variance, const Attrs& attrs) {
  operation = ForwardNode("FusedBatchNormV3", scope, {x, scale, offset, mean, variance}, attrs);
  TakeOutputs(operation, {&y, &batch_mean, &batch_variance, &reserve_space_1, &reserve_space_2,
                          &reserve_space_3});
}

internal::FusedBatchNormV1V2::FusedBatchNormV1V2(const char* op, const Scope& scope, Input x,
                                                 Input scale, Input offset, Input mean,
                                                 Input variance, const Attrs& attrs) {
  operation = ForwardNode(op, scope, {x, scale, offset, mean, variance}, attrs);
  TakeOutputs(operation, {&y, &batch_mean, &batch_variance, &reserve_space_1, &reserve_space_2});
}

FusedBatchNormGradV3::FusedBatchNormGradV3(const Scope& scope, Input y_backprop, Input x,
                                           Input scale, Input reserve_space_1,
                                           Input reserve_space_2, Input reserve_space_3,
                                           const Attrs& attrs) {
  operation =
      GradNode("FusedBatchNormGradV3", scope,
               {y_backprop, x, scale, reserve_space_1, reserve_space_2, reserve_space_3}, attrs);
  TakeOutputs(operation,
              {&x_backprop, &scale_backprop, &offset_backprop, &reserve_space_4, &reserve_space_5});
}

internal::FusedBatchNormGradV1V2::FusedBatchNormGradV1V2(const char* op, const Scope& scope,
                                                         Input y_backprop, Input x, Input scale,
                                                         Input reserve_space_1,
                                                         Input reserve_space_2,
                                                         const Attrs& attrs) {
  operation = GradNode(op, scope, {y_backprop, x, scale, reserve_space_1, reserve_space_2}, attrs);
  TakeOutputs(operation,
              {&x_backprop, &scale_backprop, &offset_backprop, &reserve_space_3, &reserve_space_4});
}

}  // namespace ops
}  // namespace rill
