#include "rill/core/non_max_suppression.h"

#include <algorithm>
#include <cmath>
#include <queue>

#include "rill/core/status.h"

namespace rill {
namespace {

// IoU of boxes a and b (corners in either order); 0 when either has no area, NaN (as in
// TensorFlow) when a corner is NaN.
float Iou(const float* a, const float* b) {
  const float ay0 = std::min(a[0], a[2]), ax0 = std::min(a[1], a[3]);
  const float ay1 = std::max(a[0], a[2]), ax1 = std::max(a[1], a[3]);
  const float by0 = std::min(b[0], b[2]), bx0 = std::min(b[1], b[3]);
  const float by1 = std::max(b[0], b[2]), bx1 = std::max(b[1], b[3]);
  const float area_a = (ay1 - ay0) * (ax1 - ax0), area_b = (by1 - by0) * (bx1 - bx0);
  if (area_a <= 0 || area_b <= 0) return 0;
  const float h = std::max(std::min(ay1, by1) - std::max(ay0, by0), 0.f);
  const float w = std::max(std::min(ax1, bx1) - std::max(ax0, bx0), 0.f);
  const float inter = h * w;
  return inter / (area_a + area_b - inter);
}

struct Candidate {
  int32_t index;
  float score;
  // Boxes selected before this one was last compared are not compared again: each selected
  // box suppresses a candidate at most once.
  int64_t compared = 0;
};

// The priority: higher score first, then the lower index. Scores are never NaN here (only
// scores above the threshold enter the line), so this is a strict weak order.
struct Later {
  bool operator()(const Candidate& a, const Candidate& b) const {
    return a.score < b.score || (a.score == b.score && a.index > b.index);
  }
};

// The candidate's overlap with a selected box.
float OverlapOf(const NmsOverlap& o, int32_t candidate, int32_t selected) {
  if (o.overlaps != nullptr) return o.overlaps[candidate * o.n + selected];
  return Iou(o.boxes + 4 * int64_t{candidate}, o.boxes + 4 * int64_t{selected});
}

}  // namespace

NmsResult NonMaxSuppression(const NmsOverlap& overlap, const float* scores, const NmsOptions& o) {
  std::priority_queue<Candidate, std::vector<Candidate>, Later> line;
  for (int64_t i = 0; i < overlap.n; ++i) {
    if (scores[i] > o.score_threshold) line.push({static_cast<int32_t>(i), scores[i]});
  }
  // TensorFlow's rule: hard NMS drops a candidate whose IoU with a selected box is above
  // the threshold; Soft-NMS (sigma > 0) never drops, it scales the score by
  // exp(-IoU^2 / (2 sigma)) for every selected box, whatever the threshold.
  const bool soft = o.soft_nms_sigma > 0;
  const float scale = soft ? -0.5f / o.soft_nms_sigma : 0.f;
  NmsResult r;
  while (static_cast<int64_t>(r.indices.size()) < o.max_output && !line.empty()) {
    Candidate c = line.top();
    line.pop();
    const float original = c.score;
    bool suppressed = false;
    // Backwards: overlapping boxes tend to have close scores, so the last selected are the
    // likeliest to suppress.
    for (int64_t j = static_cast<int64_t>(r.indices.size()) - 1; j >= c.compared; --j) {
      const float iou = OverlapOf(overlap, c.index, r.indices[j]);
      // TensorFlow's weight in hard NMS: 0 past the threshold, and for a NaN IoU (a box
      // with a NaN corner), which so takes the candidate's score to 0.
      c.score *= soft || iou <= o.iou_threshold ? std::exp(scale * iou * iou) : 0.f;
      if (!soft && iou > o.iou_threshold) {
        suppressed = true;
        break;
      }
      if (c.score <= o.score_threshold) break;
    }
    c.compared = static_cast<int64_t>(r.indices.size());
    if (suppressed) continue;
    if (c.score == original) {
      r.indices.push_back(c.index);
      r.scores.push_back(c.score);
    } else if (c.score > o.score_threshold) {
      line.push(c);
    }
  }
  return r;
}

// Each message starts with TensorFlow's words for it.
absl::Status CheckNmsShapes(const PartialTensorShape& boxes, const PartialTensorShape& scores) {
  if (!boxes.unknown_rank() && boxes.dims() != 2) {
    return errors::InvalidArgument("boxes must be 2-D: [num_boxes, 4], is ", boxes.DebugString());
  }
  if (!boxes.unknown_rank() && boxes.dim_size(1) >= 0 && boxes.dim_size(1) != 4) {
    return errors::InvalidArgument("boxes must have 4 columns: [num_boxes, 4], is ",
                                   boxes.DebugString());
  }
  if (!scores.unknown_rank() && scores.dims() != 1) {
    return errors::InvalidArgument("scores must be 1-D, is ", scores.DebugString());
  }
  if (!boxes.unknown_rank() && !scores.unknown_rank() && boxes.dim_size(0) >= 0 &&
      scores.dim_size(0) >= 0 && boxes.dim_size(0) != scores.dim_size(0)) {
    return errors::InvalidArgument("scores has incompatible shape: boxes ", boxes.DebugString(),
                                   " and scores ", scores.DebugString(),
                                   " must have one score per box");
  }
  return absl::OkStatus();
}

absl::Status CheckOverlapShapes(const PartialTensorShape& overlaps,
                                const PartialTensorShape& scores) {
  if (!overlaps.unknown_rank() && overlaps.dims() != 2) {
    return errors::InvalidArgument("overlaps must be 2-D, is ", overlaps.DebugString());
  }
  if (!overlaps.unknown_rank() && overlaps.dim_size(0) >= 0 && overlaps.dim_size(1) >= 0 &&
      overlaps.dim_size(0) != overlaps.dim_size(1)) {
    return errors::InvalidArgument("overlaps must be square, is ", overlaps.DebugString());
  }
  if (!scores.unknown_rank() && scores.dims() != 1) {
    return errors::InvalidArgument("scores must be 1-D, is ", scores.DebugString());
  }
  const int64_t n =
      overlaps.unknown_rank() ? -1 : std::max(overlaps.dim_size(0), overlaps.dim_size(1));
  if (!scores.unknown_rank() && n >= 0 && scores.dim_size(0) >= 0 && scores.dim_size(0) != n) {
    return errors::InvalidArgument("scores has incompatible shape: overlaps ",
                                   overlaps.DebugString(), " and scores ", scores.DebugString(),
                                   " must have one score per box");
  }
  return absl::OkStatus();
}

absl::Status CheckNmsOptions(const NmsOptions& o) {
  if (o.max_output < 0) {
    return errors::InvalidArgument("max_output_size must be non-negative, is ", o.max_output);
  }
  if (!(o.iou_threshold >= 0 && o.iou_threshold <= 1)) {
    return errors::InvalidArgument("iou_threshold must be in [0, 1], is ", o.iou_threshold);
  }
  if (!(o.soft_nms_sigma >= 0)) {
    return errors::InvalidArgument("soft_nms_sigma must be non-negative, is ", o.soft_nms_sigma);
  }
  return absl::OkStatus();
}

}  // namespace rill
