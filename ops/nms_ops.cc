// The NonMaxSuppression ops: schemas, shape functions (core/non_max_suppression.h's checks,
// on constant inputs too) and wrappers. Kernel: kernels/cpu/nms_ops.cc.
#include "rill/ops/nms_ops.h"

#include "rill/core/combined_nms.h"
#include "rill/core/non_max_suppression.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

// A constant scalar input's value, or `fallback` when the input is not a constant.
template <typename T>
T ConstantScalar(const InferenceContext& c, int i, T fallback) {
  const Tensor* t = c.input_tensor(i);
  return t != nullptr && t->NumElements() == 1 ? t->flat<T>()(0) : fallback;
}

// The checks and outputs of every version: `scalars` inputs from 2 on are scalars
// (max_output_size, then the thresholds); output 0 is [max_output_size] when padded to a
// constant size, else [?]; outputs past `indices_like` (V5's scores) have its shape, and a
// last scalar output (V4, V5: valid_outputs) when `valid_outputs`.
absl::Status NmsShape(InferenceContext& c, int scalars, int same_as_indices, bool valid_outputs) {
  RILL_RETURN_IF_ERROR(CheckNmsShapes(c.input_shape(0), c.input_shape(1)));
  const char* names[] = {"max_output_size", "iou_threshold", "score_threshold", "soft_nms_sigma"};
  for (int k = 0; k < scalars; ++k)
    RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 2 + k, names[k]));
  NmsOptions o;
  o.max_output = ConstantScalar<int32_t>(c, 2, 0);
  o.iou_threshold =
      scalars > 1 ? ConstantScalar<float>(c, 3, 0.5f) : c.attr<float>("iou_threshold");
  o.soft_nms_sigma = scalars > 3 ? ConstantScalar<float>(c, 5, 0.f) : 0.f;
  RILL_RETURN_IF_ERROR(CheckNmsOptions(o));
  const bool pad =
      c.attrs().contains("pad_to_max_output_size") && c.attr<bool>("pad_to_max_output_size");
  const int64_t n = pad && c.input_tensor(2) != nullptr ? int64_t{o.max_output} : -1;
  for (int k = 0; k <= same_as_indices; ++k) c.set_output(k, PartialTensorShape({n}));
  if (valid_outputs) c.set_output(same_as_indices + 1, PartialTensorShape({}));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("NonMaxSuppression")
    .Input("boxes", DT_FLOAT)
    .Input("scores", DT_FLOAT)
    .Input("max_output_size", DT_INT32)
    .Output("selected_indices", DT_INT32)
    .Attr("iou_threshold", AttrKind::kFloat, 0.5f)
    .SetShapeFn([](InferenceContext& c) { return NmsShape(c, 1, 0, false); });

RILL_REGISTER_OP("NonMaxSuppressionV2")
    .Input("boxes", "T")
    .Input("scores", "T")
    .Input("max_output_size", DT_INT32)
    .Input("iou_threshold", "T_threshold")
    .Output("selected_indices", DT_INT32)
    .TypeAttr("T", {DT_FLOAT})
    .TypeAttr("T_threshold", {DT_FLOAT})
    .SetShapeFn([](InferenceContext& c) { return NmsShape(c, 2, 0, false); });

RILL_REGISTER_OP("NonMaxSuppressionV3")
    .Input("boxes", "T")
    .Input("scores", "T")
    .Input("max_output_size", DT_INT32)
    .Input("iou_threshold", "T_threshold")
    .Input("score_threshold", "T_threshold")
    .Output("selected_indices", DT_INT32)
    .TypeAttr("T", {DT_FLOAT})
    .TypeAttr("T_threshold", {DT_FLOAT})
    .SetShapeFn([](InferenceContext& c) { return NmsShape(c, 3, 0, false); });

