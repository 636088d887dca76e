// Training end to end. A small MLP trained from fixed weights on fixed data must give the
// losses of an independent float64 reference written here in plain C++ (no rill ops);
// and the backward graph of an MLP must stay within 2.5x the forward FLOPs.
#include <cmath>

#include "absl/container/flat_hash_set.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace training_test {

using namespace ::rill::ops;  // NOLINT

constexpr int kBatch = 6, kIn = 4, kHidden = 5, kOut = 3;

struct Data {
  std::vector<double> x, w1, b1, w2, b2;
  std::vector<int> labels;
};

Data MakeData() {
  Data d;
  d.x = ToDoubles(RandomTensor(DT_DOUBLE, {kBatch, kIn}, -1, 1, 11));
  d.w1 = ToDoubles(RandomTensor(DT_DOUBLE, {kIn, kHidden}, -0.8, 0.8, 12));
  d.b1 = ToDoubles(RandomTensor(DT_DOUBLE, {kHidden}, -0.1, 0.1, 13));
  d.w2 = ToDoubles(RandomTensor(DT_DOUBLE, {kHidden, kOut}, -0.8, 0.8, 14));
  d.b2 = ToDoubles(RandomTensor(DT_DOUBLE, {kOut}, -0.1, 0.1, 15));
  d.labels = {0, 2, 1, 1, 0, 2};
  return d;
}

// One parameter vector with its optimizer state, updated by the reference.
struct Param {
  std::vector<double>* w;
  std::vector<double> m, v;
};

enum class Opt { kSgd, kMomentum, kAdam };

// The reference: forward, softmax cross entropy (mean), backward by hand, update.
std::vector<double> ReferenceLosses(Data d, Opt opt, int steps) {
  const double lr = opt == Opt::kAdam ? 0.05 : 0.5, mom = 0.9, b1 = 0.9, b2 = 0.999, eps = 1e-7;
  std::vector<Param> params = {{&d.w1, {}, {}}, {&d.b1, {}, {}}, {&d.w2, {}, {}}, {&d.b2, {}, {}}};
  for (auto& p : params) p.m = p.v = std::vector<double>(p.w->size(), 0.0);
  std::vector<double> losses;
  double p1 = b1, p2 = b2;
  for (int step = 0; step < steps; ++step) {
    std::vector<double> h(kBatch * kHidden), z(kBatch * kHidden), logits(kBatch * kOut);
    for (int r = 0; r < kBatch; ++r) {
      for (int j = 0; j < kHidden; ++j) {
        double a = d.b1[j];
        for (int i = 0; i < kIn; ++i) a += d.x[r * kIn + i] * d.w1[i * kHidden + j];
        z[r * kHidden + j] = a;
        h[r * kHidden + j] = a > 0 ? a : 0;
      }
      for (int k = 0; k < kOut; ++k) {
        double a = d.b2[k];
        for (int j = 0; j < kHidden; ++j) a += h[r * kHidden + j] * d.w2[j * kOut + k];
        logits[r * kOut + k] = a;
      }
    }
    double loss = 0;
    std::vector<double> dlogits(kBatch * kOut);
    for (int r = 0; r < kBatch; ++r) {
      double mx = -1e300, sum = 0;
      for (int k = 0; k < kOut; ++k) mx = std::max(mx, logits[r * kOut + k]);
      for (int k = 0; k < kOut; ++k) sum += std::exp(logits[r * kOut + k] - mx);
      const double lse = mx + std::log(sum);
      loss += (lse - logits[r * kOut + d.labels[r]]) / kBatch;
      for (int k = 0; k < kOut; ++k) {
        dlogits[r * kOut + k] =
            (std::exp(logits[r * kOut + k] - lse) - (k == d.labels[r] ? 1 : 0)) / kBatch;
      }
    }
    losses.push_back(loss);
    std::vector<double> gw1(kIn * kHidden, 0), gb1(kHidden, 0), gw2(kHidden * kOut, 0),
        gb2(kOut, 0), dh(kBatch * kHidden, 0);
    for (int r = 0; r < kBatch; ++r) {
      for (int k = 0; k < kOut; ++k) {
        gb2[k] += dlogits[r * kOut + k];
        for (int j = 0; j < kHidden; ++j) {
          gw2[j * kOut + k] += h[r * kHidden + j] * dlogits[r * kOut + k];
          dh[r * kHidden + j] += dlogits[r * kOut + k] * d.w2[j * kOut + k];
        }
      }
      for (int j = 0; j < kHidden; ++j) {
        const double dz = z[r * kHidden + j] > 0 ? dh[r * kHidden + j] : 0;
        gb1[j] += dz;
        for (int i = 0; i < kIn; ++i) gw1[i * kHidden + j] += d.x[r * kIn + i] * dz;
      }
    }
    std::vector<std::vector<double>*> grads = {&gw1, &gb1, &gw2, &gb2};
    for (size_t p = 0; p < params.size(); ++p) {
      auto& w = *params[p].w;
      auto& g = *grads[p];
      for (size_t i = 0; i < w.size(); ++i) {
        if (opt == Opt::kSgd) {
          w[i] -= lr * g[i];
        } else if (opt == Opt::kMomentum) {
          params[p].m[i] = params[p].m[i] * mom + g[i];
          w[i] -= lr * params[p].m[i];
        } else {
          const double lr_t = lr * std::sqrt(1 - p2) / (1 - p1);
          params[p].m[i] = b1 * params[p].m[i] + (1 - b1) * g[i];
          params[p].v[i] = b2 * params[p].v[i] + (1 - b2) * g[i] * g[i];
          w[i] -= lr_t * params[p].m[i] / (std::sqrt(params[p].v[i]) + eps);
        }
      }
    }
    p1 *= b1;
    p2 *= b2;
  }
  return losses;
}

