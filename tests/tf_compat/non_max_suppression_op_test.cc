// The cases of TensorFlow's tensorflow/core/kernels/image/non_max_suppression_op_test.cc
// for NonMaxSuppression, V2, V3, V4 and V5, which drive the ops through OpsTestBase
// (runtime/testing/ops_testutil.h), rewritten against rill (their inputs and expected
// values are TensorFlow's; the code is ours). V1 takes iou_threshold as an attribute, V2
// as an input; both run every case of either. NonMaxSuppressionWithOverlaps gets the boxes'
// pairwise IoU as its matrix, computed here as TensorFlow's test computes it. Left out: V3's
// and V4's half-precision variants (rill has no half) and CombinedNonMaxSuppression (rill has
// no such op).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace non_max_suppression_op_test {

// Three clusters of two boxes each, and their scores.
const std::vector<float> kClusters = {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                      0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101};
const std::vector<float> kFlipped = {1, 1,  0, 0,  0, 0.1f,  1, 1.1f,  0, .9f, 1, -0.1f,
                                     0, 10, 1, 11, 1, 10.1f, 0, 11.1f, 1, 101, 0, 100};
const std::vector<float> kScores = {.9f, .75f, .6f, .95f, .5f, .3f};

// version 1: iou_threshold is an attribute; 2: an input.
class NmsTest : public OpsTestBase, public ::testing::WithParamInterface<int> {
 protected:
  void MakeOp(float iou_threshold) { TF_EXPECT_OK(Init(iou_threshold)); }
  absl::Status Init(float iou_threshold) {
    iou_ = iou_threshold;
    NodeDefBuilder b("non_max_suppression_op",
                     GetParam() == 1 ? "NonMaxSuppression" : "NonMaxSuppressionV2");
    b.Input(FakeInput(DT_FLOAT)).Input(FakeInput(DT_FLOAT)).Input(FakeInput(DT_INT32));
    if (GetParam() == 1) {
      b.Attr("iou_threshold", iou_threshold);
    } else {
      b.Input(FakeInput(DT_FLOAT));
    }
    RILL_RETURN_IF_ERROR(b.Finalize(node_def()));
    return InitOp();
  }
  absl::Status Run(const std::vector<float>& boxes, const std::vector<float>& scores,
                   int max_output) {
    AddInputFromArray<float>(TensorShape({static_cast<int64_t>(boxes.size() / 4), 4}), boxes);
    AddInputFromArray<float>(TensorShape({static_cast<int64_t>(scores.size())}), scores);
    AddInputFromArray<int32_t>(TensorShape({}), {max_output});
    if (GetParam() == 2) AddInputFromArray<float>(TensorShape({}), {iou_});
    return RunOpKernel();
  }
  void ExpectSelected(const std::vector<float>& boxes, const std::vector<float>& scores,
                      int max_output, const std::vector<int32_t>& want) {
    TF_ASSERT_OK(Run(boxes, scores, max_output));
    test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>(want));
  }

 private:
  float iou_ = 0;
};

TEST_P(NmsTest, TestSelectFromThreeClusters) {
  MakeOp(.5);
  ExpectSelected(kClusters, kScores, 3, {3, 0, 5});
}

TEST_P(NmsTest, TestSelectFromThreeClustersFlippedCoordinates) {
  MakeOp(.5);
  ExpectSelected(kFlipped, kScores, 3, {3, 0, 5});
}

TEST_P(NmsTest, TestSelectAtMostTwoBoxesFromThreeClusters) {
  MakeOp(.5);
  ExpectSelected(kClusters, kScores, 2, {3, 0});
}

TEST_P(NmsTest, TestSelectWithNegativeScores) {
  MakeOp(.5);
  std::vector<float> scores = kScores;
  for (float& s : scores) s -= 10.0f;
  ExpectSelected(kClusters, scores, 6, {3, 0, 5});
}

TEST_P(NmsTest, TestFirstBoxDegenerate) {
  MakeOp(.5);
  ExpectSelected({0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3}, {.9f, .75f, .6f}, 3, {0, 1, 2});
}

TEST_P(NmsTest, TestSelectAtMostThirtyBoxesFromThreeClusters) {
  MakeOp(.5);
  ExpectSelected(kClusters, kScores, 30, {3, 0, 5});
}