RILL_REGISTER_OP("NonMaxSuppressionV4")
    .Input("boxes", "T")
    .Input("scores", "T")
    .Input("max_output_size", DT_INT32)
    .Input("iou_threshold", "T_threshold")
    .Input("score_threshold", "T_threshold")
    .Output("selected_indices", DT_INT32)
    .Output("valid_outputs", DT_INT32)
    .TypeAttr("T", {DT_FLOAT})
    .TypeAttr("T_threshold", {DT_FLOAT})
    .Attr("pad_to_max_output_size", AttrKind::kBool, false)
    .SetShapeFn([](InferenceContext& c) { return NmsShape(c, 3, 0, true); });

RILL_REGISTER_OP("NonMaxSuppressionV5")
    .Input("boxes", "T")
    .Input("scores", "T")
    .Input("max_output_size", DT_INT32)
    .Input("iou_threshold", "T")
    .Input("score_threshold", "T")
    .Input("soft_nms_sigma", "T")
    .Output("selected_indices", DT_INT32)
    .Output("selected_scores", "T")
    .Output("valid_outputs", DT_INT32)
    .TypeAttr("T", {DT_FLOAT})
    .Attr("pad_to_max_output_size", AttrKind::kBool, false)
    .SetShapeFn([](InferenceContext& c) { return NmsShape(c, 4, 1, true); });

// overlaps [n, n], scores [n], then three scalars; the threshold may be any value.
RILL_REGISTER_OP("NonMaxSuppressionWithOverlaps")
    .Input("overlaps", DT_FLOAT)
    .Input("scores", DT_FLOAT)
    .Input("max_output_size", DT_INT32)
    .Input("overlap_threshold", DT_FLOAT)
    .Input("score_threshold", DT_FLOAT)
    .Output("selected_indices", DT_INT32)
    .SetShapeFn([](InferenceContext& c) {
      RILL_RETURN_IF_ERROR(CheckOverlapShapes(c.input_shape(0), c.input_shape(1)));
      const char* names[] = {"max_output_size", "overlap_threshold", "score_threshold"};
      for (int k = 0; k < 3; ++k) RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 2 + k, names[k]));
      NmsOptions o;
      o.max_output = ConstantScalar<int32_t>(c, 2, 0);
      RILL_RETURN_IF_ERROR(CheckNmsOptions(o));
      c.set_output(0, PartialTensorShape({-1}));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("CombinedNonMaxSuppression")
    .Input("boxes", DT_FLOAT)
    .Input("scores", DT_FLOAT)
    .Input("max_output_size_per_class", DT_INT32)
    .Input("max_total_size", DT_INT32)
    .Input("iou_threshold", DT_FLOAT)
    .Input("score_threshold", DT_FLOAT)
    .Output("nmsed_boxes", DT_FLOAT)
    .Output("nmsed_scores", DT_FLOAT)
    .Output("nmsed_classes", DT_FLOAT)
    .Output("valid_detections", DT_INT32)
    .Attr("pad_per_class", AttrKind::kBool, false)
    .Attr("clip_boxes", AttrKind::kBool, true)
    .SetShapeFn(CombinedNmsShape);

