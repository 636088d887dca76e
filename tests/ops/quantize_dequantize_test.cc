// QuantizeAndDequantizeV2, V3, V4 and V4Grad: levels by hand in float and double, ties to
// even (and half up), a given range per slice, NaN kept out of the input's own range, and
// the gradients: V2's straight through, V4's masked by V4Grad, and V4Grad's own.
#include <cmath>
#include <limits>

#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/quantize_dequantize_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace quantize_dequantize_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"QuantizeAndDequantizeV2", "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4",
                   "QuantizeAndDequantizeV4Grad"});

// The input's own range [-1, 0.8] over signed 8 bits: scale 128 from the min side; V2, V3
// and V4 agree, in float and double.
TEST(QuantizeAndDequantize, OwnRangeLevelsByHandEveryVersion) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor x = FromDoubles(dt, {4}, {-1, -0.5, 0.25, 0.8});
    const Tensor zero = FromDoubles(dt, {}, {0});
    const std::vector<double> want = {-1, -0.5, 0.25, 102.0 / 128};
    for (int version : {2, 3, 4}) {
      SCOPED_TRACE(version);
      auto got = RunOp(
          [version](const Scope& s, const std::vector<Output>& in) -> Output {
            if (version == 3)
              return QuantizeAndDequantizeV3(s, in[0], in[1], in[2], Const(s, 8),
                                             QuantizeAndDequantizeV3::RangeGiven(false));
            if (version == 4) return QuantizeAndDequantizeV4(s, in[0], in[1], in[2]);
            return QuantizeAndDequantizeV2(s, in[0], in[1], in[2]);
          },
          {x, zero, zero});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, {4}, want, 0);
    }
  }
}

// Unsigned 8 bits over [0, 255] given: scale 1. Ties go to the even level (or up), and
// values outside the range clamp to its ends.
TEST(QuantizeAndDequantize, TiesToEvenOrUpAndClampedToAGivenRange) {
  const Tensor x = FromDoubles(DT_DOUBLE, {7}, {2.5, 3.5, 4.5, 254.5, 300, -1, 0.49999999});
  for (bool up : {false, true}) {
    auto got = RunOp(
        [up](const Scope& s, const std::vector<Output>& in) {
          auto a = QuantizeAndDequantizeV2::SignedInput(false).RangeGiven(true).RoundMode(
              up ? "HALF_UP" : "HALF_TO_EVEN");
          return Output(QuantizeAndDequantizeV2(s, in[0], in[1], in[2], a));
        },
        {x, FromDoubles(DT_DOUBLE, {}, {0}), FromDoubles(DT_DOUBLE, {}, {255})});
    ASSERT_TRUE(got.ok()) << got.status();
    const std::vector<double> want = up ? std::vector<double>{3, 4, 5, 255, 255, 0, 0}
                                        : std::vector<double>{2, 4, 4, 254, 255, 0, 0};
    ExpectTensorNear(*got, DT_DOUBLE, {7}, want, 0);
  }
}

// Axis 0: row 0 over [-1, 1] (scale 127 from the max side, min moved to -128/127: -3 clamps
// there, 63.5 goes to 64), row 1 over [-4, 4] (scale 127/4: -95.25, 15.875 and the tie 63.5
// go to -95, 16 and 64).
TEST(QuantizeAndDequantize, AGivenRangePerSlice) {
  auto got = RunOp(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(QuantizeAndDequantizeV4(s, in[0], in[1], in[2],
                                              QuantizeAndDequantizeV4::Axis(0).RangeGiven(true)));
      },
      {FromDoubles(DT_DOUBLE, {2, 3}, {-3, 0.5, 2, -3, 0.5, 2}),
       FromDoubles(DT_DOUBLE, {2}, {-1, -4}), FromDoubles(DT_DOUBLE, {2}, {1, 4})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_DOUBLE, {2, 3},
                   {-128.0 / 127, 64.0 / 127, 1, -95 * 4.0 / 127, 16 * 4.0 / 127, 64 * 4.0 / 127},
                   1e-12);
}

// NaN is left out of the input's own range: the other values quantize as without it.
TEST(QuantizeAndDequantize, NaNStaysNaNAndLeavesTheRangeAlone) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto got = RunOp(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(QuantizeAndDequantizeV2(s, in[0], in[1], in[2]));
      },
      {FromDoubles(DT_DOUBLE, {3}, {nan, -1, 0.8}), FromDoubles(DT_DOUBLE, {}, {0}),
       FromDoubles(DT_DOUBLE, {}, {0})});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(std::isnan(got->flat<double>()(0)));
  EXPECT_EQ(got->flat<double>()(1), -1);
  EXPECT_EQ(got->flat<double>()(2), 102.0 / 128);
}

// d/dx of sum(op(x)) for x = {-2, -1, 0, 1, 2} and the range [-1, 1]: V2 passes everything,
// V4 what lies inside (ends included), and V4Grad's gradient with respect to its gradients
// is the same mask.
TEST(QuantizeAndDequantize, GradientsStraightThroughOrMasked) {
  const Tensor x = FromDoubles(DT_FLOAT, {5}, {-2, -1, 0, 1, 2});
  for (int version : {2, 4, 5}) {
    SCOPED_TRACE(version);
    auto got = RunOp(
        [version](const Scope& s, const std::vector<Output>& in) {
          auto lo = Const(s, -1.0f), hi = Const(s, 1.0f);
          auto given = QuantizeAndDequantizeV2::RangeGiven(true);
          Output y;
          if (version == 2) y = QuantizeAndDequantizeV2(s, in[0], lo, hi, given);
          if (version == 4) y = QuantizeAndDequantizeV4(s, in[0], lo, hi, given);
          if (version == 5)
            y = QuantizeAndDequantizeV4Grad(s, in[0], Const(s, {-2.f, -1.f, 0.f, 1.f, 2.f}), lo, hi)
                    .input_backprop;
          std::vector<Output> dx;
          auto st = AddSymbolicGradients(s, {Output(Sum(s, y, Const(s, 0)))}, {in[0]}, &dx);
          return st.ok() ? dx[0] : Output();
        },
        {x});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(
        *got, DT_FLOAT, {5},
        version == 2 ? std::vector<double>{1, 1, 1, 1, 1} : std::vector<double>{0, 1, 1, 1, 0}, 0);
  }
}

const bool kMarked = [] {
  GradTestedOps().insert({"QuantizeAndDequantizeV2", "QuantizeAndDequantizeV3",
                          "QuantizeAndDequantizeV4", "QuantizeAndDequantizeV4Grad"});
  return true;
}();

}  // namespace quantize_dequantize_test
}  // namespace
}  // namespace rill::testing
