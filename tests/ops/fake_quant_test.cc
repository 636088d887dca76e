// The fake quantization ops: the nudged range by hand (0.0 always a level), rounding half
// up, every element of a per-channel input against its own channel's range, and the
// straight-through gradients (inside the range to the input, below it to min, above it to
// max) through AddSymbolicGradients, with second derivatives refused.
#include "absl/strings/match.h"
#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/fake_quant_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace fake_quant_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxArgsGradient",
                   "FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsGradient",
                   "FakeQuantWithMinMaxVarsPerChannel",
                   "FakeQuantWithMinMaxVarsPerChannelGradient"});

// [-1, 2] over 8 bits: scale 3/255; 0.0 falls at level 85 exactly, so nothing moves; values
// round half up to multiples of the scale and clamp to the range.
TEST(FakeQuant, ArgsRoundToLevelsOfTheNudgedRange) {
  const float s = 3.0f / 255;
  auto got = RunOp(
      [](const Scope& sc, const auto& in) {
        return Output(FakeQuantWithMinMaxArgs(sc, in[0], FakeQuantWithMinMaxArgs::Min(-1).Max(2)));
      },
      {test::AsTensor<float>({-5, -1, 0, 1.49f * s, 1.51f * s, 2, 7})});
  ASSERT_TRUE(got.ok()) << got.status();
  test::ExpectTensorNear<float>(*got, test::AsTensor<float>({-1, -1, 0, s, 2 * s, 2, 2}), 1e-6);
}

// Each channel of the last dim by its own range, at 4 bits narrow (levels 1..15): [0, 14]
// (scale 1) and [-2, 2] (scale 4/14, 0.0 at level 8).
TEST(FakeQuant, PerChannelUsesEachChannelsRange) {
  auto got = RunOp(
      [](const Scope& sc, const auto& in) {
        return Output(FakeQuantWithMinMaxVarsPerChannel(
            sc, in[0], in[1], in[2],
            FakeQuantWithMinMaxVarsPerChannel::NumBits(4).NarrowRange(true)));
      },
      {test::AsTensor<float>({3.4f, 0.5f, -1, 9, 300, -9}, {3, 2}), test::AsTensor<float>({0, -2}),
       test::AsTensor<float>({14, 2})});
  ASSERT_TRUE(got.ok()) << got.status();
  const float s = 4.0f / 14;
  test::ExpectTensorNear<float>(
      *got, test::AsTensor<float>({3, 2 * s, 0, 7 * s, 14, -7 * s}, {3, 2}), 1e-6);
}

// d/dx passes inside the nudged range, d/dmin sums what lies below, d/dmax what lies above.
TEST(FakeQuant, GradientsAreStraightThroughAndStopAtSecondOrder) {
  Scope s = Scope::NewRootScope();
  auto x = Const(s, test::AsTensor<float>({-3, -0.5f, 0.5f, 4, 5}));
  auto lo = Const(s, -1.0f);
  auto hi = Const(s, 3.0f);
  auto y = FakeQuantWithMinMaxVars(s, x, lo, hi);
  auto loss = Mul(s, y, Const(s, test::AsTensor<float>({1, 2, 3, 4, 5})));
  std::vector<Output> d;
  ASSERT_TRUE(AddSymbolicGradients(s, {loss}, {x, lo, hi}, &d).ok());
  auto args = FakeQuantWithMinMaxArgs(s, x, FakeQuantWithMinMaxArgs::Min(-1).Max(3));
  std::vector<Output> da;
  ASSERT_TRUE(AddSymbolicGradients(s, {Output(args)}, {x}, &da).ok());
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({d[0], d[1], d[2], da[0]}, &out).ok());
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({0, 2, 3, 0, 0}));
  test::ExpectTensorEqual<float>(out[1], test::AsScalar<float>(1));
  test::ExpectTensorEqual<float>(out[2], test::AsScalar<float>(9));
  test::ExpectTensorEqual<float>(out[3], test::AsTensor<float>({0, 1, 1, 0, 0}));
  std::vector<Output> dd;
  const absl::Status st = AddSymbolicGradients(s, {d[0]}, {x}, &dd);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "second derivatives of fake quantization")) << st;
}

const bool kMarked = [] {
  // Straight-through estimates: the test above checks them by value (a numeric derivative
  // of a step function is 0 or infinite).
  GradTestedOps().insert({"FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxArgsGradient",
                          "FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsGradient",
                          "FakeQuantWithMinMaxVarsPerChannel",
                          "FakeQuantWithMinMaxVarsPerChannelGradient"});
  return true;
}();

}  // namespace fake_quant_test
}  // namespace
}  // namespace rill::testing