TEST_P(NmsTest, TestSelectSingleBox) {
  MakeOp(.5);
  ExpectSelected({0, 0, 1, 1}, {.9f}, 3, {0});
}

TEST_P(NmsTest, TestSelectFromTenIdenticalBoxes) {
  MakeOp(.5);
  std::vector<float> corners, scores;
  for (int i = 0; i < 10; ++i) {
    corners.insert(corners.end(), {0, 0, 1, 1});
    scores.push_back(.9f);
  }
  ExpectSelected(corners, scores, 3, {0});
}

TEST_P(NmsTest, TestInconsistentBoxAndScoreShapes) {
  MakeOp(.5);
  absl::Status s = Run(kClusters, {.9f, .75f, .6f, .95f, .5f}, 30);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.ToString(), "scores has incompatible shape")) << s;
}

// rill: V1's threshold is an attribute, which rill checks when the node is made, so
// InitOp refuses it; TensorFlow's kernel refuses it when it runs.
TEST_P(NmsTest, TestInvalidIOUThreshold) {
  absl::Status s = Init(1.2f);
  if (GetParam() == 2) {
    TF_ASSERT_OK(s);
    s = Run({0, 0, 1, 1}, {.9f}, 3);
  }
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.ToString(), "iou_threshold must be in [0, 1]")) << s;
}

TEST_P(NmsTest, TestEmptyInput) {
  MakeOp(.5);
  ExpectSelected({}, {}, 30, {});
}

INSTANTIATE_TEST_SUITE_P(NonMaxSuppressionV1AndV2, NmsTest, ::testing::Values(1, 2));

// V3: a score threshold too. V4 and V5 pad their indices to max_output_size and say how
// many are valid; V5 also returns the scores, decayed by Soft-NMS when sigma > 0.
class NmsV345Test : public OpsTestBase {
 protected:
  void MakeOp(int version) {
    NodeDefBuilder b("non_max_suppression_op",
                     version == 3 ? "NonMaxSuppressionV3"
                                  : (version == 4 ? "NonMaxSuppressionV4" : "NonMaxSuppressionV5"));
    b.Input(FakeInput(DT_FLOAT)).Input(FakeInput(DT_FLOAT)).Input(FakeInput(DT_INT32));
    b.Input(FakeInput(DT_FLOAT)).Input(FakeInput(DT_FLOAT));
    if (version == 5) b.Input(FakeInput(DT_FLOAT));
    if (version > 3) b.Attr("pad_to_max_output_size", true);
    TF_EXPECT_OK(b.Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
    version_ = version;
  }
  absl::Status Run(const std::vector<float>& boxes, const std::vector<float>& scores,
                   int max_output, float iou, float score_threshold, float sigma = 0) {
    AddInputFromArray<float>(TensorShape({static_cast<int64_t>(boxes.size() / 4), 4}), boxes);
    AddInputFromArray<float>(TensorShape({static_cast<int64_t>(scores.size())}), scores);
    AddInputFromList<int32_t>(TensorShape({}), {max_output});
    AddInputFromList<float>(TensorShape({}), {iou});
    AddInputFromList<float>(TensorShape({}), {score_threshold});
    if (version_ == 5) AddInputFromList<float>(TensorShape({}), {sigma});
    return RunOpKernel();
  }
  void ExpectV3(const std::vector<float>& boxes, const std::vector<float>& scores, int max_output,
                float score_threshold, const std::vector<int32_t>& want) {
    MakeOp(3);
    inputs_.clear();
    TF_ASSERT_OK(Run(boxes, scores, max_output, .5f, score_threshold));
    test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>(want));
  }

 private:
  int version_ = 3;
};

TEST_F(NmsV345Test, V3Selections) {
  ExpectV3(kClusters, kScores, 3, 0.f, {3, 0, 5});                      // clusters
  ExpectV3(kClusters, kScores, 3, .4f, {3, 0});                         // threshold
  ExpectV3(kClusters, {.1f, 0, 0, .3f, .2f, -5.0f}, 6, -3.0f, {3, 0});  // zeros
  ExpectV3(kFlipped, kScores, 3, 0.f, {3, 0, 5});                       // flipped
  ExpectV3(kClusters, kScores, 2, 0.f, {3, 0});                         // at most 2
  ExpectV3(kClusters, kScores, 30, 0.f, {3, 0, 5});                     // at most 30
  ExpectV3({0, 0, 1, 1}, {.9f}, 3, 0.f, {0});                           // one box
  ExpectV3(std::vector<float>{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}, {.9f, .9f, .9f}, 3, 0.f,
           {0});                  // identical
  ExpectV3({}, {}, 30, 0.f, {});  // empty
}

