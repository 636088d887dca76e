// The graph optimizer seen from a Session: the plans it makes for whole models.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "rill/rill.h"
#include "test_util.h"

namespace rill {
namespace {
namespace optimizer_plan_test {
using testing::FromDoubles;
using testing::RandomTensor;

// The ops of one traced training step of the seed's CIFAR-10 MLP shape (smaller layers:
// the node count does not depend on their sizes).
std::vector<std::string> CifarMlpStepOps(bool optimize) {
  keras::ModelOptions mo;
  mo.session.optimize_graph = optimize;
  keras::Sequential model(mo);
  model.Add(std::make_shared<keras::Flatten>())
      .Add(std::make_shared<keras::Dense>(30, "relu"))
      .Add(std::make_shared<keras::Dense>(20, "relu"))
      .Add(std::make_shared<keras::Dense>(10, "sigmoid"));
  EXPECT_TRUE(model
                  .Compile(std::make_shared<ops::GradientDescentOptimizer>(0.01f),
                           "categorical_crossentropy", {"accuracy"})
                  .ok());
  Tensor x = RandomTensor(DT_FLOAT, {8, 4, 4, 3}, 0, 1, 1);
  std::vector<double> onehot(80, 0.0);
  for (int i = 0; i < 8; ++i) onehot[i * 10 + i % 10] = 1;
  Tensor y = FromDoubles(DT_FLOAT, {8, 10}, onehot);
  RunMetadata meta;
  EXPECT_TRUE(model.TraceTrainStep(x, y, &meta).ok());
  std::vector<std::string> ops;
  for (const NodeExecStats& n : meta.step_stats.nodes) {
    ops.push_back(n.op);
    // The trace says what each fused node stands for.
    if (n.op == "_FusedMatMul") {
      EXPECT_EQ(n.replaces.size(), 3u) << n.node_name;
    }
  }
  return ops;
}

TEST(OptimizedPlans, CifarMlpTrainingStepKeepsItsFusions) {
  std::vector<std::string> ops = CifarMlpStepOps(true);
  std::string all;
  for (const auto& o : ops) all += o + " ";
  EXPECT_LE(ops.size(), 47u) << all;
  auto count = [&](const std::string& op) { return std::count(ops.begin(), ops.end(), op); };
  // Each Dense layer's MatMul, BiasAdd and activation are one node.
  EXPECT_EQ(count("_FusedMatMul"), 3) << all;
  EXPECT_EQ(count("_BiasActivation"), 0) << all;
  EXPECT_EQ(count("MatMul"), 2) << all;  // the two input gradients; no forward MatMul is left
  EXPECT_EQ(count("_BiasActivationGrad"), 3) << all;
  EXPECT_EQ(count("_MatMulApplyGradientDescent"), 3) << all;
  EXPECT_EQ(count("BiasAdd") + count("Relu") + count("ReluGrad") + count("BiasAddGrad"), 0) << all;
  // Keras builds the loss, the metric and the batch mean's gradient of plain ops; the
  // composite rules make each one kernel again.
  EXPECT_EQ(count("_CategoricalCrossentropy"), 1) << all;
  EXPECT_EQ(count("_Accuracy"), 1) << all;
  EXPECT_EQ(count("_MeanAllGrad"), 1) << all;
  EXPECT_EQ(count("Log") + count("ArgMax") + count("BroadcastTo"), 0) << all;
  std::printf("optimized step: %zu nodes: %s\n", ops.size(), all.c_str());
  std::printf("unoptimized step: %zu nodes\n", CifarMlpStepOps(false).size());
}

// The MNIST CNN's shape (smaller): conv(relu) -> pool -> conv(relu) -> pool -> dense(relu)
// -> dense(softmax), Adam. Every conv or dense layer with relu is one node forward and its
// bias and relu gradient one node backward.
TEST(OptimizedPlans, MnistCnnTrainingStepFusesEveryConvAndDenseLayer) {
  keras::Sequential model;
  model.Add(std::make_shared<keras::Conv2D>(4, 3, "relu", "same"))
      .Add(std::make_shared<keras::MaxPool2D>(2))
      .Add(std::make_shared<keras::Conv2D>(6, 3, "relu", "same"))
      .Add(std::make_shared<keras::MaxPool2D>(2))
      .Add(std::make_shared<keras::Flatten>())
      .Add(std::make_shared<keras::Dense>(16, "relu"))
      .Add(std::make_shared<keras::Dense>(10, "softmax"));
  ASSERT_TRUE(model.Compile("adam", "sparse_categorical_crossentropy", {"accuracy"}).ok());
  Tensor x = RandomTensor(DT_FLOAT, {4, 8, 8, 1}, 0, 1, 5);
  Tensor y = FromDoubles(DT_INT32, {4}, {1, 2, 3, 4});
  RunMetadata meta;
  ASSERT_TRUE(model.TraceTrainStep(x, y, &meta).ok());
  std::multiset<std::string> ops;
  for (const NodeExecStats& n : meta.step_stats.nodes) ops.insert(n.op);
  EXPECT_EQ(ops.count("_FusedConv2D"), 2u);
  EXPECT_EQ(ops.count("_FusedMatMul"), 1u);
  EXPECT_EQ(ops.count("_BiasActivation") + ops.count("Conv2D"), 0u);
  EXPECT_EQ(ops.count("_BiasActivationGrad"), 3u);
  EXPECT_EQ(ops.count("Relu") + ops.count("ReluGrad"), 0u);
  EXPECT_EQ(ops.count("BiasAdd"), 1u);  // the softmax layer's logits, read by the loss
  std::printf("MNIST CNN step: %zu nodes\n", ops.size());
}

std::multiset<std::string> PlanOps(const Session& session, const Output& x, const Output& y) {
  CallableOptions signature;
  signature.feed = {x};
  signature.fetch = {y};
  return testing::PlanOps(session, signature);
}

// A user's ops:: and a Keras layer give the same plan: the fusion belongs to the
// optimizer, not to whoever built the graph.
TEST(OptimizedPlans, HandBuiltDenseAndKerasDenseGiveTheSamePlan) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({-1, 4}));
  auto w = ops::Variable(s, RandomTensor(DT_FLOAT, {4, 3}, -1, 1, 2));
  auto b = ops::Variable(s, RandomTensor(DT_FLOAT, {3}, -1, 1, 3));
  auto y = ops::Relu(s, ops::BiasAdd(s, ops::MatMul(s, x, w), b));
  ASSERT_TRUE(s.ok()) << s.status();
  Session hand(s);
  const std::multiset<std::string> by_hand = PlanOps(hand, x, y);

