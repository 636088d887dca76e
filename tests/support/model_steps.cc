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

Output RnnCell(const Scope& s, const Output& xt, const Output& h, const Output& w,
               const Output& u) {
  return Tanh(s, Add(s, MatMul(s, xt, w), MatMul(s, h, u)));
}

// The last h of the recurrent net, as a While over (t, h, x, w, u) or unrolled.
Output RnnLastState(const Scope& s, const Output& x, const Output& w, const Output& u,
                    const Output& h0, int64_t steps, bool as_while) {
  if (!as_while) {
    Output h = h0;
    for (int64_t t = 0; t < steps; ++t) h = RnnCell(s, Gather(s, x, t), h, w, u);
    return h;
  }
  OutputList out;
  s.UpdateStatus(BuildWhileLoop(
      s, {Const(s, int64_t{0}), h0, x, w, u},
      [steps](const Scope& c, const std::vector<Output>& v, Output* o) {
        *o = Less(c, v[0], steps);
        return c.status();
      },
      [](const Scope& b, const std::vector<Output>& v, std::vector<Output>* o) {
        *o = {Add(b, v[0], int64_t{1}), RnnCell(b, Gather(b, v[2], v[0]), v[1], v[3], v[4]), v[2],
              v[3], v[4]};
        return b.status();
      },
      "rnn", &out));
  return s.ok() ? out[1] : Output();
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

TrainStep RnnStep(int64_t steps, int64_t batch, int64_t in, int64_t hidden, bool as_while) {
  TrainStep t;
  const Scope& s = t.scope;
  t.x = Placeholder(s, DT_FLOAT, Placeholder::Shape({steps, batch, in}));
  t.y = Placeholder(s, DT_FLOAT, Placeholder::Shape({batch, hidden}));
  t.weights = {Weights(s, {in, hidden}, in, hidden, 21),
               Weights(s, {hidden, hidden}, hidden, hidden, 23)};
  auto h0 = Const(s, Input::Initializer(0.f, TensorShape({batch, hidden})));
  Output h = RnnLastState(s, t.x, t.weights[0], t.weights[1], h0, steps, as_while);
  t.loss = Mean(s, Reshape(s, Square(s, Sub(s, h, t.y)), {-1}), 0);
  t.train = GradientDescentOptimizer(0.5f).Minimize(s, t.loss);
  t.init = GlobalVariablesInitializer(s);
  t.x_value = RandomTensor(DT_FLOAT, {steps, batch, in}, -1, 1, 25);
  t.y_value = RandomTensor(DT_FLOAT, {batch, hidden}, -0.5, 0.5, 26);
  return t;
}

}  // namespace rill::testing
