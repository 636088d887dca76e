// libFuzzer target for the Keras API: the bytes choose a Sequential of 0 to 3 layers
// (Dense, Conv2D, MaxPool2D, Flatten, Dropout, Activation or null, with sizes that include 0,
// negatives and int64 extremes), its compile settings, small data (0 to 6 rows, labels
// in or out of range) and the arguments of Fit, Evaluate and Predict (batch sizes and
// epochs from the same extremes). Every call must return OK or a Status with a message
// that is not Internal; a crash, a sanitizer report or a silent wrong size is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>

#include "rill/rill.h"
#include "support/random_program.h"

namespace {

using namespace rill;  // NOLINT

constexpr int64_t kSizes[] = {0,
                              1,
                              2,
                              3,
                              -1,
                              int64_t{1} << 31,
                              int64_t{1} << 40,
                              int64_t{1} << 62,
                              std::numeric_limits<int64_t>::max(),
                              std::numeric_limits<int64_t>::min()};

int64_t Size(testing::Choices& c, int lo, int hi) {
  if (c.Int(0, 3) == 0) return kSizes[c.Int(0, std::size(kSizes) - 1)];
  return c.Int(lo, hi);
}

std::string Activation(testing::Choices& c) {
  const char* a[] = {"relu", "softmax", "sigmoid", "tanh", "linear", "bogus"};
  return a[c.Int(0, 5)];
}

std::shared_ptr<keras::Layer> ChosenLayer(testing::Choices& c) {
  switch (c.Int(0, 6)) {
    case 6:
      return nullptr;  // a user's mistake, to be refused
    case 0:
      return std::make_shared<keras::Dense>(Size(c, 1, 4), Activation(c), c.Coin());
    case 1:
      return std::make_shared<keras::Conv2D>(Size(c, 1, 3), Size(c, 1, 3), Activation(c),
                                             c.Coin() ? "same" : (c.Coin() ? "valid" : "odd"),
                                             Size(c, 1, 2));
    case 2:
      return std::make_shared<keras::MaxPool2D>(Size(c, 1, 3), Size(c, 0, 2),
                                                c.Coin() ? "same" : "valid");
    case 3:
      return std::make_shared<keras::Flatten>();
    case 4:
      return std::make_shared<keras::Dropout>(c.Int(-2, 12) / 10.0);
    default:
      return std::make_shared<keras::Activation>(Activation(c));
  }
}

// A Status from a public call: OK or a refusal with a message, never Internal.
void Check(const absl::Status& st) {
  if (!st.ok() && (st.message().empty() || st.code() == absl::StatusCode::kInternal)) {
    std::fprintf(stderr, "keras_fuzzer: %s\n", st.ToString().c_str());
    __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  testing::ByteChoices c(absl::MakeConstSpan(data, size));
  keras::Sequential model;
  const int layers = c.Int(0, 3);
  for (int i = 0; i < layers; ++i) model.Add(ChosenLayer(c));
  const char* optimizers[] = {"sgd", "momentum", "adam", "nope"};
  const char* losses[] = {"sparse_categorical_crossentropy", "categorical_crossentropy",
                          "binary_crossentropy", "mse", "hinge"};
  const char* metrics[] = {"accuracy", "mae", "bogus"};
  std::vector<std::string> chosen_metrics;
  if (c.Coin()) chosen_metrics.push_back(metrics[c.Int(0, 2)]);
  Check(model.Compile(optimizers[c.Int(0, 3)], losses[c.Int(0, 4)], chosen_metrics));

  const int64_t rows = c.Int(0, 6);
  const bool images = c.Coin();
  const TensorShape xs = images ? TensorShape({rows, 4, 4, 1}) : TensorShape({rows, 4});
  Tensor x = testing::ChosenTensor(c, DT_FLOAT, {xs.dim_sizes().begin(), xs.dim_sizes().end()},
                                   /*wild=*/true);
  const DataType label_type = c.Coin() ? DT_INT32 : DT_FLOAT;
  std::vector<int64_t> ys = {rows};
  if (c.Coin()) ys.push_back(c.Int(1, 3));
  Tensor y = testing::ChosenTensor(c, label_type, ys, /*wild=*/true);

  keras::FitOptions fit;
  fit.verbose = 0;
  fit.epochs = static_cast<int>(c.Int(-1, 2));
  fit.batch_size = Size(c, 1, 4);
  fit.shuffle = c.Coin();
  if (c.Int(0, 3) == 0) fit.validation_data = std::make_pair(x, y);
  auto h = model.Fit(x, y, fit);
  Check(h.status());
  if (h.ok()) {
    for (const auto& [name, values] : h->history) {
      if (values.size() != static_cast<size_t>(fit.epochs)) __builtin_trap();
    }
  }
  Check(model.Evaluate(x, y, Size(c, 1, 4)).status());
  auto p = model.Predict(x, Size(c, 1, 4));
  Check(p.status());
  if (p.ok() && (p->dims() < 1 || p->dim_size(0) != rows)) __builtin_trap();  // one row per row
  return 0;
}
