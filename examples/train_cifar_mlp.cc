// The seed's CIFAR-10 MLP: Flatten(32x32x3) -> Dense 3000 ReLU -> Dense 1000 ReLU ->
// Dense 10 sigmoid (--softmax for the usual head), SGD, categorical cross entropy,
// 10 epochs of batch 32, timed per device. Without CIFAR-10 on disk it trains on
// synthetic data of the same shape and count, and says so first and last.
//   train_cifar_mlp [--data_dir=DIR] [--device=cpu|gpu|both] [--epochs=10] [--softmax]
//                   [--trace=F.json]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/flags/flag.h"
#include "example_flags.h"
#include "ranks.h"
#include "rill/rill.h"
#include "rill/runtime/data/cifar.h"
#include "rill/runtime/file_util.h"
#include "step_graphs.h"

ABSL_FLAG(std::string, data_dir, "",
          "directory of data_batch_{1..5}.bin and test_batch.bin (default: $CIFAR10_DIR)");
ABSL_FLAG(std::string, device, "both", "cpu, gpu, or both (both = each device present)");
ABSL_FLAG(int, epochs, 10, "passes over the training data");
ABSL_FLAG(int, batch_size, 32, "examples per step");
ABSL_FLAG(bool, softmax, false,
          "a softmax output layer instead of the default 10 independent sigmoids");
ABSL_FLAG(double, learning_rate, 0.01, "SGD learning rate (Keras's default)");
ABSL_FLAG(bool, tf32, false,
          "let the GPU's matrix products use TF32 tensor cores (TensorFlow's default on such "
          "GPUs; rill's is full float32)");
ABSL_FLAG(bool, cuda_graphs, true,
          "on a GPU, replay each full training step as a CUDA graph (Keras's default; "
          "--nocuda_graphs runs every step node by node)");
ABSL_FLAG(int64_t, train_examples, 50000, "training examples used (at most the data's)");
ABSL_FLAG(int64_t, test_examples, 10000, "test examples used (at most the data's)");
ABSL_FLAG(std::string, trace, "",
          "after training, trace one more training step per device: Chrome trace JSON here "
          "(the device's name is inserted before .json when both run), and a table of the top "
          "ops by time");

