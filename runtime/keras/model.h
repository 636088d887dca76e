// Keras-style models on top of the graph: Sequential builds a graph (reachable through
// scope()) and runs it in a Session of its own.
//   keras::Sequential model;
//   model.Add(std::make_shared<keras::Dense>(16, "relu"))
//        .Add(std::make_shared<keras::Dense>(2, "softmax"));
//   model.Compile("adam", "sparse_categorical_crossentropy", {"accuracy"});
//   auto history = model.Fit(x, y, {.epochs = 5, .batch_size = 32});
#pragma once

#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/ops/optimizers.h"
#include "rill/runtime/keras/layers.h"
#include "rill/runtime/keras/progress.h"
#include "rill/runtime/session.h"

namespace rill::keras {

struct ModelOptions {
  std::string device;  // "" = the placer's default (the GPU when present)
  uint64_t seed = 42;  // weight initialisation and dropout
  // Graph mode on (SessionOptions::cuda_graphs): on a GPU, Fit's full-batch steps are
  // recorded once as a CUDA graph and replayed (FitStepGraphStats says whether, or why
  // not); without a GPU it changes nothing. `session.cuda_graphs = false` runs every step
  // node by node.
  SessionOptions session = [] {
    SessionOptions o;
    o.cuda_graphs = true;
    return o;
  }();
};

struct CompileOptions {
  bool from_logits = false;  // crossentropy on raw outputs of a linear last layer
};

struct FitOptions {
  int epochs = 1;
  int64_t batch_size = 32;
  bool shuffle = true;
  uint64_t shuffle_seed = 1;
  std::optional<std::pair<Tensor, Tensor>> validation_data;
  int verbose = 1;  // 0 silent; 1 a bar (live on a terminal); 2 one line per epoch
  std::ostream* out = &std::cout;
  // Save every variable to this path every `checkpoint_every` epochs (0: never).
  std::string checkpoint_path;
  int checkpoint_every = 0;
};

struct History {
  // "loss", each metric, and "val_..." with validation data: one value per epoch.
  std::map<std::string, std::vector<double>> history;
  std::vector<double> epoch_seconds;
};

class Sequential {
 public:
  explicit Sequential(ModelOptions options = {});
  ~Sequential();
  Sequential& Add(std::shared_ptr<Layer> layer);

  // optimizer: "sgd" (0.01), "momentum" (0.01, 0.9), "adam", "rmsprop", "adagrad",
  // "adadelta", "adamax" (Keras's defaults: learning rate 0.001, epsilon 1e-7), or an
  // Optimizer.
  // loss: sparse_categorical_crossentropy, categorical_crossentropy, binary_crossentropy,
  // mse. metrics: "accuracy" (the kind that fits the loss), or sparse_categorical_accuracy,
  // categorical_accuracy, binary_accuracy.
  absl::Status Compile(std::shared_ptr<ops::Optimizer> optimizer, const std::string& loss,
                       const std::vector<std::string>& metrics = {}, CompileOptions options = {});
  absl::Status Compile(const std::string& optimizer, const std::string& loss,
                       const std::vector<std::string>& metrics = {}, CompileOptions options = {});

  absl::StatusOr<History> Fit(const Tensor& x, const Tensor& y, const FitOptions& options = {});
  // ("loss", value), then each metric, averaged over the examples.
  absl::StatusOr<Metrics> Evaluate(const Tensor& x, const Tensor& y, int64_t batch_size = 32);
  absl::StatusOr<Tensor> Predict(const Tensor& x, int64_t batch_size = 32);
  // One training step on the batch (x, y), traced: the weights are updated as by Fit, and
  // `metadata` gets what ran where and when (write it with WriteChromeTrace).
  absl::Status TraceTrainStep(const Tensor& x, const Tensor& y, RunMetadata* metadata);

  // The graph and session underneath, once the model is built (by the first Fit,
  // Evaluate or Predict).
  const Scope& scope() const;
  Session* session();
  // What graph mode (ModelOptions::session.cuda_graphs) made of Fit's full-batch steps.
  absl::StatusOr<StepGraphStats> FitStepGraphStats() const;
  // The model's input placeholder and its prediction, once built (as Keras' model.input
  // and model.output); empty Outputs before.
  Output input() const;
  Output output() const;
  // (name, device) of every variable and of the model's input and output, once run.
  std::vector<std::pair<std::string, std::string>> Placements() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rill::keras
