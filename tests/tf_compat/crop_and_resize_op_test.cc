// The cases of TensorFlow's tensorflow/core/kernels/image/crop_and_resize_op_test.cc,
// which drive CropAndResize through OpsTestBase (runtime/testing/ops_testutil.h),
// rewritten against rill (their inputs and expected values are TensorFlow's; the code is
// ours), for every image dtype TensorFlow's test runs.
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
namespace crop_and_resize_op_test {

class CropAndResizeOpTest : public OpsTestBase {
 protected:
  template <typename T>
  void MakeOp(float extrapolation_value, const std::string& method) {
    TF_EXPECT_OK(NodeDefBuilder("crop_and_resize_op", "CropAndResize")
                     .Input(FakeInput(DataTypeToEnum<T>::value))
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_INT32))
                     .Input(FakeInput(DT_INT32))
                     .Attr("extrapolation_value", extrapolation_value)
                     .Attr("method", method)
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
  }
  // Crops of `image` [1, h, w, 1] (values 1, 2, ...) at `boxes` (batch 0 each) to
  // crop_h x crop_w, expected to be `want`.
  template <typename T>
  void ExpectCrops(const std::string& method, int h, int w, std::vector<float> boxes, int crop_h,
                   int crop_w, const std::vector<float>& want) {
    MakeOp<T>(0, method);
    inputs_.clear();  // InitOp keeps the inputs added, as TensorFlow's does
    AddInput<T>(TensorShape({1, h, w, 1}), [](int i) { return static_cast<T>(i + 1); });
    const int n = static_cast<int>(boxes.size() / 4);
    AddInputFromArray<float>(TensorShape({n, 4}), boxes);
    AddInput<int32_t>(TensorShape({n}), [](int) { return 0; });
    AddInputFromArray<int32_t>(TensorShape({2}), {crop_h, crop_w});
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorEqual<float>(*GetOutput(0),
                                   test::AsTensor<float>(want, {n, crop_h, crop_w, 1}));
  }
  // TensorFlow's REGISTER_TEST cases, for one dtype: a 2x2 image to one pixel.
  template <typename T>
  void ExpectOnePixel() {
    ExpectCrops<T>("bilinear", 2, 2, {0, 0, 1, 1}, 1, 1, {2.5});
    ExpectCrops<T>("nearest", 2, 2, {0, 0, 1, 1}, 1, 1, {4});
  }
  absl::Status RunBad(const TensorShape& image, const TensorShape& box_ind, int32_t index) {
    MakeOp<float>(0, "bilinear");
    AddInput<float>(image, [](int i) { return static_cast<float>(i + 1); });
    AddInputFromArray<float>(TensorShape({1, 4}), {0, 0, 1, 1});
    AddInput<int32_t>(box_ind, [&](int) { return index; });
    AddInputFromArray<int32_t>(TensorShape({2}), {4, 4});
    return RunOpKernel();
  }
};

TEST_F(CropAndResizeOpTest, TestCropAndResizeEveryDtype) {
  ExpectOnePixel<float>();
  ExpectOnePixel<double>();
  ExpectOnePixel<uint8_t>();
  ExpectOnePixel<int32_t>();
  ExpectOnePixel<int64_t>();
  ExpectOnePixel<uint16_t>();
  ExpectOnePixel<int8_t>();
  ExpectOnePixel<int16_t>();
}

TEST_F(CropAndResizeOpTest, TestCropAndResize2x2To1x1Flipped) {
  ExpectCrops<float>("bilinear", 2, 2, {1, 1, 0, 0}, 1, 1, {2.5});
  ExpectCrops<float>("nearest", 2, 2, {1, 1, 0, 0}, 1, 1, {4});
}

