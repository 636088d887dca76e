// AdjustHue and AdjustSaturation by hand: the colour wheel's primaries a third of a turn
// apart, a whole turn and greys unchanged, and one pixel worked through HSV on paper
// (0.2, 0.4, 0.8: hue 11/18, saturation 0.75, value 0.8).
#include "rill/ops/image_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace adjust_hsv_test {

MarkTested tested({"AdjustHue", "AdjustSaturation"});

BuildFn Hue(float delta) {
  return [delta](const Scope& s, const std::vector<Output>& in) {
    return Output(ops::AdjustHue(s, in[0], ops::Const(s, delta)));
  };
}
BuildFn Saturation(float scale) {
  return [scale](const Scope& s, const std::vector<Output>& in) {
    return Output(ops::AdjustSaturation(s, in[0], ops::Const(s, scale)));
  };
}

// Pixels: red, grey, and (0.2, 0.4, 0.8), in one [1, 1, 3, 3] image.
Tensor Pixels(DataType dt) {
  return FromDoubles(dt, {1, 1, 3, 3}, {1, 0, 0, 0.5, 0.5, 0.5, 0.2, 0.4, 0.8});
}

TEST(AdjustHue, TurnsTheColourWheel) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    struct Case {
      float delta;
      std::vector<double> want;
    };
    // Hue 11/18 plus a third is 17/18 (sector 5, 2/3 in: (v, min, v (1 - s 2/3))), minus a
    // third 5/18 (sector 1: (v (1 - s 2/3), v, min)); a quarter turn 31/36 (sector 5, 1/6
    // in); red a quarter on is halfway from yellow to green.
    for (const Case& c : {Case{1.f / 3, {0, 1, 0, 0.5, 0.5, 0.5, 0.8, 0.2, 0.4}},
                          Case{-1.f / 3, {0, 0, 1, 0.5, 0.5, 0.5, 0.4, 0.8, 0.2}},
                          Case{1.f, {1, 0, 0, 0.5, 0.5, 0.5, 0.2, 0.4, 0.8}},
                          Case{0.25f, {0.5, 1, 0, 0.5, 0.5, 0.5, 0.8, 0.2, 0.7}}}) {
      SCOPED_TRACE(c.delta);
      auto y = RunOp(Hue(c.delta), {Pixels(dt)});
      ASSERT_TRUE(y.ok()) << y.status();
      ExpectTensorNear(*y, dt, {1, 1, 3, 3}, c.want, 1e-5);
    }
  }
}

TEST(AdjustSaturation, ScalesTowardsGreyOrFullColour) {
  // Half: saturation 0.375, min 0.5, sector 3: (min, v (1 - s f), v) with f = 2/3.
  auto half = RunOp(Saturation(0.5f), {Pixels(DT_FLOAT)});
  ASSERT_TRUE(half.ok()) << half.status();
  ExpectTensorNear(*half, DT_FLOAT, {1, 1, 3, 3}, {1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.6, 0.8},
                   1e-5);
  // Ten times: clamped to 1, so min 0 and the middle channel v (1 - f).
  auto full = RunOp(Saturation(10.f), {Pixels(DT_DOUBLE)});
  ASSERT_TRUE(full.ok()) << full.status();
  ExpectTensorNear(*full, DT_DOUBLE, {1, 1, 3, 3}, {1, 0, 0, 0.5, 0.5, 0.5, 0, 0.8 / 3, 0.8}, 1e-6);
  auto grey = RunOp(Saturation(0.f), {Pixels(DT_FLOAT)});
  ASSERT_TRUE(grey.ok()) << grey.status();
  ExpectTensorNear(*grey, DT_FLOAT, {1, 1, 3, 3}, {1, 1, 1, 0.5, 0.5, 0.5, 0.8, 0.8, 0.8}, 1e-6);
}

}  // namespace adjust_hsv_test
}  // namespace
}  // namespace rill::testing
