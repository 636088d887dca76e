// The cases of TensorFlow's tensorflow/core/kernels/reverse_op_test.cc, which drive the
// first Reverse op (its dims a bool per dim of the tensor) through OpsTestBase
// (runtime/testing/ops_testutil.h), rewritten against rill (their inputs and expected
// values are TensorFlow's; the code is ours). Left out: the benchmarks.
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace reverse_op_test {

class ReverseOpTest : public OpsTestBase {
 protected:
  void MakeOp(DataType data_type) {
    TF_ASSERT_OK(NodeDefBuilder("myop", "Reverse")
                     .Input(FakeInput(data_type))
                     .Input(FakeInput())
                     .Attr("T", data_type)
                     .Finalize(node_def()));
    TF_ASSERT_OK(InitOp());
  }
};

// [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]],
//  [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]] reversed along its first and last
// dims (and a leading dim of 1 whichever way).
std::vector<float> Iota24() {
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[i] = static_cast<float>(i);
  return v;
}
const std::vector<float> kReversed = {15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20,
                                      3,  2,  1,  0,  7,  6,  5,  4,  11, 10, 9,  8};

TEST_F(ReverseOpTest, Reverse_0) {
  MakeOp(DT_FLOAT);
  AddInputFromArray<float>(TensorShape({}), {3});
  AddInputFromArray<bool>(TensorShape({}), {true});
  // rill: TensorFlow's kernel takes a scalar dims for a scalar (a Reverse of nothing);
  // its shape function, like rill's, wants a vector, one flag per dim.
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  inputs_.clear();
  AddInputFromArray<float>(TensorShape({}), {3});
  AddInputFromArray<bool>(TensorShape({0}), {});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsScalar<float>(3.f));
}

TEST_F(ReverseOpTest, Reverse_234) {
  MakeOp(DT_FLOAT);
  AddInputFromArray<float>(TensorShape({2, 3, 4}), Iota24());
  AddInputFromArray<bool>(TensorShape({3}), {true, false, true});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>(kReversed, {2, 3, 4}));
}

TEST_F(ReverseOpTest, Reverse_1234) {
  MakeOp(DT_FLOAT);
  AddInputFromArray<float>(TensorShape({1, 2, 3, 4}), Iota24());
  AddInputFromArray<bool>(TensorShape({4}), {true, true, false, true});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>(kReversed, {1, 2, 3, 4}));
}

}  // namespace reverse_op_test
}  // namespace
}  // namespace rill
