// ONNX's NonMaxSuppression (opsets 10 and 11) as TensorFlow's NonMaxSuppressionV3, once
// per batch and class: that batch's boxes, that class's scores; each selection becomes
// [batch, class, box] rows (int64), batch by batch and class by class, as ONNX orders them.
//  - ONNX suppresses a box whose IoU is above iou_threshold, TensorFlow's kernel from the
//    threshold on: the threshold given to the kernel is the next float up (the same test on
//    float IoUs). Only a threshold of 1 has no such float inside TensorFlow's [0, 1]:
//    there, exactly coinciding boxes are suppressed, which ONNX keeps.
//  - center_point_box 1 boxes ([x, y, width, height]) become corners; IoU does not care
//    that x then comes first.
//  - The batch and class counts must be known when the model is imported (the loop is
//    unrolled, at most 4,096 pairs), and max_output_boxes_per_class, iou_threshold and
//    score_threshold too.
#include <limits>
#include <string>
#include <vector>

#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

constexpr int64_t kMaxPairs = 4096;

// Optional scalar input i (a tensor of one element) as a float, or `dflt` when absent.
absl::StatusOr<float> ConstFloat(NodeContext& c, int i, const char* what, float dflt) {
  if (!c.has_input(i)) return dflt;
  const Tensor* t = c.constant_input(i);
  if (t == nullptr || t->NumElements() != 1 || t->dtype() != DT_FLOAT) {
    return c.Error(what, " must be a float known when the model is imported");
  }
  return t->flat<float>()(0);
}

// The boxes as corners: center_point_box 1's [x, y, w, h] become [x - w/2, y - h/2,
// x + w/2, y + h/2].
Output Corners(NodeContext& c, const Output& boxes) {
  if (c.attrs().i("center_point_box", 0) == 0) return boxes;
  Output xy = c.Op("Slice", {boxes, c.Int64s({0, 0, 0}), c.Int64s({-1, -1, 2})});
  Output wh = c.Op("Slice", {boxes, c.Int64s({0, 0, 2}), c.Int64s({-1, -1, 2})});
  Output half = c.Op("Mul", {wh, c.Const(Tensor(0.5f))});
  return c.Op("ConcatV2", {c.Op("Sub", {xy, half}), c.Op("Add", {xy, half}), ScalarI32(c, 2)});
}

absl::Status ConvertNonMaxSuppression(NodeContext& c) {
  const PartialTensorShape &bs = c.input(0).node()->output_shape(c.input(0).index()),
                           &ss = c.input(1).node()->output_shape(c.input(1).index());
  if (bs.unknown_rank() || ss.unknown_rank() || bs.dims() != 3 || ss.dims() != 3 ||
      bs.dim_size(0) < 0 || ss.dim_size(1) < 0) {
    return c.Error(
        "boxes [batches, boxes, 4] and scores [batches, classes, boxes] need known "
        "batch and class counts, have ",
        bs.DebugString(), " and ", ss.DebugString());
  }
  const int64_t batches = bs.dim_size(0), classes = ss.dim_size(1);
  if (batches * classes > kMaxPairs) {  // each at most 2^63 / 2^63: no overflow past the check
    return c.Error(batches, " batches x ", classes, " classes is over ", kMaxPairs,
                   " selections to unroll");
  }
  int64_t max_out = 0;
  if (c.has_input(2)) {
    RILL_ASSIGN_OR_RETURN(std::vector<int64_t> m, c.ConstInts(2, "max_output_boxes_per_class"));
    max_out = m.empty() ? 0 : std::clamp<int64_t>(m[0], 0, std::numeric_limits<int32_t>::max());
  }
  RILL_ASSIGN_OR_RETURN(float iou, ConstFloat(c, 3, "iou_threshold", 0.f));
  RILL_ASSIGN_OR_RETURN(
      float score, ConstFloat(c, 4, "score_threshold", -std::numeric_limits<float>::infinity()));
  const Output boxes = Corners(c, c.input(0));
  std::vector<Output> rows;
  for (int64_t b = 0; b < batches; ++b) {
    Output bb = c.Op("Reshape", {c.Op("Slice", {boxes, c.Int64s({b, 0, 0}), c.Int64s({1, -1, 4})}),
                                 c.Int64s({-1, 4})});
    for (int64_t k = 0; k < classes; ++k) {
      Output sc = c.Op(
          "Reshape",
          {c.Op("Slice", {c.input(1), c.Int64s({b, k, 0}), c.Int64s({1, 1, -1})}), c.Int64s({-1})});
      Output sel = c.Op("NonMaxSuppressionV3", {bb, sc, ScalarI32(c, max_out), c.Const(Tensor(iou)),
                                                c.Const(Tensor(score))});
      Output idx = c.Op("Cast", {sel}, {{"DstT", DT_INT64}});
      Output zeros = c.Op("ZerosLike", {idx});
      rows.push_back(c.Op(
          "Pack",
          {c.Op("Add", {zeros, c.Const(Tensor(b))}), c.Op("Add", {zeros, c.Const(Tensor(k))}), idx},
          {{"axis", int64_t{1}}}));
    }
  }
  if (rows.empty()) {
    c.set_output(0, c.Const(Tensor(DT_INT64, TensorShape({0, 3}))));
    return absl::OkStatus();
  }
  rows.push_back(ScalarI32(c, 0));
  c.set_output(0, c.Op("ConcatV2", rows));
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertNmsRegistered = [] {
  ConverterRegistry::Global()->Register(
      {"NonMaxSuppression", 10, nullptr, ConvertNonMaxSuppression, {2, 3, 4}});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