namespace ops {

CombinedNonMaxSuppression::CombinedNonMaxSuppression(const Scope& scope, Input boxes, Input scores,
                                                     Input max_output_size_per_class,
                                                     Input max_total_size, Input iou_threshold,
                                                     Input score_threshold, const Attrs& attrs)
    : operation(internal::NodeBuilder(scope, "CombinedNonMaxSuppression")
                    .Input(boxes)
                    .Input(scores)
                    .Input(max_output_size_per_class)
                    .Input(max_total_size)
                    .Input(iou_threshold)
                    .Input(score_threshold)
                    .Attr("pad_per_class", attrs.pad_per_class_)
                    .Attr("clip_boxes", attrs.clip_boxes_)
                    .Finalize()) {
  if (operation.node() == nullptr) return;
  nmsed_boxes = Output(operation, 0);
  nmsed_scores = Output(operation, 1);
  nmsed_classes = Output(operation, 2);
  valid_detections = Output(operation, 3);
}

NonMaxSuppressionWithOverlaps::NonMaxSuppressionWithOverlaps(const Scope& scope, Input overlaps,
                                                             Input scores, Input max_output_size,
                                                             Input overlap_threshold,
                                                             Input score_threshold) {
  internal::NodeBuilder(scope, "NonMaxSuppressionWithOverlaps")
      .Input(overlaps)
      .Input(scores)
      .Input(max_output_size)
      .Input(overlap_threshold)
      .Input(score_threshold)
      .Finalize(this);
  selected_indices = output;
}

NonMaxSuppression::NonMaxSuppression(const Scope& scope, Input boxes, Input scores,
                                     Input max_output_size, const Attrs& attrs) {
  internal::NodeBuilder(scope, "NonMaxSuppression")
      .Input(boxes)
      .Input(scores)
      .Input(max_output_size)
      .Attr("iou_threshold", attrs.iou_threshold_)
      .Finalize(this);
  selected_indices = output;
}

NonMaxSuppressionV2::NonMaxSuppressionV2(const Scope& scope, Input boxes, Input scores,
                                         Input max_output_size, Input iou_threshold) {
  internal::NodeBuilder(scope, "NonMaxSuppressionV2")
      .Input(boxes)
      .Input(scores)
      .Input(max_output_size)
      .Input(iou_threshold)
      .Finalize(this);
  selected_indices = output;
}

NonMaxSuppressionV3::NonMaxSuppressionV3(const Scope& scope, Input boxes, Input scores,
                                         Input max_output_size, Input iou_threshold,
                                         Input score_threshold) {
  internal::NodeBuilder(scope, "NonMaxSuppressionV3")
      .Input(boxes)
      .Input(scores)
      .Input(max_output_size)
      .Input(iou_threshold)
      .Input(score_threshold)
      .Finalize(this);
  selected_indices = output;
}

NonMaxSuppressionV4::NonMaxSuppressionV4(const Scope& scope, Input boxes, Input scores,
                                         Input max_output_size, Input iou_threshold,
                                         Input score_threshold, const Attrs& attrs)
    : operation(internal::NodeBuilder(scope, "NonMaxSuppressionV4")
                    .Input(boxes)
                    .Input(scores)
                    .Input(max_output_size)
                    .Input(iou_threshold)
                    .Input(score_threshold)
                    .Attr("pad_to_max_output_size", attrs.pad_to_max_output_size_)
                    .Finalize()) {
  if (operation.node() == nullptr) return;
  selected_indices = Output(operation, 0);
  valid_outputs = Output(operation, 1);
}

NonMaxSuppressionV5::NonMaxSuppressionV5(const Scope& scope, Input boxes, Input scores,
                                         Input max_output_size, Input iou_threshold,
                                         Input score_threshold, Input soft_nms_sigma,
                                         const Attrs& attrs)
    : operation(internal::NodeBuilder(scope, "NonMaxSuppressionV5")
                    .Input(boxes)
                    .Input(scores)
                    .Input(max_output_size)
                    .Input(iou_threshold)
                    .Input(score_threshold)
                    .Input(soft_nms_sigma)
                    .Attr("pad_to_max_output_size", attrs.pad_to_max_output_size_)
                    .Finalize()) {
  if (operation.node() == nullptr) return;
  selected_indices = Output(operation, 0);
  selected_scores = Output(operation, 1);
  valid_outputs = Output(operation, 2);
}

// Selections, not functions of the scores with a slope (TensorFlow's NotDifferentiable).
RILL_REGISTER_NO_GRADIENT("NonMaxSuppression");
RILL_REGISTER_NO_GRADIENT("NonMaxSuppressionV2");
RILL_REGISTER_NO_GRADIENT("NonMaxSuppressionV3");
RILL_REGISTER_NO_GRADIENT("NonMaxSuppressionV4");
RILL_REGISTER_NO_GRADIENT("NonMaxSuppressionV5");
RILL_REGISTER_NO_GRADIENT("NonMaxSuppressionWithOverlaps");
RILL_REGISTER_NO_GRADIENT("CombinedNonMaxSuppression");

}  // namespace ops
}  // namespace rill
