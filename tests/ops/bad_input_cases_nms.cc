// Valid recipes and op-specific bad inputs of the NonMaxSuppression ops: boxes not [n, 4],
// a score count other than the box count, thresholds and sizes TensorFlow refuses, inputs
// that should be scalars, each at construction (constants) and in the kernel (fed); for
// NonMaxSuppressionWithOverlaps, overlaps that are not a square matrix; for
// CombinedNonMaxSuppression, boxes that do not fit the scores and sizes that are not positive.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_nms {

void NmsCases() {
  const Tensor boxes = F({3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11});
  const Tensor scores = F({3}, {0.9f, 0.8f, 0.7f});
  const Tensor iou = FromDoubles(DT_FLOAT, {}, {0.5}), zero = FromDoubles(DT_FLOAT, {}, {0});
  // Each version's inputs past max_output_size, and its attrs.
  struct Version {
    const char* op;
    std::vector<Tensor> thresholds;
    AttrMap attrs;
  };
  for (const Version& v : std::vector<Version>{
           {"NonMaxSuppression", {}, {}},
           {"NonMaxSuppressionV2", {iou}, {}},
           {"NonMaxSuppressionV3", {iou, zero}, {}},
           {"NonMaxSuppressionV4", {iou, zero}, {{"pad_to_max_output_size", true}}},
           {"NonMaxSuppressionV5", {iou, zero, zero}, {{"pad_to_max_output_size", true}}}}) {
    auto recipe = [&](Tensor b, Tensor s, Tensor max_output, std::vector<Tensor> th) {
      std::vector<Tensor> in = {std::move(b), std::move(s), std::move(max_output)};
      in.insert(in.end(), th.begin(), th.end());
      return Recipe{v.op, in, v.attrs};
    };
    AddRecipe(recipe(boxes, scores, I({}, {2}), v.thresholds));
    Both("boxes of 3 coordinates", recipe(F({3, 3}), scores, I({}, {2}), v.thresholds),
         {"[num_boxes, 4]", "[3,3]"});
    Both("a score per box missing", recipe(boxes, F({2}), I({}, {2}), v.thresholds),
         {"[3,4]", "[2]"});
    Both("a negative max_output_size", recipe(boxes, scores, I({}, {-1}), v.thresholds),
         {"non-negative", "-1"});
    Both("max_output_size a vector", recipe(boxes, scores, I({1}, {2}), v.thresholds),
         {"max_output_size"});
    if (v.thresholds.empty()) continue;
    std::vector<Tensor> over = v.thresholds;
    over[0] = FromDoubles(DT_FLOAT, {}, {1.5});
    Both("an iou_threshold above 1", recipe(boxes, scores, I({}, {2}), over), {"[0, 1]", "1.5"});
    if (v.thresholds.size() < 3) continue;
    std::vector<Tensor> negative = v.thresholds;
    negative[2] = FromDoubles(DT_FLOAT, {}, {-0.5});
    Both("a negative soft_nms_sigma", recipe(boxes, scores, I({}, {2}), negative),
         {"soft_nms_sigma", "-0.5"});
  }
}

// NonMaxSuppressionWithOverlaps(overlaps, scores, max_output_size, overlap_threshold,
// score_threshold): overlaps [n, n].
void OverlapCases() {
  const char* op = "NonMaxSuppressionWithOverlaps";
  auto recipe = [op](Tensor overlaps, Tensor scores, Tensor max_output) {
    return Recipe{op,
                  {std::move(overlaps), std::move(scores), std::move(max_output),
                   FromDoubles(DT_FLOAT, {}, {0.5}), FromDoubles(DT_FLOAT, {}, {0})}};
  };
  const Tensor overlaps = F({3, 3}, {1, 0.2f, 0.7f, 0.2f, 1, 0, 0.7f, 0, 1});
  const Tensor scores = F({3}, {0.9f, 0.8f, 0.7f});
  AddRecipe(recipe(overlaps, scores, I({}, {2})));
  Both("overlaps that are not square", recipe(F({3, 2}), scores, I({}, {2})), {"square", "[3,2]"});
  Both("overlaps of rank 3", recipe(F({3, 3, 1}), scores, I({}, {2})), {"2-D", "[3,3,1]"});
  Both("a score per box missing", recipe(overlaps, F({2}), I({}, {2})),
       {"scores has incompatible shape", "[2]"});
  Both("a negative max_output_size", recipe(overlaps, scores, I({}, {-3})), {"non-negative", "-3"});
  Both("max_output_size a vector", recipe(overlaps, scores, I({1}, {2})), {"max_output_size"});
}

// CombinedNonMaxSuppression(boxes [batch, n, q, 4], scores [batch, n, classes],
// max_output_size_per_class, max_total_size, iou_threshold, score_threshold).
void CombinedCases() {
  const char* op = "CombinedNonMaxSuppression";
  auto recipe = [op](Tensor boxes, Tensor scores, int per_class, int total, float iou) {
    return Recipe{op,
                  {std::move(boxes), std::move(scores), I({}, {per_class}), I({}, {total}),
                   FromDoubles(DT_FLOAT, {}, {iou}), FromDoubles(DT_FLOAT, {}, {0})}};
  };
  const Tensor boxes = F({1, 2, 1, 4}, {0, 0, 0.5f, 0.5f, 0.5f, 0.5f, 1, 1});
  const Tensor scores = F({1, 2, 3});
  AddRecipe(recipe(boxes, scores, 2, 3, 0.5f));
  Both("boxes of 3 columns", recipe(F({1, 2, 1, 3}), scores, 2, 3, 0.5f),
       {"4 columns", "[1,2,1,3]"});
  Both("a box for 2 of 3 classes", recipe(F({1, 2, 2, 4}), scores, 2, 3, 0.5f),
       {"third dimension of boxes must be either 1 or num classes", "[1,2,2,4]"});
  Both("3-D boxes", recipe(F({2, 1, 4}), scores, 2, 3, 0.5f), {"4-D", "[2,1,4]"});
  Both("scores for another batch", recipe(boxes, F({2, 2, 3}), 2, 3, 0.5f),
       {"scores has incompatible shape", "[2,2,3]"});
  Both("a zero max_total_size", recipe(boxes, scores, 2, 0, 0.5f), {"max_total_size must be > 0"});
  Both("a negative size per class", recipe(boxes, scores, -2, 3, 0.5f),
       {"max_size_per_class must be positive", "-2"});
  Both("an iou_threshold above 1", recipe(boxes, scores, 2, 3, 1.5f), {"[0, 1]", "1.5"});
  // 2^40 images of no boxes: [2^40, 2^31 - 1, 4] outputs would overflow the element count.
  const int64_t images = int64_t{1} << 40;
  Both("a batch of empty images too long for the output",
       recipe(Tensor(DT_FLOAT, TensorShape({images, 0, 1, 4})),
              Tensor(DT_FLOAT, TensorShape({images, 0, 3})), 2, 2147483647, 0.5f),
       {"int64"});
}

const bool kRegistered = [] {
  NmsCases();
  OverlapCases();
  CombinedCases();
  return true;
}();

}  // namespace bad_input_cases_nms
}  // namespace
}  // namespace rill::testing
