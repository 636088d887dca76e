// The cases of TensorFlow's tensorflow/core/kernels/fake_quant_ops_test.cc, which drive
// FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars, FakeQuantWithMinMaxVarsPerChannel and
// their gradients through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against
// rill as tables (their inputs and expected values are TensorFlow's; the code is ours).
// Each forward case runs through the Args op and the Vars op, as TensorFlow's file has
// one case of each per range; the per-channel cases give every channel that range.
// Left out: the per-channel cases of rank 4 (the same ranges as those of rank 1 and 2).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace fake_quant_ops_test {

// One range and six inputs with what they quantize to; `exact`: no tolerance at all.
struct Case {
  const char* name;
  int num_bits;
  bool narrow;
  float min, max;
  std::vector<float> in, want;
  bool exact = false;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"SymmetricRangeZeroInput_RegularRange",
       8,
       false,
       -10,
       10,
       {0, 0, 0, 0, 0, 0},
       {0, 0, 0, 0, 0, 0},
       true},
      {"SymmetricRangeZeroInput_NarrowRange",
       8,
       true,
       -10,
       10,
       {0, 0, 0, 0, 0, 0},
       {0, 0, 0, 0, 0, 0},
       true},
      {"NoNudging_RegularRange",
       8,
       false,
       -10,
       53.75f,
       {-10.1f, -10, -9.9f, -9.75f, 53.75f, 53.8f},
       {-10, -10, -10, -9.75f, 53.75f, 53.75f}},
      {"NoNudging_NarrowRange",
       8,
       true,
       -10,
       53.5f,
       {-10.1f, -10, -9.9f, -9.75f, 53.5f, 53.6f},
       {-10, -10, -10, -9.75f, 53.5f, 53.5f}},
      {"NudgedDown_RegularRange",
       8,
       false,
       -0.1f,
       63.65f,
       {-0.1f, 0, 0.1f, 0.25f, 63.75f, 63.8f},
       {0, 0, 0, 0.25f, 63.75f, 63.75f}},
      {"NudgedDown_NarrowRange",
       8,
       true,
       -0.1f,
       63.4f,
       {-0.1f, 0, 0.1f, 0.25f, 63.5f, 63.6f},
       {0, 0, 0, 0.25f, 63.5f, 63.5f}},
      {"NudgedUp_RegularRange",
       8,
       false,
       -0.1275f,
       63.6225f,
       {-0.26f, -0.25f, -0.24f, 0, 63.5f, 63.6f},
       {-0.25f, -0.25f, -0.25f, 0, 63.5f, 63.5f}},
      {"NudgedUp_NarrowRange",
       8,
       true,
       -0.1275f,
       63.3725f,
       {-0.26f, -0.25f, -0.24f, 0, 63.25f, 63.3f},
       {-0.25f, -0.25f, -0.25f, 0, 63.25f, 63.25f}},
      {"NudgedZeroIs255_RegularRange",
       8,
       false,
       -63.65f,
       0.1f,
       {-63.8f, -63.75f, -63.7f, -63.5f, 0, 0.1f},
       {-63.75f, -63.75f, -63.75f, -63.5f, 0, 0}},
      {"NudgedZeroIs255_NarrowRange",
       8,
       true,
       -63.4f,
       0.1f,
       {-63.6f, -63.5f, -63.4f, -63.25f, 0, 0.1f},
       {-63.5f, -63.5f, -63.5f, -63.25f, 0, 0}},
      {"NoNudging_4Bits_RegularRange",
       4,
       false,
       -6,
       1.5f,
       {-6.1f, -6, -5.9f, -5.5f, 1.5f, 1.6f},
       {-6, -6, -6, -5.5f, 1.5f, 1.5f}},
      {"NoNudging_4Bits_NarrowRange",
       4,
       true,
       -6,
       1,
       {-6.1f, -6, -5.9f, -5.5f, 1, 1.1f},
       {-6, -6, -6, -5.5f, 1, 1}},
      {"NudgedDown_4Bits_RegularRange",
       4,
       false,
       -0.1f,
       7.4f,
       {-0.1f, 0, 0.1f, 0.5f, 7.5f, 7.6f},
       {0, 0, 0, 0.5f, 7.5f, 7.5f}},
      {"NudgedDown_4Bits_NarrowRange",
       4,
       true,
       -0.1f,
       6.9f,
       {-0.1f, 0, 0.1f, 0.5f, 7, 7.1f},
       {0, 0, 0, 0.5f, 7, 7}},
      {"NudgedUp_4Bits_RegularRange",
       4,
       false,
       -0.4f,
       7.1f,
       {-0.6f, -0.5f, -0.24f, 0, 7, 7.1f},
       {-0.5f, -0.5f, 0, 0, 7, 7}},
      {"NudgedUp_4Bits_NarrowRange",
       4,
       true,
       -0.4f,
       6.6f,
       {-0.6f, -0.5f, -0.24f, 0, 6.5f, 6.6f},
       {-0.5f, -0.5f, 0, 0, 6.5f, 6.5f}},
      {"NudgedZeroIs15_4Bits_RegularRange",
       4,
       false,
       -7.3f,
       0.2f,
       {-7.6f, -7.5f, -7.4f, -7.2f, 0, 0.1f},
       {-7.5f, -7.5f, -7.5f, -7, 0, 0}},
      {"NudgedZeroIs15_4Bits_NarrowRange",
       4,
       true,
       -6.8f,
       0.2f,
       {-7.1f, -7, -6.9f, -6.7f, 0, 0.1f},
       {-7, -7, -7, -6.5f, 0, 0}},
      {"NoNudging_2Bits_RegularRange",
       2,
       false,
       -1,
       0.5f,
       {-1.1f, -1, -0.9f, -0.3f, 0.1f, 0.6f},
       {-1, -1, -1, -0.5f, 0, 0.5f}},
      {"NoNudging_2Bits_NarrowRange",
       2,
       true,
       -1,
       0,
       {-1.1f, -1, -0.9f, -0.3f, 0, 0.1f},
       {-1, -1, -1, -0.5f, 0, 0}},
      {"NudgedDown_2Bits_RegularRange",
       2,
       false,
       -0.1f,
       1.4f,
       {-0.2f, 0.1f, 0.7f, 1, 1.3f, 1.6f},
       {0, 0, 0.5f, 1, 1.5f, 1.5f}},
      {"NudgedDown_2Bits_NarrowRange",
       2,
       true,
       -0.1f,
       0.9f,
       {-0.1f, 0.1f, 0.7f, 0.9f, 1, 1.1f},
       {0, 0, 0.5f, 1, 1, 1}},
      {"NudgedUp_2Bits_RegularRange",
       2,
       false,
       -0.4f,
       1.1f,
       {-0.6f, -0.5f, -0.24f, 0, 1, 1.1f},
       {-0.5f, -0.5f, 0, 0, 1, 1}},
      {"NudgedUp_2Bits_NarrowRange",
       2,
       true,
       -0.4f,
       0.6f,
       {-0.6f, -0.5f, -0.24f, 0, 0.5f, 0.6f},
       {-0.5f, -0.5f, 0, 0, 0.5f, 0.5f}},
  };
  return cases;
}