TEST_F(CropAndResizeOpTest, TestCropAndResize2x2To3x3) {
  ExpectCrops<float>("bilinear", 2, 2, {0, 0, 1, 1}, 3, 3, {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  ExpectCrops<float>("nearest", 2, 2, {0, 0, 1, 1}, 3, 3, {1, 2, 2, 3, 4, 4, 3, 4, 4});
}

TEST_F(CropAndResizeOpTest, TestCropAndResize2x2To3x3Flipped) {
  ExpectCrops<float>("bilinear", 2, 2, {1, 1, 0, 0}, 3, 3, {4, 3.5, 3, 3, 2.5, 2, 2, 1.5, 1});
  ExpectCrops<float>("nearest", 2, 2, {1, 1, 0, 0}, 3, 3, {4, 4, 3, 4, 4, 3, 2, 2, 1});
}

TEST_F(CropAndResizeOpTest, TestCropAndResize3x3To2x2) {
  for (const char* method : {"bilinear", "nearest"}) {
    ExpectCrops<float>(method, 3, 3, {0, 0, 1, 1, 0, 0, 0.5, 0.5}, 2, 2, {1, 3, 7, 9, 1, 2, 4, 5});
    ExpectCrops<float>(method, 3, 3, {1, 1, 0, 0, 0.5, 0.5, 0, 0}, 2, 2, {9, 7, 3, 1, 5, 4, 2, 1});
  }
}

TEST_F(CropAndResizeOpTest, TestCropAndResize2x2To3x3Extrapolated) {
  const float v = -1;
  MakeOp<float>(v, "bilinear");
  AddInputFromArray<float>(TensorShape({1, 2, 2, 1}), {1, 2, 3, 4});
  AddInputFromArray<float>(TensorShape({1, 4}), {-1, -1, 1, 1});
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  AddInputFromArray<int32_t>(TensorShape({2}), {3, 3});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0),
                                 test::AsTensor<float>({v, v, v, v, 1, 2, v, 3, 4}, {1, 3, 3, 1}));
}

TEST_F(CropAndResizeOpTest, TestCropAndResize2x2To3x3NoCrop) {
  MakeOp<float>(0, "bilinear");
  AddInputFromArray<float>(TensorShape({1, 2, 2, 1}), {1, 2, 3, 4});
  AddInputFromArray<float>(TensorShape({0, 4}), {});
  AddInputFromArray<int32_t>(TensorShape({0}), {});
  AddInputFromArray<int32_t>(TensorShape({2}), {3, 3});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0),
                                 Tensor(allocator(), DT_FLOAT, TensorShape({0, 3, 3, 1})));
}

TEST_F(CropAndResizeOpTest, TestInvalidInputShape) {
  absl::Status s = RunBad(TensorShape({2, 2, 1}), TensorShape({1}), 0);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.ToString(), "input image must be 4-D")) << s;
}

TEST_F(CropAndResizeOpTest, TestInvalidBoxIndexShape) {
  absl::Status s = RunBad(TensorShape({1, 2, 2, 1}), TensorShape({2}), 0);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.ToString(), "box_index has incompatible shape")) << s;
}

TEST_F(CropAndResizeOpTest, TestInvalidBoxIndex) {
  absl::Status s = RunBad(TensorShape({1, 2, 2, 1}), TensorShape({1}), 1);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.ToString(), "box_index has values outside [0, batch_size)")) << s;
}

// A large image, cropped into its two quarters along the diagonal.
TEST_F(CropAndResizeOpTest, TestWithSharding) {
  MakeOp<float>(0, "bilinear");
  const int kLength = 999;
  const int kHalf = (kLength + 1) / 2;
  AddInput<float>(TensorShape({1, kLength, kLength, 1}),
                  [=](int i) { return static_cast<float>(i % kLength); });
  AddInputFromArray<float>(TensorShape({2, 4}), {0, 0, 0.5, 0.5, 0.5, 0.5, 1, 1});
  AddInputFromArray<int32_t>(TensorShape({2}), {0, 0});
  AddInputFromArray<int32_t>(TensorShape({2}), {kHalf, kHalf});
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, TensorShape({2, kHalf, kHalf, 1}));
  const int per_crop = kHalf * kHalf;
  test::FillFn<float>(&expected, [=](int i) {
    return static_cast<float>(i % kHalf + (i < per_crop ? 0 : kHalf - 1));
  });
  test::ExpectTensorEqual<float>(*GetOutput(0), expected);
}

}  // namespace crop_and_resize_op_test
}  // namespace
}  // namespace rill