class MlpReference : public ::testing::TestWithParam<Opt> {};

TEST_P(MlpReference, FirstTwentyLossesMatchAnIndependentFloat64Reference) {
  const Opt opt = GetParam();
  const Data d = MakeData();
  const std::vector<double> want = ReferenceLosses(d, opt, 20);
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_DOUBLE, Placeholder::Shape({-1, kIn}));
  auto y = Placeholder(s, DT_INT32, Placeholder::Shape({-1}));
  auto w1 = Variable(s, FromDoubles(DT_DOUBLE, {kIn, kHidden}, d.w1));
  auto b1 = Variable(s, FromDoubles(DT_DOUBLE, {kHidden}, d.b1));
  auto w2 = Variable(s, FromDoubles(DT_DOUBLE, {kHidden, kOut}, d.w2));
  auto b2 = Variable(s, FromDoubles(DT_DOUBLE, {kOut}, d.b2));
  auto hidden = Relu(s, Add(s, MatMul(s, x, w1), b1));
  auto logits = Add(s, MatMul(s, hidden, w2), b2);
  auto loss = Mean(s, SparseSoftmaxCrossEntropyWithLogits(s, logits, y).loss, 0);
  std::unique_ptr<Optimizer> optimizer;
  if (opt == Opt::kSgd) optimizer = std::make_unique<GradientDescentOptimizer>(0.5);
  if (opt == Opt::kMomentum) optimizer = std::make_unique<MomentumOptimizer>(0.5, 0.9);
  if (opt == Opt::kAdam) optimizer = std::make_unique<AdamOptimizer>(0.05);
  Operation train = optimizer->Minimize(s, loss);
  ASSERT_TRUE(s.ok()) << s.status();
  Session session(s);
  if (opt == Opt::kSgd) {  // the graph optimizer makes both weight updates one GEMM each
    CallableOptions signature;
    signature.feed = {x, y};
    signature.fetch = {loss};
    signature.target = {train};
    absl::StatusOr<GraphView> plan = session.ViewPlan(signature);
    ASSERT_TRUE(plan.ok()) << plan.status();
    int fused = 0;
    for (const GraphViewNode& n : plan->nodes) fused += n.op == "_MatMulApplyGradientDescent";
    EXPECT_EQ(fused, 2);
  }
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  Tensor xv = FromDoubles(DT_DOUBLE, {kBatch, kIn}, d.x);
  Tensor yv = FromDoubles(DT_INT32, {kBatch}, {d.labels.begin(), d.labels.end()});
  for (int step = 0; step < 20; ++step) {
    std::vector<Tensor> out;
    ASSERT_TRUE(session.Run({{x, xv}, {y, yv}}, {loss}, {train}, &out).ok());
    const double got = out[0].scalar<double>()();
    EXPECT_NEAR(got, want[step], 1e-5 * std::abs(want[step])) << "step " << step;
  }
  EXPECT_LT(want[19], want[0] * 0.8);  // it learns, so the comparison means something
}
INSTANTIATE_TEST_SUITE_P(Optimizers, MlpReference,
                         ::testing::Values(Opt::kSgd, Opt::kMomentum, Opt::kAdam));