// The inputs of TensorFlow's gradient cases, the gradient passing at all but the first and
// the last (below and above the nudged range).
struct GradCase {
  int num_bits;
  bool narrow;
  float min, max;
  std::vector<float> in;
};
const std::vector<GradCase> kGradCases = {
    {8, false, -0.125f, 63.625f, {-0.26f, -0.25f, -0.24f, 0, 63.5f, 63.6f}},
    {8, true, -0.125f, 63.375f, {-0.26f, -0.25f, -0.24f, 0, 63.25f, 63.3f}},
    {4, false, -0.4f, 7.1f, {-0.6f, -0.5f, -0.4f, 0, 7, 7.1f}},
    {4, true, -0.4f, 6.6f, {-0.6f, -0.5f, -0.4f, 0, 6.5f, 6.6f}},
};
const std::vector<float> kUpstream = {0.3f, -0.7f, 1.1f, 0.9f, -0.2f, 0.6f};

class QuantOpsTest : public OpsTestBase {
 protected:
  void Make(const std::string& op, int num_bits, bool narrow, float min, float max) {
    inputs_.clear();
    NodeDefBuilder b("op", op);
    const bool grad = op.ends_with("Gradient"), vars = op.find("Vars") != std::string::npos;
    const int n = (grad ? 2 : 1) + (vars ? 2 : 0);
    for (int i = 0; i < n; ++i) b.Input(FakeInput(DT_FLOAT));
    b.Attr("num_bits", num_bits).Attr("narrow_range", narrow);
    if (!vars) b.Attr("min", min).Attr("max", max);
    TF_ASSERT_OK(b.Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  // min and max as inputs: scalars, or `channels` copies.
  void AddRange(float min, float max, int channels) {
    if (channels == 0) {
      AddInputFromArray<float>(TensorShape({}), {min});
      AddInputFromArray<float>(TensorShape({}), {max});
    } else {
      AddInputFromArray<float>(TensorShape({channels}), std::vector<float>(channels, min));
      AddInputFromArray<float>(TensorShape({channels}), std::vector<float>(channels, max));
    }
  }
  void Expect(const Case& c, const TensorShape& shape) {
    const Tensor want = test::AsTensor<float>(c.want, shape);
    if (c.exact) {
      test::ExpectTensorEqual<float>(want, *GetOutput(0));
    } else {
      test::ExpectTensorNear<float>(want, *GetOutput(0), 1e-5);
    }
  }
};

TEST_F(QuantOpsTest, WithArgsEveryRange) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    Make("FakeQuantWithMinMaxArgs", c.num_bits, c.narrow, c.min, c.max);
    AddInputFromArray<float>(TensorShape({2, 3}), c.in);
    TF_ASSERT_OK(RunOpKernel());
    Expect(c, TensorShape({2, 3}));
  }
}

