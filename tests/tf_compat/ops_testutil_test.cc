// OpsTestBase and NodeDefBuilder (runtime/testing/ops_testutil.h), as TensorFlow's kernel
// tests use them: built-in ops with inputs fed, lists and variables, a user's own op and
// kernel, and every error a test can meet, from Finalize, InitOp or RunOpKernel.
#include "rill/runtime/testing/ops_testutil.h"

#include <string>
#include <vector>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"
#include "rill/core/shape_inference.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace ops_testutil_test {

// A user's op, as TensorFlow's guide to adding an op has it: every element but the first
// set to zero.
RILL_REGISTER_OP("OpsTestZeroOut")
    .Input("to_zero", DT_INT32)
    .Output("zeroed", DT_INT32)
    .SetShapeFn(shape_fns::Unchanged);

class ZeroOutKernel : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& in = ctx.input(0);
    Tensor* out = nullptr;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, in.shape(), &out));
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      out->flat<int32_t>()(i) = i == 0 ? in.flat<int32_t>()(0) : 0;
    }
    return absl::OkStatus();
  }
};
RILL_REGISTER_KERNEL("OpsTestZeroOut", DEVICE_CPU, "", DT_INVALID, ZeroOutKernel);

// The message of the one non-fatal failure `fn` reports (gtest-spi's macro would not
// take a call of the fixture's members).
template <typename Fn>
std::string FailureOf(Fn fn) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    fn();
  }
  if (results.size() != 1 || !results.GetTestPartResult(0).nonfatally_failed()) {
    return "(not one non-fatal failure)";
  }
  return results.GetTestPartResult(0).message();
}

bool HaveGpu() {
  for (const auto& d : DeviceSet::Local().devices()) {
    if (d->device_type() == DEVICE_GPU) return true;
  }
  return false;
}

class OpsTestBaseTest : public OpsTestBase {
 protected:
  void MakeMatMul(DataType dt, bool transpose_a) {
    TF_ASSERT_OK(NodeDefBuilder("mm", "MatMul")
                     .Input(FakeInput(dt))
                     .Input(FakeInput(dt))
                     .Attr("transpose_a", transpose_a)
                     .Finalize(node_def()));
  }
};

TEST_F(OpsTestBaseTest, MatMulOnInputsAdded) {
  MakeMatMul(DT_FLOAT, false);
  TF_ASSERT_OK(InitOp());
  AddInputFromArray<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  AddInput<float>(TensorShape({3, 2}), [](int i) { return static_cast<float>(7 + i); });
  TF_ASSERT_OK(RunOpKernel());
  Tensor expected(allocator(), DT_FLOAT, TensorShape({2, 2}));
  test::FillValues<float>(&expected, {58, 64, 139, 154});
  test::ExpectTensorEqual<float>(expected, *GetOutput(0));
  EXPECT_EQ(output_types(), std::vector<DataType>{DT_FLOAT});
}

// A ref dtype for an input that takes a value (TensorFlow's isotonic_regression_op_test
// gives one): the input comes from a variable holding the value added, which the op reads.
TEST_F(OpsTestBaseTest, ARefDtypeForAValueInputReadsAVariable) {
  MakeMatMul(DT_FLOAT_REF, false);
  TF_ASSERT_OK(InitOp());
  AddInputFromArray<float>(TensorShape({1, 2}), {1, 2});
  AddInputFromArray<float>(TensorShape({2, 1}), {3, 4});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({11}, {1, 1}));
  test::ExpectTensorEqual<float>(GetInput(0), test::AsTensor<float>({1, 2}, {1, 2}));
}

TEST_F(OpsTestBaseTest, AttributesReachTheKernel) {
  MakeMatMul(DT_DOUBLE, true);
  TF_ASSERT_OK(InitOp());
  AddInputFromArray<double>(TensorShape({2, 2}), {1, 2, 3, 4});  // a' = [[1, 3], [2, 4]]
  AddInputFromArray<double>(TensorShape({2, 1}), {1, 10});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<double>(*GetOutput(0), test::AsTensor<double>({31, 42}, {2, 1}));
}