TEST_F(NmsV345Test, V3Errors) {
  MakeOp(3);
  absl::Status s = Run(kClusters, {.9f, .75f, .6f, .95f, .5f}, 30, .5f, 0.f);
  EXPECT_TRUE(absl::StrContains(s.ToString(), "scores has incompatible shape")) << s;
  inputs_.clear();
  s = Run({0, 0, 1, 1}, {.9f}, 3, 1.2f, 0.f);
  EXPECT_TRUE(absl::StrContains(s.ToString(), "iou_threshold must be in [0, 1]")) << s;
}

TEST_F(NmsV345Test, V4TestSelectFromThreeClustersPadFive) {
  MakeOp(4);
  TF_ASSERT_OK(Run(kClusters, kScores, 5, .5f, 0.f));
  test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>({3, 0, 5, 0, 0}));
  test::ExpectTensorEqual<int32_t>(*GetOutput(1), test::AsScalar<int32_t>(3));
}

TEST_F(NmsV345Test, V4TestSelectFromThreeClustersPadFiveScoreThr) {
  MakeOp(4);
  TF_ASSERT_OK(Run(kClusters, kScores, 6, .5f, .4f));
  test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>({3, 0, 0, 0, 0, 0}));
  test::ExpectTensorEqual<int32_t>(*GetOutput(1), test::AsScalar<int32_t>(2));
}

TEST_F(NmsV345Test, V5TestSelectFromThreeClustersPadFive) {
  MakeOp(5);
  TF_ASSERT_OK(Run(kClusters, kScores, 5, .5f, 0.f, 0.f));
  test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>({3, 0, 5, 0, 0}));
  test::ExpectTensorNear<float>(*GetOutput(1), test::AsTensor<float>({.95f, .9f, .3f, 0, 0}), 1e-2);
  test::ExpectTensorEqual<int32_t>(*GetOutput(2), test::AsScalar<int32_t>(3));
}

// Box 0 soft-suppresses box 1 without dropping it under the threshold or under box 5's
// score, so box 1 comes before box 5.
TEST_F(NmsV345Test, V5TestSelectFromThreeClustersWithSoftNMS) {
  MakeOp(5);
  TF_ASSERT_OK(Run(kClusters, kScores, 6, .5f, 0.f, .5f));
  test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>({3, 0, 1, 5, 4, 2}));
  test::ExpectTensorNear<float>(*GetOutput(1),
                                test::AsTensor<float>({.95f, .9f, .384f, .3f, .256f, .197f}), 1e-2);
  test::ExpectTensorEqual<int32_t>(*GetOutput(2), test::AsScalar<int32_t>(6));
}

// NonMaxSuppressionWithOverlaps(overlaps, scores, max_output_size, overlap_threshold,
// score_threshold), overlaps the boxes' pairwise IoU.
class NmsWithOverlapsTest : public OpsTestBase {
 protected:
  void MakeOp() {
    TF_EXPECT_OK(NodeDefBuilder("non_max_suppression_op", "NonMaxSuppressionWithOverlaps")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT32))
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_FLOAT))
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
  // The IoU of every pair of boxes (corners in either order; 0 when either has no area).
  void AddIoUInput(const std::vector<float>& boxes) {
    const int64_t n = static_cast<int64_t>(boxes.size() / 4);
    auto extent = [&](int64_t b, int lo) {
      const float* c = boxes.data() + 4 * b;
      return lo ? std::vector<float>{std::min(c[0], c[2]), std::min(c[1], c[3])}
                : std::vector<float>{std::max(c[0], c[2]), std::max(c[1], c[3])};
    };
    std::vector<float> iou(static_cast<size_t>(n * n));
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const auto lo_i = extent(i, 1), hi_i = extent(i, 0), lo_j = extent(j, 1),
                   hi_j = extent(j, 0);
        const float area_i = (hi_i[0] - lo_i[0]) * (hi_i[1] - lo_i[1]);
        const float area_j = (hi_j[0] - lo_j[0]) * (hi_j[1] - lo_j[1]);
        if (area_i <= 0 || area_j <= 0) continue;
        const float h = std::max(std::min(hi_i[0], hi_j[0]) - std::max(lo_i[0], lo_j[0]), 0.f);
        const float w = std::max(std::min(hi_i[1], hi_j[1]) - std::max(lo_i[1], lo_j[1]), 0.f);
        iou[i * n + j] = h * w / (area_i + area_j - h * w);
      }
    }
    AddInputFromArray<float>(TensorShape({n, n}), iou);
  }
  absl::Status Run(const std::vector<float>& boxes, const std::vector<float>& scores,
                   int max_output, float overlap_threshold = .5f) {
    AddIoUInput(boxes);
    AddInputFromArray<float>(TensorShape({static_cast<int64_t>(scores.size())}), scores);
    AddInputFromArray<int32_t>(TensorShape({}), {max_output});
    AddInputFromArray<float>(TensorShape({}), {overlap_threshold});
    AddInputFromArray<float>(TensorShape({}), {0.0f});
    return RunOpKernel();
  }
  void ExpectSelected(const std::vector<float>& boxes, const std::vector<float>& scores,
                      int max_output, const std::vector<int32_t>& want) {
    TF_ASSERT_OK(Run(boxes, scores, max_output));
    test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>(want));
  }
};