TEST_F(QuantOpsTest, WithVarsEveryRange) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    Make("FakeQuantWithMinMaxVars", c.num_bits, c.narrow, 0, 0);
    AddInputFromArray<float>(TensorShape({2, 3}), c.in);
    AddRange(c.min, c.max, 0);
    TF_ASSERT_OK(RunOpKernel());
    Expect(c, TensorShape({2, 3}));
  }
}

// Each range for every channel: the inputs as 6 channels of one element ("Dim1") and as
// [2, 3] ("Dim2").
TEST_F(QuantOpsTest, WithVarsPerChannelEveryRange) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    for (const TensorShape& shape : {TensorShape({6}), TensorShape({2, 3})}) {
      Make("FakeQuantWithMinMaxVarsPerChannel", c.num_bits, c.narrow, 0, 0);
      AddInputFromArray<float>(shape, c.in);
      AddRange(c.min, c.max, static_cast<int>(shape.dim_size(shape.dims() - 1)));
      TF_ASSERT_OK(RunOpKernel());
      Expect(c, shape);
    }
  }
}

TEST_F(QuantOpsTest, WithVarsZeroMinAndMax) {
  for (const char* op : {"FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsPerChannel"}) {
    SCOPED_TRACE(op);
    const bool per_channel = std::string(op).ends_with("PerChannel");
    Make(op, 8, false, 0, 0);
    AddInputFromArray<float>(TensorShape({2, 3}), std::vector<float>(6, 0.f));
    AddRange(0, 0, per_channel ? 3 : 0);
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorEqual<float>(test::AsTensor<float>(std::vector<float>(6, 0.f), {2, 3}),
                                   *GetOutput(0));
  }
}

TEST_F(QuantOpsTest, GradientsPassInsideTheNudgedRange) {
  const std::vector<float> pass = {0, kUpstream[1], kUpstream[2], kUpstream[3], kUpstream[4], 0};
  for (const GradCase& c : kGradCases) {
    SCOPED_TRACE(::testing::PrintToString(c.in));
    Make("FakeQuantWithMinMaxArgsGradient", c.num_bits, c.narrow, c.min, c.max);
    AddInputFromArray<float>(TensorShape({2, 3}), kUpstream);
    AddInputFromArray<float>(TensorShape({2, 3}), c.in);
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorNear<float>(test::AsTensor<float>(pass, {2, 3}), *GetOutput(0), 1e-6);
    Make("FakeQuantWithMinMaxVarsGradient", c.num_bits, c.narrow, 0, 0);
    AddInputFromArray<float>(TensorShape({2, 3}), kUpstream);
    AddInputFromArray<float>(TensorShape({2, 3}), c.in);
    AddRange(c.min, c.max, 0);
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorNear<float>(test::AsTensor<float>(pass, {2, 3}), *GetOutput(0), 1e-6);
    test::ExpectTensorNear<float>(test::AsScalar<float>(kUpstream[0]), *GetOutput(1), 1e-6);
    test::ExpectTensorNear<float>(test::AsScalar<float>(kUpstream[5]), *GetOutput(2), 1e-6);
    // Per channel, [2, 3]: channel 0 holds the one below, channel 2 the one above.
    Make("FakeQuantWithMinMaxVarsPerChannelGradient", c.num_bits, c.narrow, 0, 0);
    AddInputFromArray<float>(TensorShape({2, 3}), kUpstream);
    AddInputFromArray<float>(TensorShape({2, 3}), c.in);
    AddRange(c.min, c.max, 3);
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorNear<float>(test::AsTensor<float>(pass, {2, 3}), *GetOutput(0), 1e-6);
    test::ExpectTensorNear<float>(test::AsTensor<float>({kUpstream[0], 0, 0}), *GetOutput(1), 1e-6);
    test::ExpectTensorNear<float>(test::AsTensor<float>({0, 0, kUpstream[5]}), *GetOutput(2), 1e-6);
  }
}

}  // namespace fake_quant_ops_test
}  // namespace
}  // namespace rill
