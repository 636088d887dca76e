// The cases of TensorFlow's tensorflow/core/kernels/quantize_and_dequantize_op_test.cc,
// which drive QuantizeAndDequantizeV2, V3 and V4Grad through OpsTestBase
// (runtime/testing/ops_testutil.h), rewritten against rill (their inputs and expected values
// are TensorFlow's; the code is ours). The per-slice cases fill their tensors from a list of
// values picked at random, as TensorFlow's do; the picks are our own generator's (the same
// picks make the input and what it must give). Left out: the benchmarks.
// rill: an axis below -1 is refused by the shape function, so when the node is built
// (InitOp), where TensorFlow's test, which builds no graph, sees it when the kernel runs.
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace quantize_and_dequantize_op_test {

class QuantizeAndDequantizeTest : public OpsTestBase {
 protected:
  // V2 (input, input_min, input_max) with its attrs.
  void InitV2(bool signed_input, int num_bits, bool range_given, const std::string& round_mode = "",
              bool narrow_range = false, int axis = -1) {
    NodeDefBuilder b("quantize_and_dequantize_op", "QuantizeAndDequantizeV2");
    b.Input(FakeInput(DT_FLOAT)).Input(FakeInput(DT_FLOAT)).Input(FakeInput(DT_FLOAT));
    b.Attr("signed_input", signed_input).Attr("num_bits", num_bits);
    b.Attr("range_given", range_given).Attr("narrow_range", narrow_range).Attr("axis", axis);
    if (!round_mode.empty()) b.Attr("round_mode", round_mode);
    TF_ASSERT_OK(b.Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  // V3 (input, input_min, input_max, num_bits).
  absl::Status InitV3(bool signed_input, bool range_given, bool narrow_range = false,
                      int axis = -1) {
    RILL_RETURN_IF_ERROR(NodeDefBuilder("quantize_and_dequantize_op", "QuantizeAndDequantizeV3")
                             .Input(FakeInput(DT_FLOAT))
                             .Input(FakeInput(DT_FLOAT))
                             .Input(FakeInput(DT_FLOAT))
                             .Input(FakeInput(DT_INT32))
                             .Attr("signed_input", signed_input)
                             .Attr("range_given", range_given)
                             .Attr("narrow_range", narrow_range)
                             .Attr("axis", axis)
                             .Finalize(node_def()));
    return InitOp();
  }
  void AddRange(float min, float max) {
    AddInputFromArray<float>(TensorShape({}), {min});
    AddInputFromArray<float>(TensorShape({}), {max});
  }
  void ExpectOutput(const TensorShape& shape, const std::vector<float>& want, double atol = 1e-5) {
    test::ExpectTensorNear<float>(test::AsTensor<float>(want, shape), *GetOutput(0), atol);
  }
  // The range inputs as added (TensorFlow checks its kernel did not write them).
  void ExpectRangeUnchanged(float value = 0) {
    for (int i : {1, 2}) {
      for (int64_t k = 0; k < GetInput(i).NumElements(); ++k) {
        EXPECT_EQ(GetInput(i).base<float>()[k], value);
      }
    }
  }
};

TEST_F(QuantizeAndDequantizeTest, Convert_scalar_tensor) {
  InitV2(true, 8, false);
  AddInputFromArray<float>(TensorShape({1}), {-3.5});
  AddRange(0, 0);
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(test::AsTensor<float>({-3.5f}, {1}), *GetOutput(0));
  ExpectRangeUnchanged();
}

TEST_F(QuantizeAndDequantizeTest, Convert_scalar_tensor_V3) {
  TF_ASSERT_OK(InitV3(true, false));
  AddInputFromArray<float>(TensorShape({1}), {-3.5});
  AddRange(0, 0);
  AddInputFromArray<int32_t>(TensorShape({}), {8});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(test::AsTensor<float>({-3.5f}, {1}), *GetOutput(0));
  ExpectRangeUnchanged();
}

// A tensor of dims whose every element is one of `values` (picked at random), times
// (1 + its index along axis): each slice holds the same values scaled by its number.
std::vector<float> ScalePerSliceAlongAxis(const std::vector<int64_t>& dims, int axis,
                                          const std::vector<float>& values) {
  int64_t size = 1, minor = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    size *= dims[d];
    if (static_cast<int>(d) > axis) minor *= dims[d];
  }
  const int64_t slices = axis == -1 ? 1 : dims[static_cast<size_t>(axis)];
  std::mt19937 pick(123);
  std::vector<float> out(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    out[i] = values[pick() % values.size()] * static_cast<float>((i / minor) % slices + 1);
  }
  return out;
}

class ParameterizedQuantizeAndDequantizeTest : public QuantizeAndDequantizeTest,
                                               public ::testing::WithParamInterface<int> {
 protected:
  // The input and zeros as every slice's min and max.
  void AddSlicedInput(const std::vector<int64_t>& dims, const std::vector<float>& values) {
    const int axis = GetParam();
    AddInputFromArray<float>(TensorShape(dims), ScalePerSliceAlongAxis(dims, axis, values));
    const int64_t slices = axis == -1 ? 1 : dims[static_cast<size_t>(axis)];
    const TensorShape range = axis == -1 ? TensorShape({}) : TensorShape({slices});
    for (int i = 0; i < 2; ++i) {
      AddInputFromArray<float>(range, std::vector<float>(static_cast<size_t>(slices), 0.0f));
    }
  }
  void ExpectSliced(const std::vector<int64_t>& dims, const std::vector<float>& values) {
    ExpectOutput(TensorShape(dims), ScalePerSliceAlongAxis(dims, GetParam(), values));
    ExpectRangeUnchanged();
  }
};

const std::vector<float> kSeven = {-1, -0.5, 0, 0.3, 0.8, 0.555, 0.50390625};

// With int8 each slice is quantized to {-128, -64, 0, 38, 102, 71, 64}, scale
// (slice + 1) / 128.
TEST_P(ParameterizedQuantizeAndDequantizeTest, Convert_4D_tensor_with_int8) {
  InitV2(true, 8, false, "", false, GetParam());
  AddSlicedInput({2, 3, 4, 5}, kSeven);
  TF_ASSERT_OK(RunOpKernel());
  ExpectSliced({2, 3, 4, 5}, {-1, -0.5, 0, 38.0 / 128, 102.0 / 128, 71.0 / 128, 0.5});
}

// Half up: 64.5 goes to 65.
TEST_P(ParameterizedQuantizeAndDequantizeTest, Convert_4D_tensor_with_int8_round_half_up) {
  InitV2(true, 8, false, "HALF_UP", false, GetParam());
  AddSlicedInput({5, 7, 11, 13}, kSeven);
  TF_ASSERT_OK(RunOpKernel());
  ExpectSliced({5, 7, 11, 13}, {-1, -0.5, 0, 38.0 / 128, 102.0 / 128, 71.0 / 128, 65.0 / 128});
}

// Narrow range: {-127, -63, 0, 38, 102, 70, 64}, scale (slice + 1) / 127.
TEST_P(ParameterizedQuantizeAndDequantizeTest,
       Convert_4D_tensor_with_int8_round_half_up_narrow_range) {
  InitV2(true, 8, false, "HALF_UP", true, GetParam());
  AddSlicedInput({2, 3, 4, 5}, kSeven);
  TF_ASSERT_OK(RunOpKernel());
  ExpectSliced({2, 3, 4, 5}, {-1, -63.0 / 127, 0, 38.0 / 127, 102.0 / 127, 70.0 / 127, 64.0 / 127});
}

TEST_F(QuantizeAndDequantizeTest, Convert_1D_tensor_with_int8_V3) {
  TF_ASSERT_OK(InitV3(true, false));
  AddInputFromArray<float>(TensorShape({6}), {-1, -0.5, 0, 0.3, 0.8, 0.555});
  AddRange(0, 0);
  AddInputFromArray<int32_t>(TensorShape({}), {8});
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput({6}, {-1, -0.5, 0, 38.0 / 128, 102.0 / 128, 71.0 / 128});
  ExpectRangeUnchanged();
}

// Narrow range, half to even: {-127, -64, 0, 38, 102, 70, 64}.
TEST_P(ParameterizedQuantizeAndDequantizeTest, Convert_4D_tensor_with_int8_narrow_range_V3) {
  TF_ASSERT_OK(InitV3(true, false, true, GetParam()));
  AddSlicedInput({2, 3, 4, 5}, kSeven);
  AddInputFromArray<int32_t>(TensorShape({}), {8});
  TF_ASSERT_OK(RunOpKernel());
  ExpectSliced({2, 3, 4, 5}, {-1, -64.0 / 127, 0, 38.0 / 127, 102.0 / 127, 70.0 / 127, 64.0 / 127});
}

// V4Grad passes each gradient whose input lies in its slice's [min, max].
TEST_P(ParameterizedQuantizeAndDequantizeTest, GradientV4_op) {
  const int axis = GetParam();
  TF_ASSERT_OK(NodeDefBuilder("qdq_v4_grad_op", "QuantizeAndDequantizeV4Grad")
                   .Input(FakeInput(DT_FLOAT))
                   .Input(FakeInput(DT_FLOAT))
                   .Input(FakeInput(DT_FLOAT))
                   .Input(FakeInput(DT_FLOAT))
                   .Attr("axis", axis)
                   .Finalize(node_def()));
  TF_ASSERT_OK(InitOp());
  const std::vector<int64_t> dims = {2, 3, 4, 5};
  const auto gradients =
      ScalePerSliceAlongAxis(dims, axis, {1, -2, -3, 4, 5, 6, -7, -8, -9, -10, 11});
  const auto inputs = ScalePerSliceAlongAxis(dims, axis, {-1, -0.5, 0, 0.3, 0.8, 0.55, 0.6});
  AddInputFromArray<float>(TensorShape(dims), gradients);
  AddInputFromArray<float>(TensorShape(dims), inputs);
  const int slices = axis == -1 ? 1 : static_cast<int>(dims[static_cast<size_t>(axis)]);
  const TensorShape range = axis == -1 ? TensorShape({}) : TensorShape({slices});
  std::vector<float> mins(slices), maxs(slices);
  for (int i = 0; i < slices; ++i) {
    maxs[i] = 0.8f + i * 0.4f;
    mins[i] = -maxs[i];
  }
  AddInputFromArray<float>(range, mins);
  AddInputFromArray<float>(range, maxs);
  int minor = 1;
  for (size_t d = static_cast<size_t>(axis + 1); d < dims.size(); ++d) minor *= dims[d];
  std::vector<float> want(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int s = (static_cast<int>(i) / minor) % slices;
    want[i] = inputs[i] >= mins[s] && inputs[i] <= maxs[s] ? gradients[i] : 0;
  }
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput(TensorShape(dims), want);
}

INSTANTIATE_TEST_SUITE_P(All, ParameterizedQuantizeAndDequantizeTest, ::testing::Values(-1, 1, 3));

// int4: {-8, -4, 0, 2, 6, 4}, scale 1/8 (0.3125 * 8 = 2.5 goes to the even 2).
TEST_F(QuantizeAndDequantizeTest, Convert_1D_tensor_with_int4) {
  InitV2(true, 4, false);
  AddInputFromArray<float>(TensorShape({6}), {-1, -0.5, 0, 0.3125, 0.8, 0.555});
  AddRange(0, 0);
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput({6}, {-1, -0.5, 0, 0.25, 0.75, 0.5});
  ExpectRangeUnchanged();
}

// Half up: 2.5 goes to 3.
TEST_F(QuantizeAndDequantizeTest, Convert_1D_tensor_with_int4_round_half_up) {
  InitV2(true, 4, false, "HALF_UP");
  AddInputFromArray<float>(TensorShape({6}), {-1, -0.5, 0, 0.3125, 0.8, 0.555});
  AddRange(0, 0);
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput({6}, {-1, -0.5, 0, 0.375, 0.75, 0.5});
  ExpectRangeUnchanged();
}

TEST_F(QuantizeAndDequantizeTest, Convert_1D_tensor_with_int4_V3) {
  TF_ASSERT_OK(InitV3(true, false));
  AddInputFromArray<float>(TensorShape({6}), {-1, -0.5, 0, 0.3, 0.8, 0.555});
  AddRange(0, 0);
  AddInputFromArray<int32_t>(TensorShape({}), {4});
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput({6}, {-1, -0.5, 0, 0.25, 0.75, 0.5});
  ExpectRangeUnchanged();
}

// Range [-1, 1]: {-102, -64, 0, 38, 102, 70, -128, 127}, scale 1/127; the last two saturate.
const std::vector<float> kTwoD = {-0.8, -0.5, 0, 0.3, 0.8, 0.555, -2, 33};

TEST_F(QuantizeAndDequantizeTest, Convert_2D_tensor_with_int8_range_given) {
  InitV2(true, 8, true);
  AddInputFromArray<float>(TensorShape({2, 4}), kTwoD);
  AddRange(-1, 1);
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput(
      {2, 4}, {-102.0 / 127, -64.0 / 127, 0, 38.0 / 127, 102.0 / 127, 70.0 / 127, -128.0 / 127, 1});
}

TEST_F(QuantizeAndDequantizeTest, Convert_2D_tensor_with_int8_range_given_round_half_up) {
  InitV2(true, 8, true, "HALF_UP");
  AddInputFromArray<float>(TensorShape({2, 4}), kTwoD);
  AddRange(-1, 1);
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput(
      {2, 4}, {-102.0 / 127, -63.0 / 127, 0, 38.0 / 127, 102.0 / 127, 70.0 / 127, -128.0 / 127, 1});
}

TEST_F(QuantizeAndDequantizeTest, Convert_2D_tensor_with_int8_range_given_V3) {
  TF_ASSERT_OK(InitV3(true, true));
  AddInputFromArray<float>(TensorShape({2, 4}), kTwoD);
  AddRange(-1, 1);
  AddInputFromArray<int32_t>(TensorShape({}), {8});
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput(
      {2, 4}, {-102.0 / 127, -64.0 / 127, 0, 38.0 / 127, 102.0 / 127, 70.0 / 127, -128.0 / 127, 1});
}

// Unsigned, range [0, 1]: {0, 0, 76, 204}, scale 1/255 (76.5 goes to the even 76).
TEST_F(QuantizeAndDequantizeTest, Convert_4D_tensor_with_uint8_range_given) {
  InitV2(false, 8, true);
  AddInputFromArray<float>(TensorShape({2, 2, 1, 1}), {-0.5, 0, 0.3, 0.8});
  AddRange(0, 1);
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput({2, 2, 1, 1}, {0, 0, 76.0 / 255, 204.0 / 255});
}

TEST_F(QuantizeAndDequantizeTest, Convert_4D_tensor_with_uint8_range_given_round_half_up) {
  InitV2(false, 8, true, "HALF_UP");
  AddInputFromArray<float>(TensorShape({2, 2, 1, 1}), {-0.5, 0, 0.3, 0.8});
  AddRange(0, 1);
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput({2, 2, 1, 1}, {0, 0, 77.0 / 255, 204.0 / 255});
}

TEST_F(QuantizeAndDequantizeTest, Convert_4D_tensor_with_uint8_range_given_V3) {
  TF_ASSERT_OK(InitV3(false, true));
  AddInputFromArray<float>(TensorShape({2, 2, 1, 1}), {-0.5, 0, 0.3, 0.8});
  AddRange(0, 1);
  AddInputFromArray<int32_t>(TensorShape({}), {8});
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput({2, 2, 1, 1}, {0, 0, 76.0 / 255, 204.0 / 255});
}

TEST_F(QuantizeAndDequantizeTest, Convert_tensor_with_all_0) {
  InitV2(false, 8, false);
  AddInputFromArray<float>(TensorShape({2, 2, 1, 1}), {0, 0, 0, 0});
  AddRange(0, 0);
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput({2, 2, 1, 1}, {0, 0, 0, 0});
}

TEST_F(QuantizeAndDequantizeTest, Convert_tensor_with_all_0_V3) {
  TF_ASSERT_OK(InitV3(false, false));
  AddInputFromArray<float>(TensorShape({2, 2, 1, 1}), {0, 0, 0, 0});
  AddRange(0, 0);
  AddInputFromArray<int32_t>(TensorShape({}), {8});
  TF_ASSERT_OK(RunOpKernel());
  ExpectOutput({2, 2, 1, 1}, {0, 0, 0, 0});
}

TEST_F(QuantizeAndDequantizeTest, Invalid_range_given) {
  TF_ASSERT_OK(NodeDefBuilder("quantize_and_dequantize_Op", "QuantizeAndDequantizeV2")
                   .Input(FakeInput(DT_FLOAT))
                   .Input(FakeInput(DT_FLOAT))
                   .Input(FakeInput(DT_FLOAT))
                   .Attr("num_bits", 8)
                   .Attr("range_given", true)
                   .Finalize(node_def()));
  TF_ASSERT_OK(InitOp());
  AddInputFromArray<float>(TensorShape({2, 2, 1, 1}), {-0.5, 0, 0.3, 0.8});
  AddRange(1, 0);
  const absl::Status s = RunOpKernel();
  EXPECT_NE(s.ToString().find("Invalid range: input_min 1 > input_max 0"), std::string::npos) << s;
}

TEST_F(QuantizeAndDequantizeTest, Invalid_range_given_V3) {
  TF_ASSERT_OK(NodeDefBuilder("quantize_and_dequantize_Op", "QuantizeAndDequantizeV3")
                   .Input(FakeInput(DT_FLOAT))
                   .Input(FakeInput(DT_FLOAT))
                   .Input(FakeInput(DT_FLOAT))
                   .Input(FakeInput(DT_INT32))
                   .Attr("range_given", true)
                   .Finalize(node_def()));
  TF_ASSERT_OK(InitOp());
  AddInputFromArray<float>(TensorShape({2, 2, 1, 1}), {-0.5, 0, 0.3, 0.8});
  AddRange(1, 0);
  AddInputFromArray<int32_t>(TensorShape({}), {8});
  const absl::Status s = RunOpKernel();
  EXPECT_NE(s.ToString().find("Invalid range: input_min 1 > input_max 0"), std::string::npos) << s;
}

// rill: refused when the node is built (see the top of the file), InvalidArgument as
// TensorFlow's kernel refuses it.
TEST_F(QuantizeAndDequantizeTest, Invalid_axis_given_V3) {
  const absl::Status s = InitV3(true, false, false, static_cast<int32_t>(-2147483648LL));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("axis should be at least -1, got -2147483648"), std::string::npos)
      << s;
}

}  // namespace quantize_and_dequantize_op_test
}  // namespace
}  // namespace rill
