// The cases of TensorFlow's tensorflow/core/kernels/image/non_max_suppression_op_test.cc
// for NonMaxSuppression and NonMaxSuppressionV2, which drive the ops through OpsTestBase
// (runtime/testing/ops_testutil.h), rewritten against rill (their inputs and expected
// values are TensorFlow's; the code is ours). V1 takes iou_threshold as an attribute, V2
// as an input; both run every case here.
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

}  // namespace non_max_suppression_op_test
}  // namespace
}  // namespace rill
