// Greedy non-maximum suppression, as TensorFlow's NonMaxSuppression ops compute it: boxes
// [n, 4] (two opposite corners, y then x, in either order), visited by descending score
// (ties: the lower index first), only those scoring above score_threshold. A box is
// selected unless its IoU with a box selected before it reaches iou_threshold. With
// soft_nms_sigma > 0 (Soft-NMS, Bodla et al.), each overlap below the threshold instead
// scales the score by exp(-iou^2 / (2 sigma)); a box whose score drops goes back in line,
// and leaves it when the score is no longer above score_threshold. Shared by the kernel
// and the shape function's checks.
#pragma once

#include <cstdint>
#include <vector>

#include "rill/core/kernel.h"

namespace rill {

struct NmsOptions {
  int64_t max_output = 0;
  float iou_threshold = 0.5f;
  float score_threshold = -std::numeric_limits<float>::infinity();
  float soft_nms_sigma = 0;
};

struct NmsResult {
  std::vector<int32_t> indices;  // in selection order
  std::vector<float> scores;     // the selected boxes' (soft-NMS: decayed) scores
};

// What decides whether a selected box suppresses a candidate: the IoU of two of `boxes`
// [n, 4], or, when `overlaps` is set, its entry [candidate, selected] of an [n, n] matrix
// (NonMaxSuppressionWithOverlaps; the threshold is then any value).
struct NmsOverlap {
  const float* boxes = nullptr;
  const float* overlaps = nullptr;
  int64_t n = 0;
};

NmsResult NonMaxSuppression(const NmsOverlap& overlap, const float* scores,
                            const NmsOptions& options);

// InvalidArgument unless overlaps is [n, n] and scores [n] (dims of -1: unknown).
absl::Status CheckOverlapShapes(const PartialTensorShape& overlaps,
                                const PartialTensorShape& scores);

// InvalidArgument unless boxes is [n, 4] and scores [n] (dims of -1: unknown, for shape
// functions).
absl::Status CheckNmsShapes(const PartialTensorShape& boxes, const PartialTensorShape& scores);

// InvalidArgument for a negative max_output_size, an iou_threshold outside [0, 1] or NaN,
// a negative or NaN soft_nms_sigma.
absl::Status CheckNmsOptions(const NmsOptions& o);

}  // namespace rill
