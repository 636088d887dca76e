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
      [](const Scope& s, const auto& in) { return FusedMatMul(s, in[0], in[1], in[2], "Relu"); },
      {FromDoubles(DT_FLOAT, {2, 2}, {1, 2, 3, 4}), FromDoubles(DT_FLOAT, {2, 2}, {1, 0, 0, -1}),
       FromDoubles(DT_FLOAT, {2}, {0.5, 1})});
  ASSERT_TRUE(mm.ok()) << mm.status();
  ExpectTensorNear(*mm, DT_FLOAT, {2, 2}, {1.5, 0, 3.5, 0}, 0);
  // A 1x1 convolution of two pixels [1], [2] by [3, -1], plus 0.5, then relu.
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {  // oneDNN's post-op; im2col then the rows
    absl::StatusOr<Tensor> conv = RunOp(
        [](const Scope& s, const auto& in) {
          return FusedConv2D(s, in[0], in[1], in[2], {1, 1, 1, 1}, "VALID", "Relu");
        },
        {FromDoubles(dt, {1, 1, 2, 1}, {1, 2}), FromDoubles(dt, {1, 1, 1, 2}, {3, -1}),
         FromDoubles(dt, {2}, {0.5, 0.5})});
    ASSERT_TRUE(conv.ok()) << conv.status();
    ExpectTensorNear(*conv, dt, {1, 1, 2, 2}, {3.5, 0, 6.5, 0}, 0);
  }
}

// TensorFlow's fused_ops ends, each on the product [[-2, 7], [1.5, -0.5]] + [0.5, 1]
// = [[-1.5, 8], [2, 0.5]] (a = I, b = the product), in float and double.
TEST(FusedOps, EveryFusedOpsEnd) {
  const double e = std::exp(-1.5);
  const std::vector<std::pair<std::string, std::vector<double>>> ends = {
      {"", {-1.5, 8, 2, 0.5}},
      {"Relu", {0, 8, 2, 0.5}},
      {"Relu6", {0, 6, 2, 0.5}},
      {"Elu", {e - 1, 8, 2, 0.5}},
      {"LeakyRelu", {-1.5 * double{0.2f}, 8, 2, 0.5}},  // alpha: a float attr, 0.2 by default
      {"Sigmoid",
       {1 / (1 + 1 / e), 1 / (1 + std::exp(-8.0)), 1 / (1 + std::exp(-2.0)),
        1 / (1 + std::exp(-0.5))}},
      {"Tanh", {std::tanh(-1.5), std::tanh(8.0), std::tanh(2.0), std::tanh(0.5)}}};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (const auto& end : ends) {
      const std::string& act = end.first;
      const std::vector<double>& want = end.second;
      SCOPED_TRACE(act + " " + DataTypeString(dt));
      absl::StatusOr<Tensor> y =
          RunOp([act](const Scope& s,
                      const auto& in) { return FusedMatMul(s, in[0], in[1], in[2], act); },
                {FromDoubles(dt, {2, 2}, {1, 0, 0, 1}), FromDoubles(dt, {2, 2}, {-2, 7, 1.5, -0.5}),
                 FromDoubles(dt, {2}, {0.5, 1})});
      ASSERT_TRUE(y.ok()) << y.status();
      ExpectTensorNear(*y, dt, {2, 2}, want, dt == DT_FLOAT ? 1e-6 : 1e-12);
    }
  }
  // LeakyRelu's alpha is the node's leakyrelu_alpha.
  absl::StatusOr<Tensor> y = RunOp(
      [](const Scope& s, const auto& in) {
        return FusedMatMul(s, in[0], in[1], in[2], "LeakyRelu", {}, -0.5f);
      },
      {FromDoubles(DT_FLOAT, {1, 1}, {2}), FromDoubles(DT_FLOAT, {1, 2}, {-1, 1}),
       FromDoubles(DT_FLOAT, {2}, {0, 0})});
  ASSERT_TRUE(y.ok()) << y.status();
  ExpectTensorNear(*y, DT_FLOAT, {1, 2}, {1, 2}, 0);
}

// TensorFlow's batch norm fusion of a 1x1 convolution of two pixels [1], [2] by [3, -1]:
// the products [3, -1], [6, -2]; mean [1, 0], variance [3, 0] + epsilon 1 (factor
// scale / 2 and scale / 1 with scale [2, 1]), offset [0.5, 0]: [2.5, -1], [5.5, -2], then
// Relu6. On both of the CPU's paths (oneDNN's in float, im2col in double).
TEST(FusedOps, ConvBatchNormByHand) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    absl::StatusOr<Tensor> y = RunOp(
        [](const Scope& s, const auto& in) {
          const Operation op =
              internal::NodeBuilder(s, "_FusedConv2D")
                  .Input(in[0])
                  .Input(in[1])
                  .Inputs({in[2], in[3], in[4], in[5]})
                  .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
                  .Attr("padding", std::string("VALID"))
                  .Attr("fused_ops", std::vector<std::string>{"FusedBatchNorm", "Relu6"})
                  .Attr("epsilon", 1.0f)
                  .Finalize();
          return op.node() == nullptr ? Output() : Output(op.node(), 0);
        },
        {FromDoubles(dt, {1, 1, 2, 1}, {1, 2}), FromDoubles(dt, {1, 1, 1, 2}, {3, -1}),
         FromDoubles(dt, {2}, {2, 1}), FromDoubles(dt, {2}, {0.5, 0}), FromDoubles(dt, {2}, {1, 0}),
         FromDoubles(dt, {2}, {3, 0})});
    ASSERT_TRUE(y.ok()) << y.status();
    ExpectTensorNear(*y, dt, {1, 1, 2, 2}, {2.5, 0, 5.5, 0}, 1e-6);
  }
}

// A graph holding the node with TensorFlow's attrs, as its tests build it: num_args is
// implied by the argument list, and a fusion TensorFlow does not have is refused when the
// node is added, naming it.
TEST(FusedOps, TensorFlowsAttrs) {
  Scope s = Scope::NewRootScope();
  auto a = Const(s, FromDoubles(DT_FLOAT, {1, 2}, {1, 2}));
  auto b = Const(s, FromDoubles(DT_FLOAT, {2, 1}, {3, 4}));
  auto bias = Const(s, FromDoubles(DT_FLOAT, {1}, {-20}));
  auto build = [&](const Scope& scope, std::vector<std::string> fused_ops) {
    internal::NodeBuilder n(scope, "_FusedMatMul");
    n.Input(a).Input(b).Inputs({bias});
    if (!fused_ops.empty()) n.Attr("fused_ops", std::move(fused_ops));
    return n.Finalize();
  };
  const Operation op = build(s.WithOpName("fused"), {"BiasAdd", "Relu6"});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(op.node()->attr<int64_t>("num_args"), 1);
  EXPECT_EQ(op.node()->attr<float>("leakyrelu_alpha"), 0.2f);
  EXPECT_EQ(op.node()->attr<float>("epsilon"), 0.0001f);
  std::vector<Tensor> out;
  ASSERT_TRUE(Session(s).Run({Output(op.node(), 0)}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {1, 1}, {0}, 0);  // 11 - 20, then Relu6
  build(s.WithOpName("no_fusion"), {});  // fused_ops defaults to [], which fuses nothing
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("unsupported fusion"), std::string::npos) << s.status();
  EXPECT_NE(s.status().message().find("no_fusion"), std::string::npos) << s.status();
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
