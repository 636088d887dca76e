// The NonMaxSuppression ops on TensorFlow's cases (three clusters of boxes, flipped corners,
// identical boxes, thresholds, padding, Soft-NMS; the expected selections worked out by
// hand from the rule), values TensorFlow's kernel treats specially (NaN scores and
// corners), and refusals.
#include <cmath>

#include "rill/core/testing/status_test_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace nms_test {

MarkTested tested({"NonMaxSuppression", "NonMaxSuppressionV2", "NonMaxSuppressionV3",
                   "NonMaxSuppressionV4", "NonMaxSuppressionV5", "NonMaxSuppressionWithOverlaps",
                   "CombinedNonMaxSuppression"});

Tensor Boxes(const std::vector<float>& v) {
  return FromDoubles(DT_FLOAT, {static_cast<int64_t>(v.size() / 4), 4},
                     std::vector<double>(v.begin(), v.end()));
}
Tensor Vec(const std::vector<float>& v) {
  return FromDoubles(DT_FLOAT, {static_cast<int64_t>(v.size())},
                     std::vector<double>(v.begin(), v.end()));
}

// Three clusters: boxes 0-2 overlap (IoU 0.82 and 0.67), 3-4 overlap (0.82), 5 stands alone.
const std::vector<float> kClusters = {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                      0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101};
const std::vector<float> kFlipped = {1, 1,  0, 0,  0, 0.1f,  1, 1.1f,  0, 0.9f, 1, -0.1f,
                                     0, 10, 1, 11, 1, 10.1f, 0, 11.1f, 1, 101,  0, 100};
const std::vector<float> kScores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};

std::vector<double> V3(const std::vector<float>& boxes, const std::vector<float>& scores,
                       int max_output, float iou, float score_threshold) {
  Scope s = Scope::NewRootScope();
  auto nms = ops::NonMaxSuppressionV3(s, ops::Const(s, Boxes(boxes)), ops::Const(s, Vec(scores)),
                                      ops::Const(s, max_output), ops::Const(s, iou),
                                      ops::Const(s, score_threshold));
  ClientSession session(s);
  std::vector<Tensor> out;
  EXPECT_TRUE(session.Run({nms.selected_indices}, &out).ok());
  return out.empty() ? std::vector<double>{-1} : ToDoubles(out[0]);
}

std::vector<float> TenIdenticalBoxes() {
  std::vector<float> b;
  for (int i = 0; i < 10; ++i) b.insert(b.end(), {0, 0, 1, 1});
  return b;
}

TEST(NonMaxSuppression, TensorFlowsClusters) {
  const float none = -std::numeric_limits<float>::infinity();
  using D = std::vector<double>;
  EXPECT_EQ(V3(kClusters, kScores, 3, 0.5f, none), D({3, 0, 5}));
  EXPECT_EQ(V3(kFlipped, kScores, 3, 0.5f, none), D({3, 0, 5}));
  EXPECT_EQ(V3(kClusters, kScores, 2, 0.5f, none), D({3, 0}));
  EXPECT_EQ(V3(kClusters, kScores, 30, 0.5f, none), D({3, 0, 5}));
  EXPECT_EQ(V3(kClusters, kScores, 30, 0.5f, 0.4f), D({3, 0}));  // box 5 scores 0.3
  // Above every overlap (the largest is 0.9 / 1.1): all, by score.
  EXPECT_EQ(V3(kClusters, kScores, 30, 0.85f, none), D({3, 0, 1, 2, 4, 5}));
  EXPECT_EQ(V3({0, 0, 1, 1}, {0.9f}, 3, 0.5f, none), D({0}));
  EXPECT_EQ(V3(TenIdenticalBoxes(), std::vector<float>(10, 0.9f), 3, 0.5f, none), D({0}));
  EXPECT_EQ(V3({}, {}, 3, 0.5f, none), D({}));
  EXPECT_EQ(V3(kClusters, kScores, 0, 0.5f, none), D({}));
}

// NaN scores never enter the line (TensorFlow keeps only scores above the threshold); a
// box with a NaN corner overlaps nothing, and a candidate compared with it gets score 0.
TEST(NonMaxSuppression, NaNScoresAndCorners) {
  const float nan = std::nanf(""), none = -std::numeric_limits<float>::infinity();
  using D = std::vector<double>;
  EXPECT_EQ(V3(kClusters, {0.9f, nan, nan, 0.95f, nan, 0.3f}, 6, 0.5f, none), D({3, 0, 5}));
  std::vector<float> boxes = kClusters;
  boxes[0] = nan;
  // Box 0 (NaN) meets box 3 first: its score becomes 0, not above the threshold 0, so it
  // leaves; box 1, no longer suppressed by it, is selected.
  EXPECT_EQ(V3(boxes, kScores, 6, 0.5f, 0.f), D({3, 1, 5}));
}

