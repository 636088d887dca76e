// Non-maximum suppression with TensorFlow's C++ names, inputs, attributes and outputs
// (core/non_max_suppression.h says what is selected): NonMaxSuppression (iou_threshold an
// attribute), V2 (an input), V3 (and score_threshold), V4 (and pad_to_max_output_size, with
// valid_outputs), V5 (and soft_nms_sigma, with selected_scores), WithOverlaps (a matrix
// of overlaps [n, n] for the boxes), CombinedNonMaxSuppression (per class, then per image). float32
// boxes [n, 4] and scores [n]; selected_indices int32, in selection order. CPU only; not
// differentiable, as in TensorFlow.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

struct NonMaxSuppressionAttrs {
  NonMaxSuppressionAttrs IouThreshold(float x) {
    NonMaxSuppressionAttrs r = *this;
    r.iou_threshold_ = x;
    return r;
  }
  float iou_threshold_ = 0.5f;
};

class NonMaxSuppression : public OpWrapper {
 public:
  using Attrs = NonMaxSuppressionAttrs;
  NonMaxSuppression(const Scope& scope, Input boxes, Input scores, Input max_output_size,
                    const Attrs& attrs = Attrs());
  static Attrs IouThreshold(float x) { return Attrs().IouThreshold(x); }
  Output selected_indices;  // TensorFlow's name for `output`
};

class NonMaxSuppressionV2 : public OpWrapper {
 public:
  NonMaxSuppressionV2(const Scope& scope, Input boxes, Input scores, Input max_output_size,
                      Input iou_threshold);
  Output selected_indices;  // TensorFlow's name for `output`
};

class NonMaxSuppressionV3 : public OpWrapper {
 public:
  NonMaxSuppressionV3(const Scope& scope, Input boxes, Input scores, Input max_output_size,
                      Input iou_threshold, Input score_threshold);
  Output selected_indices;  // TensorFlow's name for `output`
};

// The same greedy selection as V3 with the overlaps given: a candidate goes when
// overlaps[candidate][selected] is above overlap_threshold for a box selected before it.
class NonMaxSuppressionWithOverlaps : public OpWrapper {
 public:
  NonMaxSuppressionWithOverlaps(const Scope& scope, Input overlaps, Input scores,
                                Input max_output_size, Input overlap_threshold,
                                Input score_threshold);
  Output selected_indices;
};

// Per image of a batch, NMS for each class (boxes [batch, n, q, 4], q 1 or one box per
// class; scores [batch, n, classes]), then the best max_total_size detections of all
// classes (core/combined_nms.h). Attrs: PadPerClass (false), ClipBoxes (true).
struct CombinedNonMaxSuppressionAttrs {
  CombinedNonMaxSuppressionAttrs PadPerClass(bool x) {
    CombinedNonMaxSuppressionAttrs r = *this;
    r.pad_per_class_ = x;
    return r;
  }
  CombinedNonMaxSuppressionAttrs ClipBoxes(bool x) {
    CombinedNonMaxSuppressionAttrs r = *this;
    r.clip_boxes_ = x;
    return r;
  }
  bool pad_per_class_ = false, clip_boxes_ = true;
};

class CombinedNonMaxSuppression {
 public:
  using Attrs = CombinedNonMaxSuppressionAttrs;
  CombinedNonMaxSuppression(const Scope& scope, Input boxes, Input scores,
                            Input max_output_size_per_class, Input max_total_size,
                            Input iou_threshold, Input score_threshold,
                            const Attrs& attrs = Attrs());
  static Attrs PadPerClass(bool x) { return Attrs().PadPerClass(x); }
  static Attrs ClipBoxes(bool x) { return Attrs().ClipBoxes(x); }
  Operation operation;
  Output nmsed_boxes, nmsed_scores, nmsed_classes, valid_detections;
};

struct NonMaxSuppressionPadAttrs {
  NonMaxSuppressionPadAttrs PadToMaxOutputSize(bool x) {
    NonMaxSuppressionPadAttrs r = *this;
    r.pad_to_max_output_size_ = x;
    return r;
  }
  bool pad_to_max_output_size_ = false;  // pad selected_indices with 0s to max_output_size
};

class NonMaxSuppressionV4 {
 public:
  using Attrs = NonMaxSuppressionPadAttrs;
  NonMaxSuppressionV4(const Scope& scope, Input boxes, Input scores, Input max_output_size,
                      Input iou_threshold, Input score_threshold, const Attrs& attrs = Attrs());
  static Attrs PadToMaxOutputSize(bool x) { return Attrs().PadToMaxOutputSize(x); }
  Operation operation;
  Output selected_indices, valid_outputs;
};

class NonMaxSuppressionV5 {
 public:
  using Attrs = NonMaxSuppressionPadAttrs;
  NonMaxSuppressionV5(const Scope& scope, Input boxes, Input scores, Input max_output_size,
                      Input iou_threshold, Input score_threshold, Input soft_nms_sigma,
                      const Attrs& attrs = Attrs());
  static Attrs PadToMaxOutputSize(bool x) { return Attrs().PadToMaxOutputSize(x); }
  Operation operation;
  Output selected_indices, selected_scores, valid_outputs;
};

}  // namespace rill::ops