TEST_F(OpsTestBaseTest, ListInputsFromACountOrTheNumberAttribute) {
  TF_ASSERT_OK(NodeDefBuilder("concat", "ConcatV2")
                   .Input(FakeInput(2, DT_FLOAT))
                   .Input(FakeInput(DT_INT32))
                   .Finalize(node_def()));
  EXPECT_EQ(node_def()->input_types(), (std::vector<DataType>{DT_FLOAT, DT_FLOAT, DT_INT32}));
  TF_ASSERT_OK(InitOp());
  AddInputFromArray<float>(TensorShape({1, 2}), {1, 2});
  AddInputFromArray<float>(TensorShape({1, 2}), {3, 4});
  AddInputFromArray<int32_t>(TensorShape({}), {1});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({1, 2, 3, 4}, {1, 4}));

  // FakeInput() takes the list's length from N and its dtype from T.
  TF_ASSERT_OK(NodeDefBuilder("concat3", "ConcatV2")
                   .Input(FakeInput())
                   .Input(FakeInput(DT_INT32))
                   .Attr("N", 3)
                   .Attr("T", DT_INT64)
                   .Finalize(node_def()));
  EXPECT_EQ(node_def()->input_types(),
            (std::vector<DataType>{DT_INT64, DT_INT64, DT_INT64, DT_INT32}));
  TF_ASSERT_OK(InitOp());
  inputs_.clear();
  for (int64_t v : {5, 6, 7}) AddInputFromArray<int64_t>(TensorShape({1}), {v});
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int64_t>(*GetOutput(0), test::AsTensor<int64_t>({5, 6, 7}));
}

// List outputs (Unpack's, as many as its num attribute), and an op with no output at all.
TEST_F(OpsTestBaseTest, ListOutputsAndNoOutputs) {
  TF_ASSERT_OK(NodeDefBuilder("unpack", "Unpack")
                   .Input(FakeInput(DT_INT32))
                   .Attr("num", 3)
                   .Finalize(node_def()));
  TF_ASSERT_OK(InitOp());
  EXPECT_EQ(output_types(), (std::vector<DataType>{DT_INT32, DT_INT32, DT_INT32}));
  AddInputFromArray<int32_t>(TensorShape({3, 2}), {1, 2, 3, 4, 5, 6});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int32_t>(*GetOutput(2), test::AsTensor<int32_t>({5, 6}));

  TF_ASSERT_OK(NodeDefBuilder("nothing", "NoOp").Finalize(node_def()));
  TF_ASSERT_OK(InitOp());
  inputs_.clear();
  TF_ASSERT_OK(RunOpKernel());
  EXPECT_TRUE(output_types().empty());
}

// A ref input is a variable: the kernel updates it, and the next run starts from there.
TEST_F(OpsTestBaseTest, RefInputsKeepWhatTheKernelWrote) {
  TF_ASSERT_OK(NodeDefBuilder("sgd", "ApplyGradientDescent")
                   .Input(FakeInput(DT_FLOAT_REF))
                   .Input(FakeInput(DT_FLOAT))
                   .Input(FakeInput(DT_FLOAT))
                   .Finalize(node_def()));
  EXPECT_EQ(node_def()->input_is_ref(), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(node_def()->input_types(), (std::vector<DataType>{DT_FLOAT, DT_FLOAT, DT_FLOAT}));
  TF_ASSERT_OK(InitOp());
  AddInputFromArray<float>(TensorShape({3}), {1, 2, 3});
  AddInputFromArray<float>(TensorShape({}), {0.5f});
  AddInputFromArray<float>(TensorShape({3}), {2, 2, 4});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({0, 1, 1}));
  test::ExpectTensorEqual<float>(GetInput(0), test::AsTensor<float>({0, 1, 1}));
  EXPECT_TRUE(mutable_input(0).is_ref);
  EXPECT_FALSE(mutable_input(1).is_ref);
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(GetInput(0), test::AsTensor<float>({-1, 0, -1}));
}

TEST_F(OpsTestBaseTest, AUsersOwnOpAndKernel) {
  TF_ASSERT_OK(NodeDefBuilder("zero", "OpsTestZeroOut").Input(FakeInput()).Finalize(node_def()));
  TF_ASSERT_OK(InitOp());
  AddInputFromList<int32_t, int>(TensorShape({2, 2}), {5, 6, 7, 8});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<int32_t>(*GetOutput(0), test::AsTensor<int32_t>({5, 0, 0, 0}, {2, 2}));
}

// As TensorFlow's, Finalize writes every attribute: set, implied by the inputs, defaulted.
TEST_F(OpsTestBaseTest, FinalizeFillsInTheAttributes) {
  TF_ASSERT_OK(NodeDefBuilder("concat", "ConcatV2")
                   .Input(FakeInput(3, DT_DOUBLE))
                   .Input(FakeInput(DT_INT64))
                   .Finalize(node_def()));
  int64_t n = 0;
  DataType t = DT_INVALID, tidx = DT_INVALID;
  TF_EXPECT_OK(GetNodeAttr(*node_def(), "N", &n));
  TF_EXPECT_OK(GetNodeAttr(*node_def(), "T", &t));
  TF_EXPECT_OK(GetNodeAttr(*node_def(), "Tidx", &tidx));
  EXPECT_EQ(n, 3);
  EXPECT_EQ(t, DT_DOUBLE);
  EXPECT_EQ(tidx, DT_INT64);
  // Any integer type gives an int attr.
  TF_ASSERT_OK(NodeDefBuilder("unpack", "Unpack")
                   .Input(FakeInput(DT_FLOAT))
                   .Attr("num", size_t{4})
                   .Attr("axis", -1LL)
                   .Finalize(node_def()));
  int64_t num = 0, axis = 0;
  TF_EXPECT_OK(GetNodeAttr(*node_def(), "num", &num));
  TF_EXPECT_OK(GetNodeAttr(*node_def(), "axis", &axis));
  EXPECT_EQ(num, 4);
  EXPECT_EQ(axis, -1);
  MakeMatMul(DT_FLOAT, true);
  bool ta = false, tb = true;
  TF_EXPECT_OK(GetNodeAttr(*node_def(), "transpose_a", &ta));
  TF_EXPECT_OK(GetNodeAttr(*node_def(), "transpose_b", &tb));  // the default
  EXPECT_TRUE(ta);
  EXPECT_FALSE(tb);
}