// A box goes when its IoU is above the threshold, not at it (TensorFlow's kernel, and
// ONNX's rule): boxes 0 and 1 overlap by exactly 0.5.
TEST(NonMaxSuppression, AnOverlapAtTheThresholdStays) {
  const float none = -std::numeric_limits<float>::infinity();
  using D = std::vector<double>;
  const std::vector<float> boxes = {0, 0, 1, 1, 0, 0, 1, 0.5f};
  EXPECT_EQ(V3(boxes, {0.9f, 0.8f}, 2, 0.5f, none), D({0, 1}));
  EXPECT_EQ(V3(boxes, {0.9f, 0.8f}, 2, 0.49f, none), D({0}));
  // At a threshold of 1 even coinciding boxes stay.
  EXPECT_EQ(V3(TenIdenticalBoxes(), std::vector<float>(10, 0.9f), 2, 1.f, none), D({0, 1}));
}

TEST(NonMaxSuppression, V4PadsAndCountsTheValidOutputs) {
  Scope s = Scope::NewRootScope();
  auto nms = ops::NonMaxSuppressionV4(
      s, ops::Const(s, Boxes(kClusters)), ops::Const(s, Vec(kScores)), ops::Const(s, 6),
      ops::Const(s, 0.5f), ops::Const(s, 0.4f), ops::NonMaxSuppressionV4::PadToMaxOutputSize(true));
  EXPECT_EQ(nms.selected_indices.node()->output_shape(0), PartialTensorShape({6}));
  ClientSession session(s);
  std::vector<Tensor> out;
  TF_ASSERT_OK(session.Run({nms.selected_indices, nms.valid_outputs}, &out));
  EXPECT_EQ(ToDoubles(out[0]), std::vector<double>({3, 0, 0, 0, 0, 0}));
  EXPECT_EQ(out[1].scalar<int32_t>()(), 2);
}

// Soft-NMS (sigma 0.5, so each overlap o scales a score by exp(-o^2)): box 1 drops to
// 0.75 exp(-(0.9/1.1)^2) = 0.384 but is still selected, before box 5's 0.3. The IoU
// threshold plays no part: 1 and 0.5 select alike.
TEST(NonMaxSuppression, V5SoftNmsDecaysScores) {
  Scope s = Scope::NewRootScope();
  auto iou = ops::Placeholder(s, DT_FLOAT);
  auto nms =
      ops::NonMaxSuppressionV5(s, ops::Const(s, Boxes(kClusters)), ops::Const(s, Vec(kScores)),
                               ops::Const(s, 6), iou, ops::Const(s, 0.f), ops::Const(s, 0.5f));
  ClientSession session(s);
  std::vector<Tensor> out, at_half;
  TF_ASSERT_OK(session.Run({{iou, 1.f}},
                           {nms.selected_indices, nms.selected_scores, nms.valid_outputs}, &out));
  TF_ASSERT_OK(session.Run({{iou, 0.5f}}, {nms.selected_indices, nms.selected_scores}, &at_half));
  EXPECT_EQ(ToDoubles(at_half[0]), ToDoubles(out[0]));
  EXPECT_EQ(ToDoubles(at_half[1]), ToDoubles(out[1]));
  EXPECT_EQ(ToDoubles(out[0]), std::vector<double>({3, 0, 1, 5, 4, 2}));
  const double o01 = 0.9 / 1.1, o12 = 0.8 / 1.2;
  ExpectTensorNear(out[1], DT_FLOAT, {6},
                   {0.95, 0.9, 0.75 * std::exp(-o01 * o01), 0.3, 0.5 * std::exp(-o01 * o01),
                    0.6 * std::exp(-o01 * o01) * std::exp(-o12 * o12)},
                   1e-6);
  EXPECT_EQ(out[2].scalar<int32_t>()(), 6);
}

TEST(NonMaxSuppression, V1AndV2SelectAsV3WithoutAScoreThreshold) {
  Scope s = Scope::NewRootScope();
  auto boxes = ops::Const(s, Boxes(kClusters)), scores = ops::Const(s, Vec(kScores));
  auto v1 = ops::NonMaxSuppression(s, boxes, scores, ops::Const(s, 3),
                                   ops::NonMaxSuppression::IouThreshold(0.5f));
  auto v2 = ops::NonMaxSuppressionV2(s, boxes, scores, ops::Const(s, 3), ops::Const(s, 0.5f));
  ClientSession session(s);
  std::vector<Tensor> out;
  TF_ASSERT_OK(session.Run({v1.selected_indices, v2.selected_indices}, &out));
  EXPECT_EQ(ToDoubles(out[0]), std::vector<double>({3, 0, 5}));
  EXPECT_EQ(ToDoubles(out[1]), std::vector<double>({3, 0, 5}));
}

