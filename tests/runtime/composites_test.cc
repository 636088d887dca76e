// The optimizer's composite rules (runtime/passes/composites.cc) on compositions written
// by hand with ops::, not by Keras: each is fused, its values stay those of the graph as
// written, and a composition that differs is left alone.
#include <gtest/gtest.h>

#include <set>

#include "rill/rill.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace composites_test {
using namespace ops;  // NOLINT

using Feeds = std::vector<std::pair<Output, Tensor>>;

// The plan's ops for these feeds and fetches, optimized.
std::multiset<std::string> OptimizedOps(const Scope& s, const Feeds& feeds,
                                        const std::vector<Output>& fetch) {
  Session session(s);
  CallableOptions signature;
  for (const auto& [o, t] : feeds) signature.feed.push_back(o);
  signature.fetch = fetch;
  return PlanOps(session, signature);
}

// The fetches computed with and without the optimizer agree to within `tol`.
void ExpectSameValues(const Scope& s, const Feeds& feeds, const std::vector<Output>& fetch,
                      double tol) {
  ASSERT_TRUE(s.ok()) << s.status();
  Session::FeedType in;
  for (const auto& [o, t] : feeds) in.emplace(o, Input::Initializer(t));
  SessionOptions off;
  off.optimize_graph = false;
  Session optimized(s), plain(s, off);
  std::vector<Tensor> a, b;
  absl::Status sa = optimized.Run(in, fetch, &a), sb = plain.Run(in, fetch, &b);
  ASSERT_TRUE(sa.ok()) << sa;
  ASSERT_TRUE(sb.ok()) << sb;
  for (size_t i = 0; i < fetch.size(); ++i) {
    SCOPED_TRACE(fetch[i].name());
    ExpectTensorNear(a[i], b[i].dtype(), b[i].shape(), ToDoubles(b[i]), tol);
  }
}

// -sum(y log clip(p / sum(p))) per row, as a user might write it (factors swapped).
Output Crossentropy(const Scope& s, Output y, Output p, float eps) {
  Output q = Div(s, p, Sum(s, p, -1, Sum::KeepDims(true)));
  Output c = Maximum(s, Minimum(s, q, 1.f - eps), eps);
  return Neg(s, Sum(s, Mul(s, Log(s, c), y), -1));
}

struct XentGraph {
  Scope s = Scope::NewRootScope();
  Output z, y, loss, dz;
  explicit XentGraph(float eps) {
    z = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 5}));
    y = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 5}));
    loss = Mean(s, Reshape(s, Crossentropy(s, y, Sigmoid(s, z), eps), {-1}), 0);
    std::vector<Output> grads;
    EXPECT_TRUE(AddSymbolicGradients(s, {loss}, {z}, &grads).ok());
    dz = grads[0];
  }
  Feeds feeds() const {
    std::vector<double> onehot(20, 0.0);
    for (int i = 0; i < 4; ++i) onehot[i * 5 + (i * 2) % 5] = 1;
    return {{z, RandomTensor(DT_FLOAT, {4, 5}, -30, 3, 11)},
            {y, FromDoubles(DT_FLOAT, {4, 5}, onehot)}};
  }
};

TEST(CompositeRules, HandWrittenCrossentropyAndItsGradientBecomeOneKernel) {
  XentGraph g(1e-7f);
  std::multiset<std::string> ops = OptimizedOps(g.s, g.feeds(), {g.loss, g.dz});
  EXPECT_EQ(ops.count("_CategoricalCrossentropy"), 1u);
  EXPECT_EQ(ops.count("_MeanAllGrad"), 1u);
  EXPECT_EQ(ops.count("Log") + ops.count("Div") + ops.count("Maximum") + ops.count("Minimum") +
                ops.count("Select") + ops.count("BroadcastTo"),
            0u);
  // Inputs from -30 put probabilities under the clip: the clipped gradient is exercised.
  ExpectSameValues(g.s, g.feeds(), {g.loss, g.dz}, 1e-5);
}

