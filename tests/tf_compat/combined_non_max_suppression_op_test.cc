// The CombinedNonMaxSuppression cases of TensorFlow's
// tensorflow/core/kernels/image/non_max_suppression_op_test.cc (its other ops' cases are in
// non_max_suppression_op_test.cc), which drive the op through OpsTestBase
// (runtime/testing/ops_testutil.h), rewritten against rill (their inputs and expected values
// are TensorFlow's; the code is ours). Nothing is left out.
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
namespace combined_non_max_suppression_op_test {

// Three clusters of two boxes in one image (scaled by 0.1, the last box past 1 in x), and
// the second image's boxes for the two-image cases.
const std::vector<float> kImage0 = {0, 0,    0.1, 0.1, 0, 0.01f, 0.1, 0.11f, 0, -0.01, 0.1, 0.09f,
                                    0, 0.11, 0.1, 0.2, 0, 0.12f, 0.1, 0.21f, 0, 0.3,   1,   0.4};
const std::vector<float> kImage1 = {0, 0,    0.2, 0.2, 0, 0.02f, 0.2, 0.22f, 0, -0.02, 0.2, 0.19f,
                                    0, 0.21, 0.2, 0.3, 0, 0.22f, 0.2, 0.31f, 0, 0.4,   1,   0.5};
const std::vector<float> kScores = {.9f, .75f, .6f, .95f, .5f, .3f};
// Two classes per box, twice (one image each).
const std::vector<float> kTwoClassScores = {0.1f, 0.9f, 0.75f, 0.8f, 0.6f, 0.3f, 0.95f, 0.1f,
                                            0.5f, 0.5f, 0.3f,  0.1f, 0.1f, 0.9f, 0.75f, 0.8f,
                                            0.6f, 0.3f, 0.95f, 0.1f, 0.5f, 0.5f, 0.3f,  0.1f};

std::vector<float> Join(std::vector<float> a, const std::vector<float>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

class CombinedNonMaxSuppressionOpTest : public OpsTestBase {
 protected:
  void MakeOp(bool pad_per_class = false, bool clip_boxes = true) {
    TF_EXPECT_OK(NodeDefBuilder("combined_non_max_suppression_op", "CombinedNonMaxSuppression")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT32))
                     .Input(FakeInput(DT_INT32))
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_FLOAT))
                     .Attr("pad_per_class", pad_per_class)
                     .Attr("clip_boxes", clip_boxes)
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
  absl::Status Run(const TensorShape& box_shape, const std::vector<float>& boxes,
                   const TensorShape& score_shape, const std::vector<float>& scores, int per_class,
                   int total, float iou, float score_threshold) {
    AddInputFromArray<float>(box_shape, boxes);
    AddInputFromArray<float>(score_shape, scores);
    AddInputFromArray<int32_t>(TensorShape({}), {per_class});
    AddInputFromArray<int32_t>(TensorShape({}), {total});
    AddInputFromArray<float>(TensorShape({}), {iou});
    AddInputFromArray<float>(TensorShape({}), {score_threshold});
    return RunOpKernel();
  }
  // The four outputs for `batch` images of `detections` each.
  void Expect(int64_t batch, int64_t detections, const std::vector<float>& boxes,
              const std::vector<float>& scores, const std::vector<float>& classes,
              const std::vector<int32_t>& valid) {
    test::ExpectTensorEqual<float>(test::AsTensor<float>(boxes, {batch, detections, 4}),
                                   *GetOutput(0));
    test::ExpectTensorEqual<float>(test::AsTensor<float>(scores, {batch, detections}),
                                   *GetOutput(1));
    test::ExpectTensorEqual<float>(test::AsTensor<float>(classes, {batch, detections}),
                                   *GetOutput(2));
    test::ExpectTensorEqual<int32_t>(test::AsTensor<int32_t>(valid, {batch}), *GetOutput(3));
  }
};

TEST_F(CombinedNonMaxSuppressionOpTest, TestEmptyInput) {
  MakeOp();
  TF_ASSERT_OK(Run({0, 0, 0, 4}, {}, {0, 0, 0}, {}, 30, 10, .5f, 0.0f));
  Expect(0, 10, {}, {}, {}, {});
}

TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectFromThreeClusters) {
  MakeOp();
  TF_ASSERT_OK(Run({1, 6, 1, 4}, kImage0, {1, 6, 1}, kScores, 3, 3, .5f, 0.0f));
  Expect(1, 3, {0, 0.11, 0.1, 0.2, 0, 0, 0.1, 0.1, 0, 0.3, 1, 0.4}, {0.95, 0.9, 0.3}, {0, 0, 0},
         {3});
}

TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectFromThreeClustersNoBoxClipping) {
  MakeOp(false, false);
  TF_ASSERT_OK(Run({1, 6, 1, 4}, {0, 0,  10, 10, 0, 1,  10, 11, 0, 1,  10,  9,
                                  0, 11, 10, 20, 0, 12, 10, 21, 0, 30, 100, 40},
                   {1, 6, 1}, kScores, 3, 3, .5f, 0.0f));
  Expect(1, 3, {0, 11, 10, 20, 0, 0, 10, 10, 0, 30, 100, 40}, {0.95, 0.9, 0.3}, {0, 0, 0}, {3});
}

TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectFromThreeClustersWithScoreThreshold) {
  MakeOp();
  TF_ASSERT_OK(Run({1, 6, 1, 4}, kImage0, {1, 6, 1}, kScores, 3, 3, .5f, 0.4f));
  Expect(1, 3, {0, 0.11, 0.1, 0.2, 0, 0, 0.1, 0.1, 0, 0, 0, 0}, {0.95, 0.9, 0}, {0, 0, 0}, {2});
}

// More boxes asked for than there are: still only 2 come back.
TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectFromThreeClustersWithScoreThresholdZeroScores) {
  MakeOp();
  TF_ASSERT_OK(
      Run({1, 6, 1, 4}, kImage0, {1, 6, 1}, {.1f, 0, 0, .3f, .2f, -5.0f}, 4, 5, .5f, -3.0f));
  Expect(1, 5, {0, 0.11, 0.1, 0.2, 0, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
         {0.3, 0.1, 0, 0, 0}, {0, 0, 0, 0, 0}, {2});
}

TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectSingleBox) {
  MakeOp();
  TF_ASSERT_OK(Run({1, 1, 1, 4}, {0, 0, 1, 1}, {1, 1, 1}, {.9f}, 3, 1, .5f, 0.0f));
  Expect(1, 1, {0, 0, 1, 1}, {0.9}, {0}, {1});
}

TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectFromTwoBatchesWithScoreThreshold) {
  MakeOp();
  TF_ASSERT_OK(Run({2, 6, 1, 4}, Join(kImage0, kImage1), {2, 6, 1}, Join(kScores, kScores), 3, 3,
                   .5f, 0.4f));
  Expect(2, 3, {0, 0.11, 0.1, 0.2, 0, 0, 0.1, 0.1, 0, 0, 0, 0,
                0, 0.21, 0.2, 0.3, 0, 0, 0.2, 0.2, 0, 0, 0, 0},
         {0.95, 0.9, 0, 0.95, 0.9, 0}, {0, 0, 0, 0, 0, 0}, {2, 2});
}

TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectFromTwoBatchesTwoClasses) {
  MakeOp();
  TF_ASSERT_OK(
      Run({2, 6, 1, 4}, Join(kImage0, kImage1), {2, 6, 2}, kTwoClassScores, 3, 3, .5f, 0.0f));
  Expect(2, 3, {0, 0.11, 0.1, 0.2, 0, 0, 0.1, 0.1, 0, 0.01f, 0.1, 0.11f,
                0, 0.21, 0.2, 0.3, 0, 0, 0.2, 0.2, 0, 0.02f, 0.2, 0.22f},
         {0.95, 0.9, 0.75, 0.95, 0.9, 0.75}, {0, 1, 0, 0, 1, 0}, {3, 3});
}

// The same boxes, scores and score threshold 0.8 for the next three cases.
const std::vector<float> kTwoBatchesAbove08 = {0, 0.11, 0.1, 0.2, 0, 0, 0.1, 0.1, 0, 0, 0, 0,
                                               0, 0.21, 0.2, 0.3, 0, 0, 0.2, 0.2, 0, 0, 0, 0};

TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectFromTwoBatchesTwoClassesWithScoreThreshold) {
  MakeOp();
  TF_ASSERT_OK(
      Run({2, 6, 1, 4}, Join(kImage0, kImage1), {2, 6, 2}, kTwoClassScores, 3, 3, .5f, 0.8f));
  Expect(2, 3, kTwoBatchesAbove08, {0.95, 0.9, 0, 0.95, 0.9, 0}, {0, 1, 0, 0, 1, 0}, {2, 2});
}

TEST_F(CombinedNonMaxSuppressionOpTest,
       TestSelectFromTwoBatchesTwoClassesWithScoreThresholdPaddedTotalSize) {
  MakeOp(true);
  TF_ASSERT_OK(
      Run({2, 6, 1, 4}, Join(kImage0, kImage1), {2, 6, 2}, kTwoClassScores, 10, 3, .5f, 0.8f));
  Expect(2, 3, kTwoBatchesAbove08, {0.95, 0.9, 0, 0.95, 0.9, 0}, {0, 1, 0, 0, 1, 0}, {2, 2});
}

TEST_F(CombinedNonMaxSuppressionOpTest,
       TestSelectFromTwoBatchesTwoClassesWithScoreThresholdPaddedPerClass) {
  MakeOp(true);
  TF_ASSERT_OK(
      Run({2, 6, 1, 4}, Join(kImage0, kImage1), {2, 6, 2}, kTwoClassScores, 2, 50, .5f, 0.8f));
  Expect(2, 4, {0, 0.11, 0.1, 0.2, 0, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0.21, 0.2, 0.3, 0, 0, 0.2, 0.2, 0, 0, 0, 0, 0, 0, 0, 0},
         {0.95, 0.9, 0, 0, 0.95, 0.9, 0, 0}, {0, 1, 0, 0, 0, 1, 0, 0}, {2, 2});
}

