// The cases of TensorFlow's tensorflow/core/kernels/roll_op_test.cc, which drive the op
// through OpsTestBase (runtime/testing/ops_testutil.h), rewritten against rill (their
// inputs and expected values are TensorFlow's; the code is ours). Left out: the string
// and complex64 cases (rill has no such kernels) and the benchmarks. Where an error's
// wording is rill's own, the case says `rill:` and checks rill's message.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace roll_op_test {

class RollOpTest : public OpsTestBase {
 protected:
  void MakeOp(DataType data_type, DataType index_type) {
    TF_ASSERT_OK(NodeDefBuilder("myop", "Roll")
                     .Input(FakeInput(data_type))
                     .Input(FakeInput(index_type))
                     .Input(FakeInput(index_type))
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
  // Rolls `input` of `shape` by `shift` along `axis` (both of `index_shape`).
  template <typename Index>
  void ExpectRoll(const TensorShape& shape, std::vector<float> input,
                  const TensorShape& index_shape, std::vector<Index> shift, std::vector<Index> axis,
                  std::vector<float> want) {
    MakeOp(DT_FLOAT, DataTypeToEnum<Index>::value);
    AddInputFromArray<float>(shape, input);
    AddInputFromArray<Index>(index_shape, shift);
    AddInputFromArray<Index>(index_shape, axis);
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>(want, shape));
  }
  void ExpectRollError(const TensorShape& shape, const TensorShape& shift_shape,
                       const TensorShape& axis_shape, const std::string& message) {
    MakeOp(DT_FLOAT, DT_INT32);
    AddInput<float>(shape, [](int i) { return static_cast<float>(i + 1); });
    AddInput<int32_t>(shift_shape, [](int i) { return i; });
    AddInput<int32_t>(axis_shape, [](int i) { return i; });
    absl::Status s = RunOpKernel();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_TRUE(absl::StrContains(s.ToString(), message)) << s;
  }
};

std::vector<float> Iota(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return v;
}

TEST_F(RollOpTest, ScalarIndices) {
  ExpectRoll<int32_t>(TensorShape({5}), Iota(5), TensorShape({}), {3}, {0}, {2, 3, 4, 0, 1});
}

TEST_F(RollOpTest, Simple_TwoD32) {
  ExpectRoll<int32_t>(TensorShape({3, 5}), Iota(15), TensorShape({2}), {2, -1}, {0, 1},
                      {6, 7, 8, 9, 5, 11, 12, 13, 14, 10, 1, 2, 3, 4, 0});
}

TEST_F(RollOpTest, Simple_ThreeD32) {
  ExpectRoll<int32_t>(TensorShape({2, 2, 3}), Iota(12), TensorShape({3}), {1, -1, -1}, {0, 1, 2},
                      {10, 11, 9, 7, 8, 6, 4, 5, 3, 1, 2, 0});
}

TEST_F(RollOpTest, Simple_TwoD64) {
  ExpectRoll<int64_t>(TensorShape({5, 3}), Iota(15), TensorShape({2}), {-1, 4}, {0, 1},
                      {5, 3, 4, 8, 6, 7, 11, 9, 10, 14, 12, 13, 2, 0, 1});
}

TEST_F(RollOpTest, Simple_ThreeD64) {
  ExpectRoll<int64_t>(TensorShape({4, 1, 3}), Iota(12), TensorShape({3}), {4, 3, 2}, {0, 1, 2},
                      {1, 2, 0, 4, 5, 3, 7, 8, 6, 10, 11, 9});
}

TEST_F(RollOpTest, ZeroShift_ThreeD32) {
  ExpectRoll<int32_t>(TensorShape({2, 2, 3}), Iota(12), TensorShape({3}), {0, 0, 0}, {0, 1, 2},
                      Iota(12));
}

TEST_F(RollOpTest, ZeroSize_ThreeD32) {
  ExpectRoll<int32_t>(TensorShape({5, 0, 0}), {}, TensorShape({}), {1}, {0}, {});
}

TEST_F(RollOpTest, OneSize_ThreeD32) {
  ExpectRoll<int32_t>(TensorShape({1, 1, 1}), {5}, TensorShape({}), {1}, {0}, {5});
}

TEST_F(RollOpTest, MultiShifts_TwoD32) {
  ExpectRoll<int32_t>(TensorShape({3, 5}), Iota(15), TensorShape({4}), {-2, 2, -1, 1}, {1, 0, 0, 1},
                      {11, 12, 13, 14, 10, 1, 2, 3, 4, 0, 6, 7, 8, 9, 5});
}

// rill: TensorFlow's message is "input must be 1-D or higher"; a scalar has no axis 0.
TEST_F(RollOpTest, Error_InputMustBeVectorOrHigher) {
  ExpectRollError(TensorShape({}), TensorShape({}), TensorShape({}),
                  "axis 0 is out of range for a tensor of rank 0");
}

// rill: TensorFlow's messages are "axis must be a scalar or a 1-D vector", "shift must
// be ...", "shift and axis must have the same size"; rill's says both at once.
TEST_F(RollOpTest, Error_AxisMustBeScalarOrVector) {
  ExpectRollError(TensorShape({2, 2}), TensorShape({}), TensorShape({1, 2}),
                  "shift and axis must be scalars or vectors of one length, got [] and [1,2]");
}

TEST_F(RollOpTest, Error_ShiftMustBeScalarOrVector) {
  ExpectRollError(TensorShape({2, 2}), TensorShape({1, 2}), TensorShape({}),
                  "shift and axis must be scalars or vectors of one length, got [1,2] and []");
}

TEST_F(RollOpTest, Error_ShiftAndAxisMustBeSameSize) {
  ExpectRollError(TensorShape({2, 2}), TensorShape({1}), TensorShape({2}),
                  "shift and axis must be scalars or vectors of one length, got [1] and [2]");
}

TEST_F(RollOpTest, Error_AxisOutOfRange) {
  MakeOp(DT_FLOAT, DT_INT32);
  AddInputFromArray<float>(TensorShape({4}), {1, 2, 3, 4});
  AddInputFromArray<int32_t>(TensorShape({}), {1});
  AddInputFromArray<int32_t>(TensorShape({}), {1});
  EXPECT_TRUE(absl::StrContains(RunOpKernel().ToString(), "is out of range"));
}

}  // namespace roll_op_test
}  // namespace
}  // namespace rill
