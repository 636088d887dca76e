#include "support/model_steps.h"

#include <cmath>

#include "test_util.h"

namespace rill::testing {
namespace {
using namespace ::rill::ops;  // NOLINT

// Glorot-uniform weights of `shape`, deterministic per seed.
Output Weights(const Scope& s, const TensorShape& shape, int64_t fan_in, int64_t fan_out,
               uint32_t seed) {
  const double limit = std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
  return Variable(s, RandomTensor(DT_FLOAT, shape, -limit, limit, seed));
}

Output Dense(const Scope& s, const Output& in, int64_t n_in, int64_t n_out, uint32_t seed) {
  Output w = Weights(s, {n_in, n_out}, n_in, n_out, seed);
  Output b = Variable(s, RandomTensor(DT_FLOAT, {n_out}, 0, 0, seed + 1));
  return BiasAdd(s, MatMul(s, in, w), b);
}

Output Conv(const Scope& s, const Output& in, int64_t c_in, int64_t c_out, uint32_t seed) {
  Output k = Weights(s, {5, 5, c_in, c_out}, 25 * c_in, 25 * c_out, seed);
  Output b = Variable(s, RandomTensor(DT_FLOAT, {c_out}, 0, 0, seed + 1));
  return Relu(s, BiasAdd(s, Conv2D(s, in, k, {1, 1, 1, 1}, "SAME"), b));
}

}  // namespace

CallableOptions TrainStep::Signature() const {
  CallableOptions c;
  c.feed = {x, y};
  c.target = {train};
  return c;
}

TrainStep CifarMlpStep(int64_t batch, int64_t h1, int64_t h2) {
  TrainStep t;
  const Scope& s = t.scope;
  t.x = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 32, 32, 3}));
  t.y = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 10}));
  Output h = Reshape(s, t.x, {-1, 3072});
  h = Relu(s, Dense(s, h, 3072, h1, 1));
  h = Relu(s, Dense(s, h, h1, h2, 3));
  Output p = Sigmoid(s, Dense(s, h, h2, 10, 5));
  t.loss = keras::backend::CategoricalCrossentropy(s, t.y, p);
  t.train = GradientDescentOptimizer(0.01f).Minimize(s, t.loss);
  t.init = GlobalVariablesInitializer(s);
  t.x_value = RandomTensor(DT_FLOAT, {batch, 32, 32, 3}, 0, 1, 7);
  std::vector<double> onehot(batch * 10, 0.0);
  for (int64_t i = 0; i < batch; ++i) onehot[i * 10 + (i * 7) % 10] = 1;
  t.y_value = FromDoubles(DT_FLOAT, {batch, 10}, onehot);
  return t;
}

TrainStep MnistCnnStep(int64_t batch, int64_t c1, int64_t c2, int64_t d) {
  TrainStep t;
  const Scope& s = t.scope;
  t.x = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 28, 28, 1}));
  t.y = Placeholder(s, DT_INT64, Placeholder::Shape({-1}));
  Output h = Conv(s, t.x, 1, c1, 11);
  h = MaxPool(s, h, {1, 2, 2, 1}, {1, 2, 2, 1}, "SAME");  // 14x14
  h = Conv(s, h, c1, c2, 13);
  h = MaxPool(s, h, {1, 2, 2, 1}, {1, 2, 2, 1}, "SAME");  // 7x7
  h = Reshape(s, h, {int64_t{-1}, 49 * c2});
  h = Relu(s, Dense(s, h, 49 * c2, d, 15));
  Output logits = Dense(s, h, d, 10, 17);
  t.loss = Mean(s, SparseSoftmaxCrossEntropyWithLogits(s, logits, t.y).loss, 0);
  t.train = AdamOptimizer(0.001f).Minimize(s, t.loss);
  t.init = GlobalVariablesInitializer(s);
  t.x_value = RandomTensor(DT_FLOAT, {batch, 28, 28, 1}, 0, 1, 19);
  t.y_value = RandomTensor(DT_INT64, {batch}, 0, 9, 20);
  return t;
}

}  // namespace rill::testing
