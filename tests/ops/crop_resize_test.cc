// CropAndResize and its gradients: small cases worked by hand from TensorFlow's definition
// (the whole image, an upsampling, a box's middle, extrapolation, nearest sampling, a
// flipped box, NaN boxes), box_ind checked against the batch, gradients against central
// differences, and op cases for GPU parity.
#include <cmath>
#include <limits>

#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/image_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace crop_resize_test {

MarkTested tested({"CropAndResize", "CropAndResizeGradImage", "CropAndResizeGradBoxes"});

const Tensor kImage = test::AsTensor<float>({1, 2, 3, 4}, {1, 2, 2, 1});

absl::StatusOr<Tensor> Crop(const Tensor& image, std::vector<float> box, int h, int w,
                            ops::CropAttrs attrs = {}) {
  const int64_t n = static_cast<int64_t>(box.size()) / 4;
  return RunOp(
      [&](const Scope& s, const auto& in) {
        return ops::CropAndResize(
            s, in[0], ops::Const(s, test::AsTensor<float>(box, {n, 4})),
            ops::Const(s, test::AsTensor<int32_t>(std::vector<int32_t>(n, 0))),
            ops::Const(s, {h, w}), attrs);
      },
      {image});
}

void Expect(const absl::StatusOr<Tensor>& got, std::vector<float> want, TensorShape shape) {
  ASSERT_TRUE(got.ok()) << got.status();
  test::ExpectTensorNear<float>(*got, test::AsTensor<float>(want, shape), 1e-6);
}

TEST(CropAndResize, WorkedCases) {
  Expect(Crop(kImage, {0, 0, 1, 1}, 2, 2), {1, 2, 3, 4}, {1, 2, 2, 1});
  Expect(Crop(kImage, {0, 0, 1, 1}, 3, 3), {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}, {1, 3, 3, 1});
  Expect(Crop(kImage, {0.5, 0.5, 0.5, 0.5}, 1, 1), {2.5}, {1, 1, 1, 1});
  // Rows and columns at -1 fall outside the image.
  Expect(Crop(kImage, {-1, -1, 0, 0}, 2, 2, ops::CropAndResize::ExtrapolationValue(7)),
         {7, 7, 7, 1}, {1, 2, 2, 1});
  // Nearest: 0.5 rounds away from zero.
  Expect(Crop(kImage, {0, 0, 1, 1}, 3, 3, ops::CropAndResize::Method("nearest")),
         {1, 2, 2, 3, 4, 4, 3, 4, 4}, {1, 3, 3, 1});
  // y1 > y2 flips the crop upside down.
  Expect(Crop(kImage, {1, 0, 0, 1}, 2, 2), {3, 4, 1, 2}, {1, 2, 2, 1});
  // A NaN coordinate makes every sample of its box NaN (0 * NaN is NaN).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Expect(Crop(kImage, {nan, 0, 1, 1, 0, 0, 1, nan, 0, 0, 1, 1}, 2, 2,
              ops::CropAndResize::ExtrapolationValue(-1)),
         {-1, -1, -1, -1, -1, -1, -1, -1, 1, 2, 3, 4}, {3, 2, 2, 1});
}

TEST(CropAndResize, RefusesABoxIndexOutsideTheBatch) {
  Scope s = Scope::NewRootScope();
  auto ind = ops::Placeholder(s, DT_INT32);
  auto y = ops::CropAndResize(s, ops::Const(s, kImage), ops::Const(s, {{0.f, 0.f, 1.f, 1.f}}), ind,
                              ops::Const(s, {2, 2}));
  Session session(s);
  std::vector<Tensor> out;
  const absl::Status st = session.Run({{ind, test::AsTensor<int32_t>({1})}}, {y}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("box_ind[0] = 1 is not in [0, 1)"), std::string::npos) << st;
}

// Boxes whose sample positions stay clear of pixel boundaries under the steps taken.
const std::vector<float> kBoxes = {0.1f, 0.17f, 0.83f, 0.91f, 0.72f, 0.05f, 0.23f, 0.66f};

TEST(CropAndResizeGrad, MatchesNumeric) {
  for (const std::string method : {"bilinear", "nearest"}) {
    SCOPED_TRACE(method);
    auto build = [&](const Scope& s, const std::vector<Output>& in) {
      return Output(ops::CropAndResize(s, in[0], ops::Cast(s, in[1], DT_FLOAT),
                                       ops::Const(s, {1, 0}), ops::Const(s, {3, 4}),
                                       ops::CropAndResize::Method(method)));
    };
    const std::vector<Tensor> x = {RandomTensor(DT_DOUBLE, {2, 5, 6, 2}, -1, 1, 1),
                                   FromDoubles(DT_DOUBLE, {2, 4}, {kBoxes.begin(), kBoxes.end()})};
    GradCheckOptions opt;
    opt.delta = 1e-3;
    for (bool known : {true, false}) {
      opt.known_shapes = known;
      for (DataType dt : {DT_DOUBLE, DT_FLOAT}) {
        auto err = GradientError(build, x, dt, opt);
        ASSERT_TRUE(err.ok()) << err.status();
        EXPECT_LT(*err, 2e-3);
      }
    }
  }
}

const bool kMarked = [] {
  GradTestedOps().insert({"CropAndResize"});
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  const Tensor image = RandomTensor(DT_FLOAT, {2, 7, 5, 3}, -1, 1, 2);
  const Tensor boxes = test::AsTensor<float>(
      {0.1f, 0.2f, 0.9f, 0.7f, -0.2f, 0.3f, 0.6f, 1.4f, 0.8f, 0.9f, 0.1f, 0.05f}, {3, 4});
  const Tensor ind = test::AsTensor<int32_t>({1, 0, 1});
  const Tensor grads = RandomTensor(DT_FLOAT, {3, 4, 6, 3}, -1, 1, 3);
  for (const std::string method : {"bilinear", "nearest"}) {
    const auto attrs = ops::CropAttrs().Method(method).ExtrapolationValue(0.5f);
    c.push_back({"CropAndResize " + method,
                 [=](const Scope& s, const auto& in) {
                   return ops::CropAndResize(s, in[0], ops::Cast(s, in[1], DT_FLOAT), in[2],
                                             ops::Const(s, {4, 6}), attrs);
                 },
                 {image, boxes, ind}});
    c.push_back({"CropAndResizeGradImage " + method,
                 [=](const Scope& s, const auto& in) {
                   return ops::CropAndResizeGradImage(
                       s, ops::Cast(s, in[0], DT_FLOAT), ops::Cast(s, in[1], DT_FLOAT), in[2],
                       ops::Const(s, {2, 7, 5, 3}), DT_FLOAT, ops::CropAttrs().Method(method));
                 },
                 {grads, boxes, ind}});
  }
  c.push_back({"CropAndResizeGradBoxes",
               [](const Scope& s, const auto& in) {
                 return ops::CropAndResizeGradBoxes(s, ops::Cast(s, in[0], DT_FLOAT), in[1],
                                                    ops::Cast(s, in[2], DT_FLOAT), in[3]);
               },
               {grads, image, boxes, ind},
               1e-3});
  return c;
}

}  // namespace crop_resize_test
}  // namespace

RILL_OP_CASES(crop_resize, crop_resize_test::Cases);

}  // namespace rill::testing
