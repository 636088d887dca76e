// RGBToHSV, HSVToRGB and their gradient ops: colours by hand, the round trip, a hue
// outside [0, 1] clamped as TensorFlow's kernel does, gradients against central
// differences with the second derivative refused, and op cases for GPU parity; the same
// for AdjustContrastv2.
#include "gradient_checker.h"
#include "rill/ops/image_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace colorspace_test {

MarkTested tested({"RGBToHSV", "HSVToRGB", "_RGBToHSVGrad", "_HSVToRGBGrad", "AdjustContrastv2"});

Output ToHsv(const Scope& s, const std::vector<Output>& in) { return ops::RGBToHSV(s, in[0]); }
Output ToRgb(const Scope& s, const std::vector<Output>& in) { return ops::HSVToRGB(s, in[0]); }

TEST(Colorspace, PrimariesAndMixesByHand) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    // red, green, blue, yellow, magenta (red ties blue), a dull red, black, grey
    const Tensor rgb = FromDoubles(dt, {8, 3}, {1, 0, 0, 0,   1,    0,    0, 0, 1, 1,   1,   0,
                                                1, 0, 1, 0.5, 0.25, 0.25, 0, 0, 0, 0.5, 0.5, 0.5});
    const std::vector<double> hsv = {0,   1,       1, 1.0 / 3, 1,       1, 2.0 / 3, 1,
                                     1,   1.0 / 6, 1, 1,       5.0 / 6, 1, 1,       0,
                                     0.5, 0.5,     0, 0,       0,       0, 0,       0.5};
    auto got = RunOp(ToHsv, {rgb});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {8, 3}, hsv, dt == DT_FLOAT ? 1e-6 : 1e-15);
    got = RunOp(ToRgb, {FromDoubles(dt, {8, 3}, hsv)});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {8, 3}, ToDoubles(rgb), dt == DT_FLOAT ? 1e-6 : 1e-15);
  }
}

// HSV -> RGB -> HSV and back give what they started from, for any batch shape.
TEST(Colorspace, RoundTripsEveryPixel) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor rgb = RandomTensor(dt, {2, 5, 4, 3}, 0, 1, 1);
    auto back =
        RunOp([](const Scope& s, const auto& in) { return ToRgb(s, {ToHsv(s, in)}); }, {rgb});
    ASSERT_TRUE(back.ok()) << back.status();
    ExpectTensorNear(*back, dt, {2, 5, 4, 3}, ToDoubles(rgb), dt == DT_FLOAT ? 2e-6 : 1e-12);
  }
}