// The total per image is more than the size per class.
TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectFromTwoBatchesTwoClassesTotalSize) {
  MakeOp();
  TF_ASSERT_OK(
      Run({2, 6, 1, 4}, Join(kImage0, kImage1), {2, 6, 2}, kTwoClassScores, 3, 5, .5f, 0.1f));
  Expect(2, 5, {0,   0.11,  0.1, 0.2,   0, 0,     0.1, 0.1,   0,   0.01f, 0.1, 0.11f, 0,   0.12f,
                0.1, 0.21f, 0,   0.3,   1, 0.4,   0,   0.21,  0.2, 0.3,   0,   0,     0.2, 0.2,
                0,   0.02f, 0.2, 0.22f, 0, 0.22f, 0.2, 0.31f, 0,   0.4,   1,   0.5},
         {0.95, 0.9, 0.75, 0.5, 0.3, 0.95, 0.9, 0.75, 0.5, 0.3}, {0, 1, 0, 1, 0, 0, 1, 0, 1, 0},
         {5, 5});
}

// A box per class (q = 2): image 0's box 1 of class 1 is selected, image 1's box 1 of
// class 0.
TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectFromTwoBatchesTwoClassesForBoxesAndScores) {
  MakeOp();
  const std::vector<float> boxes = {
      0, 0,     0.1, 0.1,   0, 0,     0.1, 0.1,   0, 0.01f, 0.1, 0.11f, 0, 0.6f,  0.1, 0.7f,
      0, -0.01, 0.1, 0.09f, 0, -0.01, 0.1, 0.09f, 0, 0.11,  0.1, 0.2,   0, 0.11,  0.1, 0.2,
      0, 0.12f, 0.1, 0.21f, 0, 0.12f, 0.1, 0.21f, 0, 0.3,   1,   0.4,   0, 0.3,   1,   0.4,
      0, 0,     0.2, 0.2,   0, 0,     0.2, 0.2,   0, 0.02f, 0.2, 0.22f, 0, 0.02f, 0.2, 0.22f,
      0, -0.02, 0.2, 0.19f, 0, -0.02, 0.2, 0.19f, 0, 0.21,  0.2, 0.3,   0, 0.21,  0.2, 0.3,
      0, 0.22f, 0.2, 0.31f, 0, 0.22f, 0.2, 0.31f, 0, 0.4,   1,   0.5,   0, 0.4,   1,   0.5};
  TF_ASSERT_OK(Run({2, 6, 2, 4}, boxes, {2, 6, 2}, kTwoClassScores, 3, 3, .5f, 0.0f));
  Expect(2, 3, {0, 0.11, 0.1, 0.2, 0, 0, 0.1, 0.1, 0, 0.6f,  0.1, 0.7f,
                0, 0.21, 0.2, 0.3, 0, 0, 0.2, 0.2, 0, 0.02f, 0.2, 0.22f},
         {0.95, 0.9, 0.8, 0.95, 0.9, 0.75}, {0, 1, 1, 0, 1, 0}, {3, 3});
}

// Two identical boxes: NMS keeps the first, so one slot stays empty; both real scores are
// below -1.
TEST_F(CombinedNonMaxSuppressionOpTest, TestSelectWithNegativeScores) {
  MakeOp();
  TF_ASSERT_OK(
      Run({1, 2, 1, 4}, {0, 0, 1, 1, 0, 0, 1, 1}, {1, 2, 1}, {-5.0f, -6.0f}, 2, 2, .5f, -10.0f));
  Expect(1, 2, {0, 0, 1, 1, 0, 0, 0, 0}, {-5.0f, 0}, {0, 0}, {1});
}

TEST_F(CombinedNonMaxSuppressionOpTest, TestInvalidBoxesThirdDimension) {
  MakeOp();
  const absl::Status s =
      Run({1, 1, 2, 4}, {0, 0, 1, 1, 0, 0, 1, 1}, {1, 1, 3}, {.9f, .8f, .7f}, 1, 1, .5f, 0.0f);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(
      absl::StrContains(s.ToString(), "third dimension of boxes must be either 1 or num classes"))
      << s;
}

TEST_F(CombinedNonMaxSuppressionOpTest, TestInvalidBoxesColumns) {
  MakeOp();
  const absl::Status s = Run({1, 1, 1, 3}, {0, 0, 1}, {1, 1, 1}, {.9f}, 1, 1, .5f, 0.0f);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.ToString(), "boxes must have 4 columns")) << s;
}

TEST_F(CombinedNonMaxSuppressionOpTest, TestInconsistentBoxAndScoreShapes) {
  MakeOp();
  const absl::Status s =
      Run({1, 2, 1, 4}, {0, 0, 1, 1, 0, 0, 1, 1}, {1, 1, 1}, {.9f}, 1, 1, .5f, 0.0f);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.ToString(), "scores has incompatible shape")) << s;
}

}  // namespace combined_non_max_suppression_op_test
}  // namespace
}  // namespace rill