namespace {

using namespace rill;  // NOLINT

Tensor OneHot(const Tensor& labels, int64_t n) {
  Tensor out(DT_FLOAT, TensorShape({n, 10}));
  out.flat<float>().setZero();
  for (int64_t i = 0; i < n; ++i) out.base<float>()[i * 10 + labels.base<int32_t>()[i]] = 1;
  return out;
}

Tensor Rows(const Tensor& t, int64_t n) {  // the first n rows, sharing the buffer
  std::vector<int64_t> dims(t.shape().dim_sizes().begin(), t.shape().dim_sizes().end());
  dims[0] = n;
  if (n == t.dim_size(0)) return t;
  Tensor copy(t.dtype(), *TensorShape::Build(dims));
  std::memcpy(copy.data(), t.data(), copy.TotalBytes());
  return copy;
}

struct Result {
  double seconds = 0, ms_per_step = 0, test_accuracy = 0, examples_per_second = 0;
  // The same over the epochs after the first (with --epochs >= 2): steps without the first
  // step's plan, memory and page faults, as benchmarks time them after warm-up steps.
  double later_ms_per_step = 0, later_examples_per_second = 0;
};

// Traces one more training step and writes it to --trace (with the device's name when both
// devices run) and prints the top ops.
absl::Status TraceOneStep(keras::Sequential& model, const Tensor& x, const Tensor& y,
                          const std::string& device_name, bool both) {
  std::string path = examples::RankPath(absl::GetFlag(FLAGS_trace));
  if (both) {
    const size_t dot = path.rfind(".json");
    path.insert(dot == std::string::npos ? path.size() : dot, "." + device_name);
  }
  const int64_t batch = std::min<int64_t>(absl::GetFlag(FLAGS_batch_size), x.dim_size(0));
  RunMetadata meta;
  RILL_RETURN_IF_ERROR(model.TraceTrainStep(Rows(x, batch), Rows(y, batch), &meta));
  RILL_RETURN_IF_ERROR(WriteChromeTrace(meta.step_stats, path));
  std::printf("trace of one training step: %s\n%s", path.c_str(),
              SummarizeStepStats(meta.step_stats, 8).c_str());
  return absl::OkStatus();
}

absl::StatusOr<Result> Train(const std::string& device, const std::string& device_name, bool both,
                             const data::Cifar10& d) {
  keras::ModelOptions mo;
  mo.device = device;
  mo.session.allow_tf32 = absl::GetFlag(FLAGS_tf32);
  mo.session.cuda_graphs = absl::GetFlag(FLAGS_cuda_graphs);
  keras::Sequential model(mo);
  model.Add(std::make_shared<keras::Flatten>())
      .Add(std::make_shared<keras::Dense>(3000, "relu"))
      .Add(std::make_shared<keras::Dense>(1000, "relu"))
      .Add(
          std::make_shared<keras::Dense>(10, absl::GetFlag(FLAGS_softmax) ? "softmax" : "sigmoid"));
  RILL_RETURN_IF_ERROR(model.Compile(
      std::make_shared<ops::GradientDescentOptimizer>(absl::GetFlag(FLAGS_learning_rate)),
      "categorical_crossentropy", {"accuracy"}));
  const int64_t n = std::min(absl::GetFlag(FLAGS_train_examples), d.train.images.dim_size(0));
  const int64_t nt = std::min(absl::GetFlag(FLAGS_test_examples), d.test.images.dim_size(0));
  keras::FitOptions fit;
  fit.epochs = absl::GetFlag(FLAGS_epochs);
  fit.batch_size = absl::GetFlag(FLAGS_batch_size);
  const Tensor x = Rows(d.train.images, n), y = OneHot(d.train.labels, n);
  RILL_ASSIGN_OR_RETURN(keras::History h, model.Fit(x, y, fit));
  if (absl::GetFlag(FLAGS_cuda_graphs)) rill::examples::PrintStepGraphs(model);
  Result r;
  for (double s : h.epoch_seconds) r.seconds += s;
  const int64_t steps_per_epoch = examples::StepsPerEpoch(n, fit.batch_size);
  r.examples_per_second = static_cast<double>(n * fit.epochs) / r.seconds;
  r.ms_per_step = 1e3 * r.seconds / static_cast<double>(steps_per_epoch * fit.epochs);
  if (const int64_t later_epochs = static_cast<int64_t>(h.epoch_seconds.size()) - 1;
      later_epochs >= 1) {
    const double later = r.seconds - h.epoch_seconds[0];
    r.later_ms_per_step = 1e3 * later / static_cast<double>(steps_per_epoch * later_epochs);
    r.later_examples_per_second = static_cast<double>(n * later_epochs) / later;
  }
  RILL_ASSIGN_OR_RETURN(auto eval, model.Evaluate(Rows(d.test.images, nt),
                                                  OneHot(d.test.labels, nt), fit.batch_size));
  r.test_accuracy = eval[1].second;
  if (!absl::GetFlag(FLAGS_trace).empty()) {
    RILL_RETURN_IF_ERROR(TraceOneStep(model, x, y, device_name, both));
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  rill::examples::ParseFlags(
      argc, argv,
      "Trains a multilayer perceptron on CIFAR-10's 32x32 colour images (flattened, dense 3000\n"
      "ReLU, dense 1000 ReLU, 10 sigmoid outputs; SGD on categorical cross-entropy) and times\n"
      "its training steps per device. Without the CIFAR-10 files it trains on synthetic data\n"
      "of the same shape and says so.");
  const std::string which = absl::GetFlag(FLAGS_device);
  if (which != "cpu" && which != "gpu" && which != "both") {
    std::fprintf(stderr, "train_cifar_mlp: --device must be cpu, gpu or both, got '%s'\n",
                 which.c_str());
    return 2;
  }
  if (absl::GetFlag(FLAGS_epochs) < 1 || absl::GetFlag(FLAGS_batch_size) < 1 ||
      absl::GetFlag(FLAGS_train_examples) < 1 || absl::GetFlag(FLAGS_test_examples) < 1) {
    std::fprintf(stderr, "train_cifar_mlp: epochs, batch_size and example counts must be >= 1\n");
    return 2;
  }
  const double lr = absl::GetFlag(FLAGS_learning_rate);
  if (!(lr > 0) || !std::isfinite(lr)) {
    std::fprintf(stderr, "train_cifar_mlp: --learning_rate must be a positive number, got %g\n",
                 lr);
    return 2;
  }
  if (const std::string trace = absl::GetFlag(FLAGS_trace); !trace.empty()) {
    if (absl::Status st = CheckWritable(trace, "--trace"); !st.ok()) {
      std::fprintf(stderr, "train_cifar_mlp: %s\n", st.ToString().c_str());
      return 2;
    }
  }
  std::string dir = absl::GetFlag(FLAGS_data_dir);
  if (dir.empty() && std::getenv("CIFAR10_DIR") != nullptr) dir = std::getenv("CIFAR10_DIR");
  data::Cifar10 d;
  std::string banner;
  absl::StatusOr<data::Cifar10> loaded =
      dir.empty() ? absl::NotFoundError("no --data_dir or $CIFAR10_DIR given")
                  : data::LoadCifar10(dir);
  if (loaded.ok()) {
    d = *std::move(loaded);
    banner = "DATA: CIFAR-10 from " + dir;
  } else {
    auto synthetic =
        data::SyntheticCifar10(std::min<int64_t>(absl::GetFlag(FLAGS_train_examples), 50000),
                               std::min<int64_t>(absl::GetFlag(FLAGS_test_examples), 10000), 1);
    if (!synthetic.ok()) {
      std::fprintf(stderr, "train_cifar_mlp: %s\n", synthetic.status().ToString().c_str());
      return 1;
    }
    d = *std::move(synthetic);
    banner = "DATA: *** SYNTHETIC *** CIFAR-10-shaped data (" +
             std::string(loaded.status().message()) +
             "); timings are real, accuracies say nothing about CIFAR-10";
  }
  if (!rill::examples::JoinRanks("train_cifar_mlp")) return 1;
  std::printf("%s\n", banner.c_str());
  bool have_gpu = false;
  for (const auto& dev : DeviceSet::Local().devices()) have_gpu |= dev->device_type() == DEVICE_GPU;
  std::vector<std::pair<std::string, std::string>> runs;
  if (which != "gpu") runs.push_back({"CPU", "/CPU:0"});
  if (which != "cpu") {
    if (have_gpu) {
      runs.push_back({"GPU", "/GPU:0"});
    } else if (which == "gpu") {
      std::fprintf(stderr, "train_cifar_mlp: --device=gpu but no GPU is present\n");
      return 2;
    } else {
      std::printf("no GPU present: CPU only\n");
    }
  }
  std::vector<Result> results;
  for (const auto& [name, device] : runs) {
    std::printf("== %s (%s) ==\n", name.c_str(), device.c_str());
    auto r = Train(device, name, runs.size() == 2, d);
    if (!r.ok()) {
      std::fprintf(stderr, "train_cifar_mlp: %s\n", std::string(r.status().message()).c_str());
      return 1;
    }
    results.push_back(*r);
  }
  std::printf("\n%-6s %12s %12s %12s %14s\n", "device", "total (s)", "ms/step", "examples/s",
              "test accuracy");
  for (size_t i = 0; i < runs.size(); ++i) {
    std::printf("%-6s %12.1f %12.2f %12.0f %14.4f\n", runs[i].first.c_str(), results[i].seconds,
                results[i].ms_per_step, results[i].examples_per_second, results[i].test_accuracy);
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    if (results[i].later_ms_per_step == 0) continue;
    std::printf("%s after the first epoch: %.2f ms/step, %.0f examples/s\n", runs[i].first.c_str(),
                results[i].later_ms_per_step, results[i].later_examples_per_second);
  }
  if (results.size() == 2) {
    std::printf("GPU is %.1fx faster than CPU per step\n",
                results[0].ms_per_step / results[1].ms_per_step);
  }
  std::printf("%s\n", banner.c_str());
  return 0;
}
