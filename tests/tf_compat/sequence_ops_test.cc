// The cases of TensorFlow's tensorflow/core/kernels/sequence_ops_test.cc, which drive
// Range and LinSpace through OpsTestBase (runtime/testing/ops_testutil.h), rewritten
// against rill (their inputs and expected values are TensorFlow's; the code is ours).
// Left out: the half and bfloat16 cases (rill has neither dtype).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace sequence_ops_test {

class RangeOpTest : public OpsTestBase {
 protected:
  template <typename T>
  void Run(T start, T limit, T delta) {
    const DataType dt = DataTypeToEnum<T>::value;
    TF_ASSERT_OK(NodeDefBuilder("myop", "Range")
                     .Input(FakeInput(dt))
                     .Input(FakeInput(dt))
                     .Input(FakeInput(dt))
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
    for (T v : {start, limit, delta}) AddInputFromArray<T>(TensorShape({}), {v});
  }
};

class LinSpaceOpTest : public OpsTestBase {
 protected:
  template <typename T, typename Index>
  void Run(T start, T stop, Index num) {
    TF_ASSERT_OK(NodeDefBuilder("myop", "LinSpace")
                     .Input(FakeInput(DataTypeToEnum<T>::value))
                     .Input(FakeInput(DataTypeToEnum<T>::value))
                     .Input(FakeInput(DataTypeToEnum<Index>::value))
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
    AddInputFromArray<T>(TensorShape({}), {start});
    AddInputFromArray<T>(TensorShape({}), {stop});
    AddInputFromArray<Index>(TensorShape({}), {num});
    TF_ASSERT_OK(RunOpKernel());
  }
};

TEST_F(RangeOpTest, Simple_D32) {
  Run<int32_t>(0, 10, 2);
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>({0, 2, 4, 6, 8}));
}

// rill: element i is start + i * delta (as TensorFlow's GPU kernel computes it), where
// TensorFlow's CPU kernel adds delta i times; the two can differ in the last bit, and here
// do at i = 3 (1.4000001 against 1.4). rill's does not accumulate rounding over a long
// range, and is the same on every device.
TEST_F(RangeOpTest, Simple_Float) {
  Run<float>(0.5, 2, 0.3);
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorNear<float>(*GetOutput(0), test::AsTensor<float>({0.5, 0.8, 1.1, 1.4, 1.7}),
                                2e-7);
  std::vector<float> formula;
  for (int i = 0; i < 5; ++i) formula.push_back(0.5f + static_cast<float>(i) * 0.3f);
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>(formula));
}

TEST_F(RangeOpTest, Large_Double) {
  Run<double>(0.0, 10000, 0.5);
  TF_ASSERT_OK(RunOpKernel());
  std::vector<double> result;
  for (int32_t i = 0; i < 20000; ++i) result.push_back(i * 0.5);
  test::ExpectTensorEqual<double>(*GetOutput(0), test::AsTensor<double>(result));
}

// rill: TensorFlow's test holds the whole message to its words; rill's starts with the
// node, op and device, then says them (and the values).
TEST_F(RangeOpTest, Range_Size_Overflow) {
  Run<int64_t>(static_cast<int64_t>(5e18), static_cast<int64_t>(-5e18), -1);
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), absl::StrCat("Requires ((limit - start) / delta) <= ",
                                                          std::numeric_limits<int64_t>::max())))
      << s;
}

TEST_F(LinSpaceOpTest, Simple_D32) {
  Run<float, int32_t>(3.0, 7.0, 3);
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({3.0, 5.0, 7.0}));
}

// The last value is stop itself, not (1 / 41) * 41 (0.99999994 in float32).
TEST_F(LinSpaceOpTest, Exact_Endpoints) {
  Run<float, int32_t>(0.0, 1.0, 42);
  const Tensor& out = *GetOutput(0);
  EXPECT_EQ(out.flat<float>()(0), 0.0f);
  EXPECT_EQ(out.flat<float>()(out.NumElements() - 1), 1.0f);
}

TEST_F(LinSpaceOpTest, Single_D64) {
  Run<float, int64_t>(9.0, 100.0, 1);
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({9.0}));
}

TEST_F(LinSpaceOpTest, Simple_Double) {
  Run<double, int32_t>(5.0, 6.0, 6);
  test::ExpectTensorEqual<double>(*GetOutput(0),
                                  test::AsTensor<double>({5.0, 5.2, 5.4, 5.6, 5.8, 6.0}));
}

}  // namespace sequence_ops_test
}  // namespace
}  // namespace rill