TEST_F(NmsWithOverlapsTest, TestSelectFromThreeClusters) {
  MakeOp();
  ExpectSelected(kClusters, kScores, 3, {3, 0, 5});
}

TEST_F(NmsWithOverlapsTest, TestSelectFromThreeClustersFlippedCoordinates) {
  MakeOp();
  ExpectSelected(kFlipped, kScores, 3, {3, 0, 5});
}

TEST_F(NmsWithOverlapsTest, TestSelectAtMostTwoBoxesFromThreeClusters) {
  MakeOp();
  ExpectSelected(kClusters, kScores, 2, {3, 0});
}

TEST_F(NmsWithOverlapsTest, TestSelectAtMostThirtyBoxesFromThreeClusters) {
  MakeOp();
  ExpectSelected(kClusters, kScores, 30, {3, 0, 5});
}

TEST_F(NmsWithOverlapsTest, TestSelectSingleBox) {
  MakeOp();
  ExpectSelected({0, 0, 1, 1}, {.9f}, 3, {0});
}

TEST_F(NmsWithOverlapsTest, TestSelectFromTenIdenticalBoxes) {
  MakeOp();
  std::vector<float> corners, scores;
  for (int i = 0; i < 10; ++i) {
    corners.insert(corners.end(), {0, 0, 1, 1});
    scores.push_back(.9f);
  }
  ExpectSelected(corners, scores, 3, {0});
}

TEST_F(NmsWithOverlapsTest, TestInconsistentBoxAndScoreShapes) {
  MakeOp();
  const absl::Status s = Run(kClusters, {.9f, .75f, .6f, .95f, .5f}, 30);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.ToString(), "scores has incompatible shape")) << s;
}

TEST_F(NmsWithOverlapsTest, TestInvalidOverlapsShape) {
  MakeOp();
  AddInputFromArray<float>(TensorShape({2, 3}), {0, 0, 0, 0, 0, 0});
  AddInputFromArray<float>(TensorShape({2}), {0.5f, 0.5f});
  AddInputFromArray<int32_t>(TensorShape({}), {30});
  AddInputFromArray<float>(TensorShape({}), {0.f});
  AddInputFromArray<float>(TensorShape({}), {0.0f});
  const absl::Status s = RunOpKernel();
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.ToString(), "overlaps must be square")) << s;
}

// Any overlap threshold is taken.
TEST_F(NmsWithOverlapsTest, TestThresholdGreaterOne) {
  MakeOp();
  TF_ASSERT_OK(Run({0, 0, 1, 1}, {.9f}, 3, 1.2f));
}

TEST_F(NmsWithOverlapsTest, TestThresholdSmallerZero) {
  MakeOp();
  TF_ASSERT_OK(Run({0, 0, 1, 1}, {.9f}, 3, -0.2f));
}

TEST_F(NmsWithOverlapsTest, TestEmptyInput) {
  MakeOp();
  TF_ASSERT_OK(Run({}, {}, 30));
  test::ExpectTensorEqual<int32_t>(*GetOutput(0), Tensor(DT_INT32, TensorShape({0})));
}

}  // namespace non_max_suppression_op_test
}  // namespace
}  // namespace rill