TEST_F(OpsTestBaseTest, FinalizeNamesWhatIsWrong) {
  NodeDef def;
  absl::Status s = NodeDefBuilder("n", "NoSuchOp").Finalize(&def);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  s = NodeDefBuilder("n", "MatMul").Input(FakeInput(DT_FLOAT)).Finalize(&def);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("takes 2 input arguments (a, b); 1 given"), std::string::npos) << s;
  s = NodeDefBuilder("n", "MatMul")
          .Input(FakeInput(DT_FLOAT))
          .Input(FakeInput(DT_FLOAT))
          .Attr("transpose_c", true)
          .Finalize(&def);
  EXPECT_NE(s.message().find("no attribute 'transpose_c'"), std::string::npos) << s;
  s = NodeDefBuilder("n", "ConcatV2").Input(FakeInput(DT_FLOAT)).Input(FakeInput()).Finalize(&def);
  EXPECT_NE(s.message().find("input 'values' is a list"), std::string::npos) << s;
  s = NodeDefBuilder("n", "ZerosLike").Input(FakeInput()).Finalize(&def);
  EXPECT_NE(s.message().find("no dtype for input 'x'"), std::string::npos) << s;
  EXPECT_TRUE(def.name().empty());  // nothing written on failure
}

TEST_F(OpsTestBaseTest, InitOpRefusesWhatTheGraphWould) {
  MakeMatMul(DT_BOOL, false);  // MatMul has no bool kernel or type
  absl::Status s = InitOp();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("MatMul"), std::string::npos) << s;
  EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(OpsTestBaseTest, RunOpKernelReturnsTheKernelsError) {
  MakeMatMul(DT_FLOAT, false);
  TF_ASSERT_OK(InitOp());
  AddInputFromArray<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  AddInputFromArray<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("[2,3]"), std::string::npos) << s;
  EXPECT_NE(s.message().find("'mm'"), std::string::npos) << s;
}

TEST_F(OpsTestBaseTest, InputsThatDoNotMatchTheNodeDef) {
  MakeMatMul(DT_FLOAT, false);
  TF_ASSERT_OK(InitOp());
  AddInputFromArray<float>(TensorShape({1, 1}), {1});
  absl::Status s = RunOpKernel();
  EXPECT_NE(s.message().find("takes 2 inputs; 1 added"), std::string::npos) << s;
  AddInputFromArray<double>(TensorShape({1, 1}), {1});
  s = RunOpKernel();
  EXPECT_NE(s.message().find("input 1 was added as double; its FakeInput is float"),
            std::string::npos)
      << s;
  inputs_.clear();
  EXPECT_NE(FailureOf([&] {
              AddInputFromArray<float>(TensorShape({2}), {1});
            }).find("1 values for shape [2]"),
            std::string::npos);
  EXPECT_TRUE(inputs_.empty());
  EXPECT_NE(FailureOf([&] { GetOutput(0); }).find("the last run made 0 outputs"),
            std::string::npos);
}

// On a GPU the node runs there with no fallback; without one, InitOp says so.
TEST_F(OpsTestBaseTest, SetDeviceGpu) {
  SetDevice(DEVICE_GPU);
  MakeMatMul(DT_FLOAT, false);
  absl::Status s = InitOp();
  if (!HaveGpu()) {
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.ToString().find("GPU"), std::string::npos) << s;
    return;
  }
  TF_ASSERT_OK(s);
  AddInputFromArray<float>(TensorShape({1, 2}), {1, 2});
  AddInputFromArray<float>(TensorShape({2, 1}), {3, 4});
  TF_ASSERT_OK(RunOpKernel());
  test::ExpectTensorEqual<float>(*GetOutput(0), test::AsTensor<float>({11}, {1, 1}));
}

}  // namespace ops_testutil_test
}  // namespace
}  // namespace rill
