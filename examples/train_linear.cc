// The seed's first pipeline: 1000 rows x 10 columns of synthetic data, a Keras-style model,
// batches of 32, 5 epochs; loss falls and accuracy rises epoch by epoch, and the program
// says where each tensor was placed.
//   train_linear [--epochs=5] [--batch_size=32] [--rows=1000] [--device=/GPU:0]
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>

#include "absl/flags/flag.h"
#include "example_flags.h"
#include "rill/rill.h"

ABSL_FLAG(int, epochs, 5, "passes over the data");
ABSL_FLAG(int, batch_size, 32, "examples per step");
ABSL_FLAG(int, rows, 1000, "synthetic examples (10 features each)");
ABSL_FLAG(std::string, device, "",
          "device for the model (/CPU:0, /GPU:0); default: the GPU "
          "when present");
ABSL_FLAG(double, learning_rate, 0.1, "SGD learning rate");
ABSL_FLAG(uint64_t, seed, 7, "seed of the data and the weights");

int main(int argc, char** argv) {
  rill::examples::ParseFlags(
      argc, argv,
      "Trains a logistic-regression model (Dense(1, sigmoid)) on synthetic data with the "
      "Keras-style API and prints loss and accuracy per epoch and the placement of each tensor.");
  const int rows = absl::GetFlag(FLAGS_rows), epochs = absl::GetFlag(FLAGS_epochs);
  const int batch = absl::GetFlag(FLAGS_batch_size);
  if (rows < 1 || epochs < 1 || batch < 1) {
    std::fprintf(stderr, "train_linear: --rows, --epochs and --batch_size must be >= 1\n");
    return 2;
  }
  if (const double lr = absl::GetFlag(FLAGS_learning_rate); !(lr > 0) || !std::isfinite(lr)) {
    std::fprintf(stderr, "train_linear: --learning_rate must be a positive number, got %g\n", lr);
    return 2;
  }
  // x ~ U(-1, 1)^10; y = 1 when w.x + noise > 0 for a fixed hidden w.
  std::mt19937_64 gen(absl::GetFlag(FLAGS_seed));
  std::uniform_real_distribution<float> u(-1, 1);
  std::normal_distribution<float> noise(0, 0.3f);
  const float w[10] = {1.5f, -2, 0.5f, 1, -1, 0.25f, 2, -0.5f, 0, 1};
  rill::Tensor x(rill::DT_FLOAT, rill::TensorShape({rows, 10}));
  rill::Tensor y(rill::DT_FLOAT, rill::TensorShape({rows, 1}));
  for (int r = 0; r < rows; ++r) {
    float dot = noise(gen);
    for (int c = 0; c < 10; ++c) {
      const float v = u(gen);
      x.base<float>()[r * 10 + c] = v;
      dot += v * w[c];
    }
    y.base<float>()[r] = dot > 0 ? 1.f : 0.f;
  }

  rill::keras::ModelOptions options;
  options.device = absl::GetFlag(FLAGS_device);
  options.seed = absl::GetFlag(FLAGS_seed);
  rill::keras::Sequential model(options);
  model.Add(std::make_shared<rill::keras::Dense>(1, "sigmoid"));
  auto status = model.Compile(
      std::make_shared<rill::ops::GradientDescentOptimizer>(absl::GetFlag(FLAGS_learning_rate)),
      "binary_crossentropy", {"accuracy"});
  rill::keras::FitOptions fit;
  fit.epochs = epochs;
  fit.batch_size = batch;
  auto history = status.ok() ? model.Fit(x, y, fit) : absl::StatusOr<rill::keras::History>(status);
  if (!history.ok()) {
    std::fprintf(stderr, "train_linear: %s\n", std::string(history.status().message()).c_str());
    return 1;
  }
  const auto& loss = history->history.at("loss");
  const auto& acc = history->history.at("accuracy");
  std::printf("\nloss %.4f -> %.4f, accuracy %.4f -> %.4f over %d epochs\n", loss.front(),
              loss.back(), acc.front(), acc.back(), epochs);
  std::printf("\nPlacement:\n");
  for (const auto& [name, device] : model.Placements()) {
    std::printf("  %-40s %s\n", name.c_str(), device.c_str());
  }
  return loss.back() < loss.front() && acc.back() >= acc.front() ? 0 : 3;
}