// A hue outside [0, 1] is clamped onto the ends of each channel's ramp, as TensorFlow's
// kernel computes it, not wrapped around the wheel: 1.25, -0.25 and 7/6 are all red.
TEST(Colorspace, AHueOutsideTheWheelIsClampedNotWrapped) {
  auto got =
      RunOp(ToRgb, {FromDoubles(DT_DOUBLE, {3, 3}, {1.25, 1, 1, -0.25, 1, 1, 7.0 / 6, 1, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_DOUBLE, {3, 3}, {1, 0, 0, 1, 0, 0, 1, 0, 0}, 0);
}

TEST(Colorspace, GradientsMatchNumericAndStopAtSecondOrder) {
  ExpectGradientMatchesNumeric(ToHsv, {RandomTensor(DT_DOUBLE, {2, 4, 3}, 0.05, 0.95, 2)});
  // Hues away from the ramps' kinks at sixths; saturations and values inside (0, 1).
  Tensor hsv = RandomTensor(DT_DOUBLE, {7, 3}, 0.1, 0.9, 3);
  for (int p = 0; p < 7; ++p) hsv.flat<double>()(3 * p) = (p + 0.37) / 7;
  ExpectGradientMatchesNumeric(ToRgb, {hsv});
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto y = ops::RGBToHSV(s, x);
  std::vector<Output> dx, ddx;
  ASSERT_TRUE(ops::AddSymbolicGradients(s, {y}, {x}, &dx).ok());
  const absl::Status st = ops::AddSymbolicGradients(s, {dx[0]}, {x}, &ddx);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("second derivatives of RGBToHSV"), std::string::npos) << st;
}

Output Contrast(const Scope& s, const std::vector<Output>& in) {
  return ops::AdjustContrast(s, in[0], in[1]);
}

// Each channel of each image moves about its own mean; a batch of [2, 3] images of 2x2.
TEST(AdjustContrast, EachChannelOfEachImageAboutItsMean) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    std::vector<double> x(2 * 3 * 2 * 2 * 2), want(x.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>((i * 7) % 11);
    for (size_t image = 0; image < 6; ++image) {
      for (size_t c = 0; c < 2; ++c) {
        double mean = 0;
        for (size_t p = 0; p < 4; ++p) mean += x[image * 8 + p * 2 + c] / 4;
        for (size_t p = 0; p < 4; ++p) {
          want[image * 8 + p * 2 + c] = (x[image * 8 + p * 2 + c] - mean) * 1.5 + mean;
        }
      }
    }
    auto got =
        RunOp(Contrast, {FromDoubles(dt, {2, 3, 2, 2, 2}, x), FromDoubles(DT_FLOAT, {}, {1.5})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 3, 2, 2, 2}, want, 1e-6);
  }
}

// The factor is float whatever the images' dtype: cast from the checker's float64, with a
// step large enough for float's rounding (y is quadratic in it, so the step costs nothing).
TEST(AdjustContrast, GradientMatchesNumericForImagesAndFactor) {
  GradCheckOptions options;
  options.delta = 1e-2;
  auto err = GradientError(
      [](const Scope& s, const std::vector<Output>& in) {
        auto f = ops::Cast(s, in[1], DT_FLOAT);
        return Output(ops::Square(s, ops::AdjustContrast(s, in[0], f)));
      },
      {RandomTensor(DT_DOUBLE, {2, 3, 2, 3}, -1, 1, 6), FromDoubles(DT_DOUBLE, {}, {0.75})},
      DT_DOUBLE, options);
  ASSERT_TRUE(err.ok()) << err.status();
  EXPECT_LT(*err, 1e-4);
}

const bool kMarked = [] {
  GradTestedOps().insert(
      {"RGBToHSV", "HSVToRGB", "_RGBToHSVGrad", "_HSVToRGBGrad", "AdjustContrastv2"});
  return true;
}();

BuildFn GradOp(const char* op) {
  return [op](const Scope& s, const std::vector<Output>& in) {
    return Output(ops::internal::NodeBuilder(s, op).Input(in[0]).Input(in[1]).Finalize().node());
  };
}

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    const std::string t = " " + DataTypeString(dt);
    const Tensor x = RandomTensor(dt, {3, 17, 5, 3}, 0, 1, 4);
    const Tensor dy = RandomTensor(dt, {3, 17, 5, 3}, -1, 1, 5);
    c.push_back({"RGBToHSV" + t, ToHsv, {x}});
    c.push_back({"HSVToRGB" + t, ToRgb, {x}});
    c.push_back({"_RGBToHSVGrad" + t, GradOp("_RGBToHSVGrad"), {x, dy}});
    c.push_back({"_HSVToRGBGrad" + t, GradOp("_HSVToRGBGrad"), {x, dy}});
    c.push_back({"AdjustContrastv2" + t,
                 [](const Scope& s, const std::vector<Output>& in) {
                   return Output(ops::AdjustContrast(s, in[0], ops::Const(s, 1.7f)));
                 },
                 {RandomTensor(dt, {3, 40, 33, 3}, 0, 1, 8)}});
  }
  return c;
}

}  // namespace colorspace_test
}  // namespace

RILL_OP_CASES(colorspace, colorspace_test::Cases);

}  // namespace rill::testing
