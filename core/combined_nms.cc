#include "rill/core/combined_nms.h"

#include <algorithm>
#include <vector>

#include "rill/core/non_max_suppression.h"

namespace rill {
namespace {

// boxes [batch, boxes, q, 4] and scores [batch, boxes, classes], q 1 or classes (dims of
// -1: unknown). Messages start with TensorFlow's words.
absl::Status CheckShapes(const PartialTensorShape& boxes, const PartialTensorShape& scores) {
  if (!boxes.unknown_rank() && boxes.dims() != 4) {
    return errors::InvalidArgument("boxes must be 4-D [batch, num_boxes, q, 4], is ",
                                   boxes.DebugString());
  }
  if (!scores.unknown_rank() && scores.dims() != 3) {
    return errors::InvalidArgument("scores must be 3-D [batch, num_boxes, num_classes], is ",
                                   scores.DebugString());
  }
  if (boxes.unknown_rank()) return absl::OkStatus();
  if (boxes.dim_size(3) >= 0 && boxes.dim_size(3) != 4) {
    return errors::InvalidArgument("boxes must have 4 columns, is ", boxes.DebugString());
  }
  if (scores.unknown_rank()) return absl::OkStatus();
  for (int d = 0; d < 2; ++d) {
    if (boxes.dim_size(d) >= 0 && scores.dim_size(d) >= 0 &&
        boxes.dim_size(d) != scores.dim_size(d)) {
      return errors::InvalidArgument("scores has incompatible shape: boxes ", boxes.DebugString(),
                                     " and scores ", scores.DebugString());
    }
  }
  const int64_t q = boxes.dim_size(2), classes = scores.dim_size(2);
  if (q >= 0 && classes >= 0 && q != 1 && q != classes) {
    return errors::InvalidArgument("third dimension of boxes must be either 1 or num classes (",
                                   classes, "), is ", boxes.DebugString());
  }
  return absl::OkStatus();
}

absl::Status CheckSizes(const CombinedNmsOptions& o) {
  if (o.per_class <= 0) {
    return errors::InvalidArgument("max_size_per_class must be positive, is ", o.per_class);
  }
  if (o.total <= 0) return errors::InvalidArgument("max_total_size must be > 0, is ", o.total);
  NmsOptions n;
  n.iou_threshold = o.iou_threshold;
  return CheckNmsOptions(n);
}

struct Detection {
  float score;
  int64_t cls, box;
};

// Image b's detections of every class, best first.
std::vector<Detection> Detect(const Tensor& boxes, const Tensor& scores, int64_t b,
                              const CombinedNmsOptions& o) {
  const int64_t n = boxes.dim_size(1), q = boxes.dim_size(2), classes = scores.dim_size(2);
  std::vector<float> class_boxes(static_cast<size_t>(4 * n)), class_scores(static_cast<size_t>(n));
  NmsOptions nms;
  nms.max_output = o.per_class;
  nms.iou_threshold = o.iou_threshold;
  nms.score_threshold = o.score_threshold;
  std::vector<Detection> all;
  for (int64_t c = 0; c < classes; ++c) {
    for (int64_t i = 0; i < n; ++i) {
      const float* box = boxes.base<float>() + ((b * n + i) * q + (q > 1 ? c : 0)) * 4;
      std::copy(box, box + 4, class_boxes.begin() + 4 * i);
      class_scores[i] = scores.base<float>()[(b * n + i) * classes + c];
    }
    const NmsResult r =
        NonMaxSuppression({.boxes = class_boxes.data(), .n = n}, class_scores.data(), nms);
    for (size_t k = 0; k < r.indices.size(); ++k) all.push_back({r.scores[k], c, r.indices[k]});
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const Detection& x, const Detection& y) { return x.score > y.score; });
  return all;
}

}  // namespace

int64_t CombinedNmsDetections(const CombinedNmsOptions& o, int64_t classes) {
  if (!o.pad_per_class) return o.total;
  if (classes <= 0) return 0;
  return o.per_class > o.total / classes ? o.total : std::min(o.total, o.per_class * classes);
}

