// _FusedMatMul and _FusedConv2D, the remapper's fused layers: values by hand, and a small
// conv net trained with the optimizer on (every layer fused) and off gives the same
// weights. Their cases on every device are in op_cases_math.cc and op_cases_nn.cc.
#include "test_util.h"

namespace rill::testing {
namespace {
namespace fused_ops_test {
using namespace ops;  // NOLINT

MarkTested tested({"_FusedMatMul", "_FusedConv2D"});

TEST(FusedOps, ValuesByHand) {
  // [[1,2],[3,4]] [[1,0],[0,-1]] + [0.5, 1] = [[1.5,-1],[3.5,-3]], then relu.
  absl::StatusOr<Tensor> mm = RunOp(
      [](const Scope& s, const auto& in) { return FusedMatMul(s, in[0], in[1], in[2], "relu"); },
      {FromDoubles(DT_FLOAT, {2, 2}, {1, 2, 3, 4}), FromDoubles(DT_FLOAT, {2, 2}, {1, 0, 0, -1}),
       FromDoubles(DT_FLOAT, {2}, {0.5, 1})});
  ASSERT_TRUE(mm.ok()) << mm.status();
  ExpectTensorNear(*mm, DT_FLOAT, {2, 2}, {1.5, 0, 3.5, 0}, 0);
  // A 1x1 convolution of two pixels [1], [2] by [3, -1], plus 0.5, then relu.
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {  // oneDNN's post-op; im2col then the rows
    absl::StatusOr<Tensor> conv = RunOp(
        [](const Scope& s, const auto& in) {
          return FusedConv2D(s, in[0], in[1], in[2], {1, 1, 1, 1}, "VALID", "relu");
        },
        {FromDoubles(dt, {1, 1, 2, 1}, {1, 2}), FromDoubles(dt, {1, 1, 1, 2}, {3, -1}),
         FromDoubles(dt, {2}, {0.5, 0.5})});
    ASSERT_TRUE(conv.ok()) << conv.status();
    ExpectTensorNear(*conv, dt, {1, 1, 2, 2}, {3.5, 0, 6.5, 0}, 0);
  }
}

// Three SGD steps of conv(relu) -> dense(tanh) -> mse; returns the loss and the weights.
std::vector<Tensor> TrainThreeSteps(bool optimize) {
  Scope s = Scope::NewRootScope();
  auto x = Const(s, RandomTensor(DT_FLOAT, {2, 5, 5, 2}, -1, 1, 1));
  auto target = Const(s, RandomTensor(DT_FLOAT, {2, 3}, -1, 1, 2));
  std::vector<Output> vars = {Variable(s, RandomTensor(DT_FLOAT, {3, 3, 2, 4}, -0.5, 0.5, 3)),
                              Variable(s, RandomTensor(DT_FLOAT, {4}, -0.1, 0.1, 4)),
                              Variable(s, RandomTensor(DT_FLOAT, {100, 3}, -0.2, 0.2, 5)),
                              Variable(s, RandomTensor(DT_FLOAT, {3}, -0.1, 0.1, 6))};
  auto h = Relu(s, BiasAdd(s, Conv2D(s, x, vars[0], {1, 1, 1, 1}, "SAME"), vars[1]));
  auto y = Tanh(s, BiasAdd(s, MatMul(s, Reshape(s, h, {2, -1}), vars[2]), vars[3]));
  auto loss = Mean(s, Square(s, Sub(s, y, target)), {0, 1});
  std::vector<Output> grads;
  EXPECT_TRUE(AddSymbolicGradients(s, {loss}, vars, &grads).ok());
  // Every update waits for every gradient: the input gradients read the weights too.
  std::vector<Operation> all_grads;
  for (const Output& g : grads) all_grads.push_back(g.op());
  const Scope after = s.WithControlDependencies(all_grads);
  std::vector<Operation> updates;
  for (size_t i = 0; i < vars.size(); ++i) {
    updates.push_back(ApplyGradientDescent(after, vars[i], 0.1f, grads[i]).operation);
  }
  EXPECT_TRUE(s.ok()) << s.status();
  SessionOptions options;
  options.optimize_graph = optimize;
  Session session(s, options);
  EXPECT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(session.Run({}, {}, updates, nullptr).ok());
  std::vector<Output> fetch = vars;
  fetch.push_back(loss);
  std::vector<Tensor> out;
  EXPECT_TRUE(session.Run(fetch, &out).ok());
  return out;
}

TEST(FusedOps, AFusedNetTrainsAsTheUnfusedOne) {
  std::vector<Tensor> fused = TrainThreeSteps(true), plain = TrainThreeSteps(false);
  ASSERT_EQ(fused.size(), 5u);
  ASSERT_EQ(plain.size(), 5u);
  for (size_t i = 0; i < fused.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectTensorNear(fused[i], DT_FLOAT, plain[i].shape(), ToDoubles(plain[i]), 1e-5);
  }
  EXPECT_GT(ToDoubles(fused[4])[0], 0);
}

}  // namespace fused_ops_test
}  // namespace
}  // namespace rill::testing
