// CombinedNonMaxSuppression (tf.image.combined_non_max_suppression): per image of a batch,
// hard NMS for each class on its own (core/non_max_suppression.h: at most
// max_output_size_per_class boxes scoring above score_threshold), then the selections of
// every class by descending score (ties: the lower class, then selection order), the first
// max_total_size of them kept. Outputs per image: the boxes (clipped to [0, 1] when
// clip_boxes), their scores and classes (as floats), zeros after the valid ones, and how
// many are valid. Shared by the kernel and the shape function.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

absl::Status CombinedNmsShape(InferenceContext& c);

struct CombinedNmsOptions {
  int64_t per_class = 0, total = 0;  // max_output_size_per_class, max_total_size
  float iou_threshold = 0.5f, score_threshold = 0;
  bool pad_per_class = false, clip_boxes = true;
};

// The kernel's work on its inputs (checked here) into its four outputs.
absl::Status CombinedNms(OpKernelContext& ctx, const CombinedNmsOptions& o);

// Detections per image: max_total_size, or with pad_per_class at most
// max_output_size_per_class times the number of classes.
int64_t CombinedNmsDetections(const CombinedNmsOptions& o, int64_t classes);

}  // namespace rill