absl::Status CombinedNmsShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(CheckShapes(c.input_shape(0), c.input_shape(1)));
  const char* names[] = {"max_output_size_per_class", "max_total_size", "iou_threshold",
                         "score_threshold"};
  for (int k = 0; k < 4; ++k) RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 2 + k, names[k]));
  const PartialTensorShape& boxes = c.input_shape(0);
  const int64_t batch = boxes.unknown_rank() ? -1 : boxes.dim_size(0);
  int64_t detections = -1;
  const Tensor *per_class = c.input_tensor(2), *total = c.input_tensor(3);
  if (per_class != nullptr && total != nullptr && per_class->NumElements() == 1 &&
      total->NumElements() == 1) {
    CombinedNmsOptions o;
    o.per_class = per_class->base<int32_t>()[0];
    o.total = total->base<int32_t>()[0];
    if (const Tensor* iou = c.input_tensor(4); iou != nullptr && iou->NumElements() == 1) {
      o.iou_threshold = iou->base<float>()[0];
    }
    o.pad_per_class = c.attr<bool>("pad_per_class");
    RILL_RETURN_IF_ERROR(CheckSizes(o));
    const PartialTensorShape& scores = c.input_shape(1);
    const int64_t classes = scores.unknown_rank() ? -1 : scores.dim_size(2);
    if (!o.pad_per_class || classes >= 0) detections = CombinedNmsDetections(o, classes);
  }
  RILL_ASSIGN_OR_RETURN(PartialTensorShape box_shape,
                        PartialTensorShape::Build({batch, detections, 4}));
  RILL_ASSIGN_OR_RETURN(PartialTensorShape score_shape,
                        PartialTensorShape::Build({batch, detections}));
  c.set_output(0, box_shape);
  c.set_output(1, score_shape);
  c.set_output(2, score_shape);
  c.set_output(3, PartialTensorShape({batch}));
  return absl::OkStatus();
}

absl::Status CombinedNms(OpKernelContext& ctx, const CombinedNmsOptions& o) {
  const Tensor &boxes = ctx.input(0), &scores = ctx.input(1);
  RILL_RETURN_IF_ERROR(
      CheckShapes(PartialTensorShape(boxes.shape()), PartialTensorShape(scores.shape())));
  RILL_RETURN_IF_ERROR(CheckSizes(o));
  const int64_t batch = boxes.dim_size(0),
                detections = CombinedNmsDetections(o, scores.dim_size(2));
  // Built checked: a batch of empty images may be long enough to overflow batch * detections.
  RILL_ASSIGN_OR_RETURN(const TensorShape box_shape, TensorShape::Build({batch, detections, 4}));
  RILL_ASSIGN_OR_RETURN(const TensorShape score_shape, TensorShape::Build({batch, detections}));
  Tensor *out_boxes, *out_scores, *out_classes, *valid;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, box_shape, &out_boxes));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(1, score_shape, &out_scores));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(2, score_shape, &out_classes));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(3, TensorShape({batch}), &valid));
  std::fill_n(out_boxes->base<float>(), out_boxes->NumElements(), 0.0f);
  std::fill_n(out_scores->base<float>(), out_scores->NumElements(), 0.0f);
  std::fill_n(out_classes->base<float>(), out_classes->NumElements(), 0.0f);
  const int64_t n = boxes.dim_size(1), q = boxes.dim_size(2);
  for (int64_t b = 0; b < batch; ++b) {
    const std::vector<Detection> all = Detect(boxes, scores, b, o);
    const int64_t kept = std::min<int64_t>(detections, static_cast<int64_t>(all.size()));
    valid->base<int32_t>()[b] = static_cast<int32_t>(kept);
    for (int64_t k = 0; k < kept; ++k) {
      const Detection& d = all[static_cast<size_t>(k)];
      const float* box = boxes.base<float>() + ((b * n + d.box) * q + (q > 1 ? d.cls : 0)) * 4;
      float* to = out_boxes->base<float>() + (b * detections + k) * 4;
      for (int j = 0; j < 4; ++j) to[j] = o.clip_boxes ? std::clamp(box[j], 0.0f, 1.0f) : box[j];
      out_scores->base<float>()[b * detections + k] = d.score;
      out_classes->base<float>()[b * detections + k] = static_cast<float>(d.cls);
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
