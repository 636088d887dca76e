// RoiAlign (ONNX's): averages over fixed and adaptive sampling grids of a linear image
// (which bilinear sampling reproduces exactly), both coordinate transformations, max mode's
// weighted corners, and the refusals of a batch index out of range, a non-finite roi and an
// adaptive grid too large to sample. ONNX's own cases run in tests/onnx.
#include <cmath>
#include <string>
#include <vector>

#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/roi_align_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace roi_align_test {

MarkTested tested({"RoiAlign"});

using Ins = std::vector<Output>;

// v(y, x) = x + 10 y over 4 x 4.
Tensor Linear() {
  std::vector<double> v;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) v.push_back(x + 10 * y);
  return FromDoubles(DT_DOUBLE, {1, 1, 4, 4}, v);
}

absl::StatusOr<Tensor> Align(const std::vector<double>& roi, const ops::RoiAlign::Attrs& a,
                             int64_t batch = 0) {
  return RunOp(
      [&](const Scope& s, const Ins& in) { return ops::RoiAlign(s, in[0], in[1], in[2], a); },
      {Linear(), FromDoubles(DT_DOUBLE, {1, 4}, roi), test::AsTensor<int64_t>({batch})});
}

double Value(const std::vector<double>& roi, const ops::RoiAlign::Attrs& a) {
  auto got = Align(roi, a);
  EXPECT_TRUE(got.ok()) << got.status();
  return got.ok() ? ToDoubles(*got)[0] : NAN;
}

TEST(RoiAlign, AveragesBilinearSamples) {
  const auto legacy = ops::RoiAlign::Attrs().CoordinateTransformationMode("output_half_pixel");
  // Samples at 0.5 and 1.5 in each direction; mean x 1, mean y 1.
  EXPECT_DOUBLE_EQ(Value({0, 0, 2, 2}, legacy.SamplingRatio(2)), 11);
  // half_pixel shifts the roi by -0.5: samples at 0 and 1.
  EXPECT_DOUBLE_EQ(Value({0, 0, 2, 2}, ops::RoiAlign::Attrs().SamplingRatio(2)), 5.5);
  // Adaptive: ceil(3 / 1) = 3 samples a side, at 0.5, 1.5, 2.5.
  EXPECT_DOUBLE_EQ(Value({0, 0, 3, 3}, legacy), 16.5);
  // Two bins across: each half of the roi.
  auto two = Align({0, 0, 2, 2}, legacy.SamplingRatio(1).OutputWidth(2));
  ASSERT_TRUE(two.ok()) << two.status();
  test::ExpectTensorEqual<double>(*two, test::AsTensor<double>({10.5, 11.5}, {1, 1, 1, 2}));
}

TEST(RoiAlign, MaxTakesTheLargestWeightedCorner) {
  // One sample at (1.5, 1.5): four corners weighted 1/4, the largest 22.
  EXPECT_DOUBLE_EQ(
      Value({1, 1, 2, 2},
            ops::RoiAlign::Attrs().Mode("max").SamplingRatio(1).CoordinateTransformationMode(
                "output_half_pixel")),
      5.5);
}

TEST(RoiAlign, RefusesWhatItCannotSample) {
  auto st = Align({0, 0, 2, 2}, ops::RoiAlign::Attrs(), 1).status();
  EXPECT_NE(st.message().find("batch_indices[0] = 1 is not in [0, 1)"), std::string::npos) << st;
  st = Align({0, NAN, 2, 2}, ops::RoiAlign::Attrs()).status();
  EXPECT_NE(st.message().find("rois[0] has a coordinate that is not finite"), std::string::npos)
      << st;
  st = Align({0, 0, 1e12, 1e12}, ops::RoiAlign::Attrs()).status();
  EXPECT_NE(st.message().find("give a sampling_ratio"), std::string::npos) << st;
  // With a sampling ratio the same roi samples (outside the image: zeros).
  EXPECT_DOUBLE_EQ(Value({0, 0, 1e12, 1e12}, ops::RoiAlign::Attrs().SamplingRatio(1)), 0);
}

}  // namespace roi_align_test
}  // namespace
}  // namespace rill::testing