// FLOPs of a node from its static shapes: 2mnk for MatMul, one per output element else.
double Flops(const Node& n) {
  auto elements = [](const PartialTensorShape& p) {
    double e = 1;
    for (int64_t d : p.dim_sizes()) e *= static_cast<double>(std::max<int64_t>(d, 1));
    return e;
  };
  if (n.num_outputs() == 0) return 0;
  // A MatMul, or the optimizer's fused GEMM update (a, b are its inputs 2 and 3).
  const bool fused = n.type_string() == "_MatMulApplyGradientDescent";
  if (n.type_string() == "MatMul" || fused) {
    const NodeOut in = n.input(fused ? 2 : 0);
    const PartialTensorShape a = in.node->output_shape(in.index);
    const int64_t k = a.dim_size(n.attr<bool>("transpose_a") ? 0 : 1);
    return 2.0 * elements(n.output_shape(0)) * static_cast<double>(k);
  }
  if (n.IsConstant() || n.IsVariable() || n.IsPlaceholder()) return 0;
  return elements(n.output_shape(0));
}

TEST(Training, BackwardGraphOfAnMlpStaysWithinTwoAndAHalfTimesTheForwardFlops) {
  Scope s = Scope::NewRootScope();
  const int batch = 64;
  auto x = Placeholder(s, DT_FLOAT, Placeholder::Shape({batch, 784}));
  auto y = Placeholder(s, DT_INT64, Placeholder::Shape({batch}));
  Output h = x;
  int width = 784;
  for (int units : {256, 128, 10}) {
    auto w = Variable(s, RandomTensor(DT_FLOAT, {width, units}, -0.1, 0.1, units));
    auto b = Variable(s, RandomTensor(DT_FLOAT, {units}, -0.1, 0.1, units + 1));
    h = Add(s, MatMul(s, h, w), b);
    if (units != 10) h = Relu(s, h);
    width = units;
  }
  auto loss = Mean(s, SparseSoftmaxCrossEntropyWithLogits(s, h, y).loss, 0);
  const int first_backward = s.graph()->num_nodes();
  GradientDescentOptimizer opt(0.1);
  Operation train = opt.Minimize(s, loss);
  ASSERT_TRUE(s.ok()) << s.status();
  // What the train op needs, split at the first node the gradients added.
  absl::flat_hash_set<const Node*> needed;
  std::vector<const Node*> stack = {train.node()};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!needed.insert(n).second) continue;
    for (int i = 0; i < n->num_inputs(); ++i) stack.push_back(n->input(i).node);
    for (const Node* c : n->control_inputs()) stack.push_back(c);
  }
  double forward = 0, backward = 0;
  for (const Node* n : needed) (n->id() < first_backward ? forward : backward) += Flops(*n);
  EXPECT_GT(forward, 2.0 * batch * 784 * 256);
  EXPECT_LE(backward / forward, 2.5) << "forward " << forward << " backward " << backward;
  std::printf("MLP 784-256-128-10, batch %d: forward %.3g FLOPs, backward+update %.3g (%.2fx)\n",
              batch, forward, backward, backward / forward);
}

// As TensorFlow's optimizers: a variable the loss does not read, or reads only through
// StopGradient, is left alone; when that is every variable, Minimize says so.
TEST(Optimizers, VariablesWithoutAGradientAreLeftAlone) {
  Scope s = Scope::NewRootScope();
  auto w = Variable(s, Input::Initializer({1.f, 2.f}));
  auto frozen = Variable(s, Input::Initializer({5.f}));
  auto unread = Variable(s, Input::Initializer({7.f}));
  auto loss = Add(s, Sum(s, Square(s, w), 0), Sum(s, StopGradient(s, frozen), 0));
  GradientDescentOptimizer opt(0.25);
  Operation train = opt.Minimize(s, loss, {w, frozen, unread});
  ASSERT_TRUE(s.ok()) << s.status();
  Session session(s);
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  ASSERT_TRUE(session.Run({}, {}, {train}, nullptr).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({w, frozen, unread}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, TensorShape({2}), {0.5f, 1.f}, 0);  // w - 0.25 * 2w
  ExpectTensorNear(out[1], DT_FLOAT, TensorShape({1}), {5.f}, 0);
  ExpectTensorNear(out[2], DT_FLOAT, TensorShape({1}), {7.f}, 0);

  Scope none = Scope::NewRootScope();
  auto v = Variable(none, Input::Initializer({1.f}));
  auto u = Variable(none, Input::Initializer({1.f}));
  opt.Minimize(none, Sum(none, StopGradient(none, v), 0), {v, u});
  EXPECT_EQ(none.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(none.status().message().find("no gradient reaches any variable"), std::string::npos)
      << none.status();
}

}  // namespace training_test
}  // namespace
}  // namespace rill::testing