  keras::Sequential model;
  model.Add(std::make_shared<keras::Dense>(3, "relu"));
  ASSERT_TRUE(model.Compile("sgd", "mse").ok());
  ASSERT_TRUE(model.Predict(RandomTensor(DT_FLOAT, {2, 4}, -1, 1, 4)).ok());
  const std::multiset<std::string> by_keras =
      PlanOps(*model.session(), model.input(), model.output());
  EXPECT_EQ(by_hand, by_keras);
  EXPECT_EQ(by_hand.count("_FusedMatMul"), 1u);
  EXPECT_EQ(by_hand.count("MatMul") + by_hand.count("BiasAdd") + by_hand.count("Relu"), 0u);

  SessionOptions off;
  off.optimize_graph = false;
  Session plain(s, off);
  const std::multiset<std::string> unoptimized = PlanOps(plain, x, y);
  EXPECT_EQ(unoptimized.count("_FusedMatMul"), 0u);
  EXPECT_EQ(unoptimized.count("BiasAdd"), 1u);
}

// The picture of a plan names what each fused node replaced.
TEST(OptimizedPlans, ThePlansPictureNamesWhatAFusionReplaced) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({2, 3}));
  auto y = ops::Sigmoid(s.WithOpName("act"),
                        ops::BiasAdd(s.WithOpName("bias"), x, ops::Const(s, {1.f, 2.f, 3.f})));
  Session session(s);
  CallableOptions signature;
  signature.feed = {x};
  signature.fetch = {y};
  absl::StatusOr<GraphView> plan = session.ViewPlan(signature);
  ASSERT_TRUE(plan.ok()) << plan.status();
  bool found = false;
  for (const GraphViewNode& n : plan->nodes) {
    if (n.op != "_BiasActivation") continue;
    found = true;
    EXPECT_EQ(n.name, "act");
    EXPECT_EQ(n.replaces, (std::vector<std::string>{"bias", "act"}));
  }
  EXPECT_TRUE(found);
  const std::string dot = ToDot(*plan);
  EXPECT_NE(dot.find("bias, act"), std::string::npos) << dot;
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({{x, {{0.f, 0.f, 0.f}, {1.f, -1.f, -4.f}}}}, {y}, &out).ok());
  auto sig = [](double v) { return 1 / (1 + std::exp(-v)); };
  testing::ExpectTensorNear(out[0], DT_FLOAT, {2, 3},
                            {sig(1), sig(2), sig(3), sig(2), sig(1), sig(-1)}, 1e-6);
}

}  // namespace optimizer_plan_test
}  // namespace
}  // namespace rill