TEST(CompositeRules, ADifferentCompositionIsLeftAlone) {
  XentGraph g(1e-6f);  // not Keras's epsilon: not what the fused kernel computes
  std::multiset<std::string> ops = OptimizedOps(g.s, g.feeds(), {g.loss, g.dz});
  EXPECT_EQ(ops.count("_CategoricalCrossentropy"), 0u);
  EXPECT_EQ(ops.count("Log"), 1u);
  ExpectSameValues(g.s, g.feeds(), {g.loss, g.dz}, 1e-5);
}

TEST(CompositeRules, AFetchedIntermediateStaysComputed) {
  XentGraph g(1e-7f);
  Output log = Output(g.loss.node()->input(0).node);  // the Reshape of the per-row loss
  std::multiset<std::string> ops = OptimizedOps(g.s, g.feeds(), {g.loss, g.dz, log});
  EXPECT_EQ(ops.count("_CategoricalCrossentropy"), 1u);
  ExpectSameValues(g.s, g.feeds(), {g.loss, g.dz, log}, 1e-5);
}

TEST(CompositeRules, AccuracyWrittenByHand) {
  Scope s = Scope::NewRootScope();
  auto p = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 3}));
  auto y = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 3}));
  auto ids = Placeholder(s, DT_INT64, Placeholder::Shape({-1}));
  auto mean = [&](Output hit) { return Mean(s, Reshape(s, Cast(s, hit, DT_FLOAT), {-1}), 0); };
  Output categorical = mean(Equal(s, ArgMax(s, p, 1), ArgMax(s, y, 1)));
  Output sparse = mean(Equal(s, Reshape(s, ids, {-1}), ArgMax(s, p, 1)));  // swapped
  Output binary =
      mean(Equal(s, Cast(s, Greater(s, p, 0.5f), DT_FLOAT), Reshape(s, y, Shape(s, p))));
  // Ties in p and y: ArgMax takes the first of equal maxima, fused or not.
  Tensor pv =
      FromDoubles(DT_FLOAT, {4, 3}, {0.2, 0.7, 0.7, 0.5, 0.5, 0.1, 0.9, 0, 0.9, 0.1, 0.2, 0.6});
  Tensor yv = FromDoubles(DT_FLOAT, {4, 3}, {0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1});
  const Feeds feeds = {{p, pv}, {y, yv}, {ids, FromDoubles(DT_INT64, {4}, {1, 0, 2, 2})}};
  std::multiset<std::string> ops = OptimizedOps(s, feeds, {categorical, sparse, binary});
  EXPECT_EQ(ops.count("_Accuracy"), 3u);
  EXPECT_EQ(ops.count("ArgMax") + ops.count("Equal") + ops.count("Greater"), 0u);
  ExpectSameValues(s, feeds, {categorical, sparse, binary}, 0);
}

TEST(CompositeRules, GradientOfAMeanToOneElement) {
  for (const PartialTensorShape& shape :
       {PartialTensorShape({2, 3}), PartialTensorShape({-1, 3})}) {
    SCOPED_TRACE(shape.DebugString());
    Scope s = Scope::NewRootScope();
    auto x = Placeholder(s, DT_DOUBLE, Placeholder::Shape(shape));
    // A fed upstream gradient: with ones and a static shape the gradient is a constant,
    // and folding, not this rule, takes it.
    auto dy = Placeholder(s, DT_DOUBLE, Placeholder::Shape({}));
    Output all = Mean(s, x, {0, 1});
    Output rows = Mean(s, x, 1);  // to [2]: not one element, not fused
    std::vector<Output> grads;
    ASSERT_TRUE(AddSymbolicGradients(s, {all}, {x}, {dy}, &grads).ok());
    ASSERT_TRUE(AddSymbolicGradients(s, {rows}, {x}, &grads).ok());
    const Feeds feeds = {{x, RandomTensor(DT_DOUBLE, {2, 3}, -1, 1, 5)},
                         {dy, FromDoubles(DT_DOUBLE, {}, {0.75})}};
    std::multiset<std::string> ops = OptimizedOps(s, feeds, grads);
    EXPECT_EQ(ops.count("_MeanAllGrad"), 1u);
    EXPECT_EQ(ops.count("BroadcastTo"), 1u);  // the row mean's
    ExpectSameValues(s, feeds, grads, 1e-12);
  }
}

}  // namespace composites_test
}  // namespace
}  // namespace rill::testing
