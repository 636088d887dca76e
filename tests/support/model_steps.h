// The training steps of the seeds' two models, built with ops:: as a TensorFlow user
// writes them (the Keras models compose the same ops): for tests and benchmarks that
// need the step itself as a callable (feeds x and y, target train).
#pragma once

#include "rill/rill.h"

namespace rill::testing {

struct TrainStep {
  Scope scope = Scope::NewRootScope();
  Output x, y, loss;
  std::vector<Output> weights;  // the Variables it trains (RnnStep's)
  Operation train, init;
  Tensor x_value, y_value;            // one batch
  CallableOptions Signature() const;  // feeds x, y; runs train; fetches nothing
};

// Flatten(32x32x3) -> Dense(h1, relu) -> Dense(h2, relu) -> Dense(10, sigmoid), Keras's
// categorical cross-entropy, SGD (0.01). The seed's sizes: h1 = 3000, h2 = 1000, batch 32.
TrainStep CifarMlpStep(int64_t batch, int64_t h1, int64_t h2);

// Conv 5x5 (c1, relu, same) -> MaxPool 2 -> Conv 5x5 (c2, relu, same) -> MaxPool 2 ->
// Dense(d, relu) -> Dense(10), softmax cross-entropy of the labels, Adam (0.001), on
// 28x28x1 images. The seed's sizes: c1 = 32, c2 = 64, d = 1024, batch 50.
TrainStep MnistCnnStep(int64_t batch, int64_t c1, int64_t c2, int64_t d);

// A recurrent net h <- tanh(x[t] W + h U) over `steps` steps of x [steps, batch, in] from
// h = 0, the mean squared error of the last h against y [batch, hidden], SGD (0.5). As a
// While (BuildWhileLoop, so its gradient goes through the loop) or unrolled by hand, with
// the same initial weights.
TrainStep RnnStep(int64_t steps, int64_t batch, int64_t in, int64_t hidden, bool as_while);

}  // namespace rill::testing
