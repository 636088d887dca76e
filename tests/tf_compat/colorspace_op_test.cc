// The cases of TensorFlow's tensorflow/core/kernels/image/colorspace_op_test.cc, which drive
// RGBToHSV and HSVToRGB through OpsTestBase (runtime/testing/ops_testutil.h) in float and
// double, rewritten against rill (their inputs and expected values are TensorFlow's; the
// code is ours).
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace colorspace_op_test {

// One pixel in, one pixel expected out: exactly, or within 1e-6.
struct Pixel {
  std::vector<double> in, out;
  bool exact;
};

// TensorFlow's seven cases of RGB -> HSV (black, gray, white, then a red, green and blue
// maximum, and a hue whose difference is negative); HSV -> RGB runs them backwards.
std::vector<Pixel> RgbToHsvCases() {
  const double s = .6 / .8, v = .8;
  return {{{0, 0, 0}, {0, 0, 0}, true},
          {{.5, .5, .5}, {0, 0, .5}, true},
          {{1, 1, 1}, {0, 0, 1}, true},
          {{.8, .4, .2}, {1. / 6. * .2 / .6, s, v}, false},
          {{.2, .8, .4}, {1. / 6. * (2.0 + (.2 / .6)), s, v}, false},
          {{.4, .2, .8}, {1. / 6. * (4.0 + (.2 / .6)), s, v}, false},
          {{0, .1, .2}, {1. / 6. * (4.0 + (-.1 / .2)), .2 / .2, .2 / 1.}, false}};
}

template <typename T>
class ColorspaceOpTest : public OpsTestBase {
 protected:
  void Check(const char* op, bool backwards) {
    const DataType dt = DataTypeToEnum<T>::value;
    for (const Pixel& p : RgbToHsvCases()) {
      const std::vector<double>& in = backwards ? p.out : p.in;
      const std::vector<double>& want = backwards ? p.in : p.out;
      SCOPED_TRACE(::testing::PrintToString(in));
      inputs_.clear();
      TF_ASSERT_OK(NodeDefBuilder("colorspace_op", op).Input(FakeInput(dt)).Finalize(node_def()));
      TF_ASSERT_OK(InitOp());
      // The values are cast to T first, as TensorFlow's test writes them into a T tensor.
      AddInputFromArray<T>(TensorShape({3}), {T(in[0]), T(in[1]), T(in[2])});
      TF_ASSERT_OK(RunOpKernel());
      const Tensor expected = test::AsTensor<T>({T(want[0]), T(want[1]), T(want[2])});
      if (p.exact) {
        test::ExpectTensorEqual<T>(expected, *GetOutput(0));
      } else {
        test::ExpectTensorNear<T>(expected, *GetOutput(0), 1e-6);
      }
    }
  }
};

using rgb_to_hsv_float = ColorspaceOpTest<float>;
using rgb_to_hsv_double = ColorspaceOpTest<double>;
using hsv_to_rgb_float = ColorspaceOpTest<float>;
using hsv_to_rgb_double = ColorspaceOpTest<double>;

TEST_F(rgb_to_hsv_float, EveryCase) { Check("RGBToHSV", false); }
TEST_F(rgb_to_hsv_double, EveryCase) { Check("RGBToHSV", false); }
TEST_F(hsv_to_rgb_float, EveryCase) { Check("HSVToRGB", true); }
TEST_F(hsv_to_rgb_double, EveryCase) { Check("HSVToRGB", true); }

}  // namespace colorspace_op_test
}  // namespace
}  // namespace rill
