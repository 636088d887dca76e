// RGBToHSV, HSVToRGB and their gradient ops: colours by hand, the round trip, a hue
// outside [0, 1] clamped as TensorFlow's kernel does, gradients against central
// differences with the second derivative refused, and op cases for GPU parity.
#include "gradient_checker.h"
#include "rill/ops/image_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace colorspace_test {

MarkTested tested({"RGBToHSV", "HSVToRGB", "_RGBToHSVGrad", "_HSVToRGBGrad"});

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

const bool kMarked = [] {
  GradTestedOps().insert({"RGBToHSV", "HSVToRGB", "_RGBToHSVGrad", "_HSVToRGBGrad"});
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
  }
  return c;
}

}  // namespace colorspace_test
}  // namespace

RILL_OP_CASES(colorspace, colorspace_test::Cases);

}  // namespace rill::testing