// A matrix of overlaps that is not an IoU (not symmetric; above 1): box 1 goes because its
// overlap with the selected box 0 is above the threshold, box 2 stays because its row is
// read (candidate, selected), whatever box 0's row says about it.
TEST(NonMaxSuppression, WithOverlapsReadsTheCandidatesRow) {
  Scope s = Scope::NewRootScope();
  const Tensor overlaps = FromDoubles(DT_FLOAT, {3, 3}, {0, 0, 5, 2, 0, 0, 0.5, 0, 0});
  auto nms = ops::NonMaxSuppressionWithOverlaps(
      s, ops::Const(s, overlaps), ops::Const(s, Vec({0.9f, 0.8f, 0.7f})), ops::Const(s, 10),
      ops::Const(s, 1.5f), ops::Const(s, 0.0f));
  ClientSession session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({nms.selected_indices}, &out).ok());
  EXPECT_EQ(ToDoubles(out[0]), (std::vector<double>{0, 2}));
}

// Two classes of the same two boxes (IoU 0.8): each class keeps its best box and drops the
// other. With pad_per_class the shape is known when the graph is built: min(total 5,
// 2 per class x 2 classes) = 4 detections, two of them padding; box 0's x of 1.25 is
// clipped to 1.
TEST(NonMaxSuppression, CombinedSelectsPerClassThenAcrossClasses) {
  Scope s = Scope::NewRootScope();
  const Tensor boxes = FromDoubles(DT_FLOAT, {1, 2, 1, 4}, {0, 0, 1, 1.25, 0, 0, 1, 1});
  const Tensor scores = FromDoubles(DT_FLOAT, {1, 2, 2}, {0.6, 0.7, 0.9, 0.2});
  auto nms = ops::CombinedNonMaxSuppression(
      s, ops::Const(s, boxes), ops::Const(s, scores), ops::Const(s, 2), ops::Const(s, 5),
      ops::Const(s, 0.5f), ops::Const(s, 0.0f), ops::CombinedNonMaxSuppression::PadPerClass(true));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(nms.nmsed_boxes.shape().DebugString(), "[1,4,4]");
  ClientSession session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(
      session
          .Run({nms.nmsed_boxes, nms.nmsed_scores, nms.nmsed_classes, nms.valid_detections}, &out)
          .ok());
  ExpectTensorNear(out[1], DT_FLOAT, {1, 4}, {0.9f, 0.7f, 0, 0}, 0);
  EXPECT_EQ(ToDoubles(out[2]), (std::vector<double>{0, 1, 0, 0}));
  EXPECT_EQ(ToDoubles(out[0]),
            (std::vector<double>{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(ToDoubles(out[3]), (std::vector<double>{2}));
}

TEST(NonMaxSuppression, RefusesWhatTensorFlowRefuses) {
  struct Bad {
    std::vector<float> boxes;
    int64_t box_cols;
    int max_output;
    float iou, sigma;
    std::string says;
  };
  for (const Bad& b : std::vector<Bad>{
           {kClusters, 4, -1, 0.5f, 0.f, "max_output_size must be non-negative"},
           {kClusters, 4, 3, 1.2f, 0.f, "iou_threshold must be in [0, 1]"},
           {kClusters, 4, 3, std::nanf(""), 0.f, "iou_threshold"},
           {kClusters, 4, 3, 0.5f, -1.f, "soft_nms_sigma must be non-negative"},
           {kClusters, 3, 3, 0.5f, 0.f, "[num_boxes, 4]"},
           {std::vector<float>(kClusters.begin(), kClusters.begin() + 20), 4, 3, 0.5f, 0.f,
            "one score per box"},
       }) {
    SCOPED_TRACE(b.says);
    Scope s = Scope::NewRootScope();
    const Tensor boxes =
        FromDoubles(DT_FLOAT, {static_cast<int64_t>(b.boxes.size()) / b.box_cols, b.box_cols},
                    std::vector<double>(b.boxes.begin(), b.boxes.end()));
    // Fed, so that the kernel's own checks answer (constants are refused when added).
    auto x = ops::Placeholder(s, DT_FLOAT), sc = ops::Placeholder(s, DT_FLOAT);
    auto m = ops::Placeholder(s, DT_INT32), iou = ops::Placeholder(s, DT_FLOAT);
    auto sigma = ops::Placeholder(s, DT_FLOAT);
    auto nms = ops::NonMaxSuppressionV5(s, x, sc, m, iou, ops::Const(s, 0.f), sigma);
    ClientSession session(s);
    std::vector<Tensor> out;
    absl::Status st = session.Run({{x, boxes},
                                   {sc, Vec(kScores)},
                                   {m, Tensor(b.max_output)},
                                   {iou, Tensor(b.iou)},
                                   {sigma, Tensor(b.sigma)}},
                                  {nms.selected_indices}, &out);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
    EXPECT_NE(st.message().find(b.says), std::string::npos) << st;
  }
}

}  // namespace nms_test
}  // namespace
}  // namespace rill::testing
