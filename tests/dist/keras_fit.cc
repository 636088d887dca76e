// Keras's Fit on N ranks is Fit on one process with N times the batch: the program trains
// a small classifier with a global batch of 24 (24 / N per rank) and writes (one process)
// or checks against that file (N ranks) the epochs' losses and accuracies and the trained
// model's predictions, within 1e-5; and only rank 0 writes Fit's checkpoint.
//   dist_keras_fit write FILE               (one process)
//   mpirun -np N dist_keras_fit check FILE  (N ranks; rank 0 checks)
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "rill/rill.h"

namespace {

using namespace rill;

Tensor Random(int64_t rows, int64_t cols, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Tensor t(DT_FLOAT, TensorShape({rows, cols}));
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<float>()(i) = u(gen);
  return t;
}

// Labels from a fixed rule of the features, one-hot over 3 classes.
Tensor Labels(const Tensor& x) {
  const int64_t rows = x.dim_size(0), cols = x.dim_size(1);
  Tensor y(DT_FLOAT, TensorShape({rows, 3}));
  std::memset(y.data(), 0, y.TotalBytes());
  for (int64_t r = 0; r < rows; ++r) {
    const float* v = x.flat<float>().data() + r * cols;
    const int c = v[0] + v[1] > 0.5f ? 0 : (v[2] - v[3] > 0 ? 1 : 2);
    y.flat<float>()(r * 3 + c) = 1.f;
  }
  return y;
}

// Fit's checkpoint goes to a path of this rank's own: only rank 0 may have written it.
absl::Status CheckOnlyRankZeroWroteItsCheckpoint(const std::string& path) {
  const bool exists = std::ifstream(path).good();
  if (exists != (dist::Rank() == 0)) {
    return errors::Internal("rank ", dist::Rank(), (exists ? " wrote" : " did not write"),
                            " its checkpoint ", path);
  }
  std::remove(path.c_str());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<double>> Train(const std::string& checkpoint) {
  constexpr int64_t kGlobalBatch = 24;
  if (kGlobalBatch % dist::Size() != 0) {
    return errors::InvalidArgument("run on 1, 2, 3, 4, 6, 8, 12 or 24 ranks");
  }
  const Tensor x = Random(240, 5, 7), y = Labels(x), probe = Random(10, 5, 9);
  keras::ModelOptions mo;
  mo.device = "/CPU:0";
  keras::Sequential model(mo);
  model.Add(std::make_shared<keras::Dense>(16, "tanh"))
      .Add(std::make_shared<keras::Dense>(3, "softmax"));
  RILL_RETURN_IF_ERROR(model.Compile(std::make_shared<ops::MomentumOptimizer>(0.1, 0.9),
                                     "categorical_crossentropy", {"accuracy"}));
  keras::FitOptions fit;
  fit.epochs = 4;
  fit.batch_size = kGlobalBatch / dist::Size();
  fit.verbose = 0;
  fit.checkpoint_every = fit.epochs;
  fit.checkpoint_path = checkpoint;
  std::remove(checkpoint.c_str());
  RILL_ASSIGN_OR_RETURN(keras::History h, model.Fit(x, y, fit));
  RILL_RETURN_IF_ERROR(CheckOnlyRankZeroWroteItsCheckpoint(checkpoint));
  std::vector<double> values = h.history["loss"];
  for (double a : h.history["accuracy"]) values.push_back(a);
  RILL_ASSIGN_OR_RETURN(Tensor p, model.Predict(probe));
  for (int64_t i = 0; i < p.NumElements(); ++i) values.push_back(p.flat<float>()(i));
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "write") != 0 && std::strcmp(argv[1], "check") != 0)) {
    std::fprintf(stderr, "usage: dist_keras_fit write|check FILE\n");
    return 2;
  }
  if (absl::Status st = rill::dist::Init(); !st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
  }
  const std::string checkpoint =
      std::string(argv[2]) + ".rank" + std::to_string(rill::dist::Rank()) + ".ckpt";
  absl::StatusOr<std::vector<double>> got = Train(checkpoint);
  if (!got.ok()) {
    std::fprintf(stderr, "rank %d: %s\n", rill::dist::Rank(), got.status().ToString().c_str());
    return 1;
  }
  if (rill::dist::Rank() != 0) return 0;
  if (std::strcmp(argv[1], "write") == 0) {
    std::ofstream out(argv[2]);
    out.precision(17);
    for (double v : *got) out << v << "\n";
    return out ? 0 : 1;
  }
  std::ifstream in(argv[2]);
  std::vector<double> want;
  for (double v; in >> v;) want.push_back(v);
  if (want.size() != got->size()) {
    std::fprintf(stderr, "%zu reference values, %zu here\n", want.size(), got->size());
    return 1;
  }
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(want[i] - (*got)[i]));
  std::printf(
      "keras fit: %d ranks against 1 process, losses, accuracies and predictions: largest "
      "difference %.3g (%s)\n",
      rill::dist::Size(), worst, worst <= 1e-5 ? "match" : "DIFFER");
  return worst <= 1e-5 ? 0 : 1;
}
