// PartitionedCall and StatefulPartitionedCall: f(args...) against f's body written inline,
// several dtypes and outputs, random ops drawing anew in the stateful call, calls nested in
// calls and in If; refusals; gradients against central differences and through nesting.
#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace function_call_test {

MarkTested tested({"PartitionedCall", "StatefulPartitionedCall"});
const bool kGradChecked = [] {
  GradTestedOps().insert({"PartitionedCall", "StatefulPartitionedCall"});
  return true;
}();

// (x * y + sin(x), count of x's elements as int32): a float output using both args and an
// integer one.
FunctionRef Body(DataType dt) {
  return *ops::MakeFunction(
      "body", {dt, dt}, {PartialTensorShape(), PartialTensorShape()},
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        *r = {ops::Add(s, ops::Mul(s, a[0], a[1]), ops::Sin(s, a[0])), ops::Size(s, a[0])};
        return s.status();
      });
}

TEST(FunctionCall, ComputesWhatTheBodyComputesInline) {
  for (const char* op : {"PartitionedCall", "StatefulPartitionedCall"}) {
    SCOPED_TRACE(op);
    Scope s = Scope::NewRootScope();
    const Tensor xv = RandomTensor(DT_DOUBLE, {2, 3}, -1, 1, 1);
    const Tensor yv = RandomTensor(DT_DOUBLE, {2, 3}, -1, 1, 2);
    auto x = ops::Const(s, xv), y = ops::Const(s, yv);
    const FunctionRef f = Body(DT_DOUBLE);
    const std::vector<DataType> tout = {DT_DOUBLE, DT_INT32};
    const OutputList out = std::string(op) == "PartitionedCall"
                               ? ops::PartitionedCall(s, {x, y}, tout, f).output
                               : ops::StatefulPartitionedCall(s, {x, y}, tout, f).output;
    auto inline_value = ops::Add(s, ops::Mul(s, x, y), ops::Sin(s, x));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].node()->output_shape(0), PartialTensorShape());
    ClientSession session(s);
    std::vector<Tensor> got;
    TF_ASSERT_OK(session.Run({out[0], out[1], inline_value}, &got));
    ExpectTensorNear(got[0], DT_DOUBLE, {2, 3}, ToDoubles(got[2]), 1e-12);
    EXPECT_EQ(got[1].scalar<int32_t>()(), 6);
  }
}

TEST(FunctionCall, TheStatefulCallDrawsAnewEachRun) {
  Scope s = Scope::NewRootScope();
  auto f = *ops::MakeFunction(
      "noise", {DT_FLOAT}, {PartialTensorShape({4})},
      [](const Scope& b, const std::vector<Output>& a, std::vector<Output>* r) {
        *r = {ops::Add(b, a[0], ops::RandomUniform(b, ops::Shape(b, a[0]), DT_FLOAT))};
        return b.status();
      });
  auto call = ops::StatefulPartitionedCall(s, {ops::Const(s, {0.f, 0.f, 0.f, 0.f})}, {DT_FLOAT}, f);
  ClientSession session(s);
  std::vector<Tensor> first, second;
  TF_ASSERT_OK(session.Run({call[0]}, &first));
  TF_ASSERT_OK(session.Run({call[0]}, &second));
  EXPECT_NE(ToDoubles(first[0]), ToDoubles(second[0]));
}

TEST(FunctionCall, RefusesFunctionsThatDoNotFitTheNode) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Const(s, {1.f, 2.f});
  ops::PartitionedCall wrong_out(s, {x, x}, {DT_FLOAT, DT_FLOAT}, Body(DT_FLOAT));
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("returns [float,int32]"), std::string::npos) << s.status();
  Scope t = Scope::NewRootScope();
  auto i = ops::Const(t, {1, 2});
  ops::PartitionedCall wrong_in(t, {i, i}, {DT_FLOAT, DT_INT32}, Body(DT_FLOAT));
  EXPECT_NE(t.status().message().find("takes [float,float]"), std::string::npos) << t.status();
}

TEST(FunctionCall, GradientsMatchNumeric) {
  for (bool stateful : {false, true}) {
    SCOPED_TRACE(stateful ? "StatefulPartitionedCall" : "PartitionedCall");
    auto build = [stateful](const Scope& s, const std::vector<Output>& x) {
      const DataType dt = x[0].type();  // the checker builds in float and in double
      const std::vector<DataType> tout = {dt, DT_INT32};
      const OutputList out = stateful ? ops::StatefulPartitionedCall(s, x, tout, Body(dt)).output
                                      : ops::PartitionedCall(s, x, tout, Body(dt)).output;
      return s.ok() ? Output(ops::Sum(s, ops::Reshape(s, out[0], {-1}), 0)) : Output();
    };
    ExpectGradientMatchesNumeric(
        build, {RandomTensor(DT_DOUBLE, {3}, -1, 1, 3), RandomTensor(DT_DOUBLE, {3}, -1, 1, 4)});
  }
}

// A call inside a call's function, and inside an If's branch: gradients go through both.
FunctionRef Outer(DataType dt) {
  const FunctionRef inner = Body(dt);
  return *ops::MakeFunction(
      "outer", {dt, dt}, {PartialTensorShape(), PartialTensorShape()},
      [&](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        auto c = ops::PartitionedCall(s, {a[0], a[1]}, {dt, DT_INT32}, inner);
        *r = {ops::Mul(s, c[0], a[1])};
        return s.status();
      });
}

TEST(FunctionCall, NestedCallsDifferentiate) {
  auto build = [](const Scope& s, const std::vector<Output>& x) {
    const DataType dt = x[0].type();
    const FunctionRef outer = Outer(dt);
    std::vector<Output> out;
    s.UpdateStatus(ops::Cond(
        s, ops::Const(s, true), {x[0], x[1]},
        [&](const Scope& b, const std::vector<Output>& a, std::vector<Output>* r) {
          *r = {ops::PartitionedCall(b, {a[0], a[1]}, {dt}, outer)[0]};
          return b.status();
        },
        [](const Scope& b, const std::vector<Output>& a, std::vector<Output>* r) {
          *r = {a[0]};
          return b.status();
        },
        &out));
    return s.ok() ? Output(ops::Sum(s, ops::Reshape(s, out[0], {-1}), 0)) : Output();
  };
  ExpectGradientMatchesNumeric(build, {RandomTensor(DT_DOUBLE, {2, 2}, -1, 1, 5),
                                       RandomTensor(DT_DOUBLE, {2, 2}, -1, 1, 6)});
}

TEST(FunctionCall, GradientsThroughRandomOpsAreRefused) {
  Scope s = Scope::NewRootScope();
  auto f = *ops::MakeFunction(
      "noisy", {DT_FLOAT}, {PartialTensorShape()},
      [](const Scope& b, const std::vector<Output>& a, std::vector<Output>* r) {
        *r = {ops::Mul(b, a[0],
                       ops::RandomUniform(b.WithOpName("noise"), ops::Shape(b, a[0]), DT_FLOAT))};
        return b.status();
      });
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto call = ops::StatefulPartitionedCall(s, {x}, {DT_FLOAT}, f);
  std::vector<Output> grads;
  absl::Status st = AddSymbolicGradients(s, {call[0]}, {x}, &grads);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("node 'noise' (RandomUniform)"), std::string::npos) << st;
}

}  // namespace function_call_test
}  // namespace
}  // namespace rill::testing
