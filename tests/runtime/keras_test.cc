// The Keras-style API: training really learns, logs look like Keras's, evaluation and
// prediction agree, the input pipeline covers every example once per epoch, and misuse is
// a Status.
#include <cmath>
#include <cstdio>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "rill/runtime/keras/dataset.h"
#include "runtime/fake_device.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace keras_test {

using keras::Dense;
using keras::Sequential;

// Two Gaussian blobs in 10 dimensions, labelled by which side of a plane they fall.
void Blobs(int n, Tensor* x, Tensor* y, uint32_t seed) {
  *x = RandomTensor(DT_FLOAT, {n, 10}, -1, 1, seed);
  *y = Tensor(DT_INT32, TensorShape({n}));
  for (int i = 0; i < n; ++i) {
    double dot = 0;
    for (int j = 0; j < 10; ++j) dot += x->base<float>()[i * 10 + j] * (j % 3 - 1.0);
    y->base<int32_t>()[i] = dot > 0 ? 1 : 0;
  }
}

keras::FitOptions Quiet() {
  keras::FitOptions o;
  o.verbose = 0;
  return o;
}

std::shared_ptr<Dense> D(int units, const char* act) { return std::make_shared<Dense>(units, act); }

TEST(Keras, FitLearnsAndPrintsWhatKerasPrints) {
  Tensor x, y;
  Blobs(1000, &x, &y, 1);
  Sequential model;
  model.Add(D(16, "relu")).Add(D(2, "softmax"));
  ASSERT_TRUE(model
                  .Compile(std::make_shared<ops::AdamOptimizer>(0.01),
                           "sparse_categorical_crossentropy", {"accuracy"})
                  .ok());
  std::ostringstream log;
  keras::FitOptions opt;
  opt.epochs = 5;
  opt.batch_size = 32;
  opt.verbose = 2;
  opt.out = &log;
  auto h = model.Fit(x, y, opt);
  ASSERT_TRUE(h.ok()) << h.status();
  const auto& loss = h->history.at("loss");
  const auto& acc = h->history.at("accuracy");
  ASSERT_EQ(loss.size(), 5u);
  EXPECT_LT(loss[4], loss[0] * 0.8);
  EXPECT_GT(acc[4], 0.9);
  std::regex line(
      "Epoch 1/5\n32/32 \\[==============================\\] - \\d+s \\d+(ms|us)/step - "
      "loss: \\d\\.\\d{4} - accuracy: \\d\\.\\d{4}\nEpoch 2/5\n");
  EXPECT_TRUE(std::regex_search(log.str(), line)) << log.str();
  auto eval = model.Evaluate(x, y);
  ASSERT_TRUE(eval.ok());
  EXPECT_EQ((*eval)[0].first, "loss");
  EXPECT_EQ((*eval)[1].first, "accuracy");
  EXPECT_GT((*eval)[1].second, 0.9);
  auto p = model.Predict(x, 100);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->shape(), TensorShape({1000, 2}));
  int right = 0;
  for (int i = 0; i < 1000; ++i) {
    const float* row = p->base<float>() + 2 * i;
    EXPECT_NEAR(row[0] + row[1], 1.0, 1e-5);
    right += (row[1] > row[0]) == (y.base<int32_t>()[i] == 1);
  }
  EXPECT_NEAR(right / 1000.0, (*eval)[1].second, 1e-6);  // the same model, the same answer
  // Where things were placed can be read back.
  auto placements = model.Placements();
  ASSERT_FALSE(placements.empty());
  for (auto& [name, device] : placements) {
    EXPECT_NE(device.find("device:"), std::string::npos) << name << " " << device;
  }
}

TEST(Keras, ValidationDataBinaryAndCategoricalLossesAndMse) {
  Tensor x, y, vx, vy;
  Blobs(400, &x, &y, 2);
  Blobs(100, &vx, &vy, 3);
  Tensor yf = FromDoubles(DT_FLOAT, {400, 1}, ToDoubles(y));
  Tensor vyf = FromDoubles(DT_FLOAT, {100, 1}, ToDoubles(vy));
  keras::FitOptions opt;
  opt.epochs = 8;
  opt.verbose = 0;
  opt.validation_data = std::make_pair(vx, vyf);
  {
    Sequential model;
    model.Add(D(8, "tanh")).Add(D(1, "sigmoid"));
    ASSERT_TRUE(model
                    .Compile(std::make_shared<ops::AdamOptimizer>(0.02), "binary_crossentropy",
                             {"accuracy"})
                    .ok());
    auto h = model.Fit(x, yf, opt);
    ASSERT_TRUE(h.ok()) << h.status();
    EXPECT_EQ(h->history.at("val_loss").size(), 8u);
    EXPECT_GT(h->history.at("val_accuracy").back(), 0.85);
  }
  {
    Tensor onehot(DT_FLOAT, TensorShape({400, 2}));
    for (int i = 0; i < 400; ++i) {
      onehot.base<float>()[2 * i] = y.base<int32_t>()[i] == 0;
      onehot.base<float>()[2 * i + 1] = y.base<int32_t>()[i] == 1;
    }
    Sequential model;
    model.Add(D(8, "relu")).Add(D(2, "softmax"));
    ASSERT_TRUE(model
                    .Compile(std::make_shared<ops::MomentumOptimizer>(0.05, 0.9),
                             "categorical_crossentropy", {"accuracy"})
                    .ok());
    opt.validation_data.reset();
    auto h = model.Fit(onehot.NumElements() ? x : x, onehot, opt);
    ASSERT_TRUE(h.ok()) << h.status();
    EXPECT_GT(h->history.at("accuracy").back(), 0.85);
  }
  {
    Sequential model;
    model.Add(D(1, "linear"));
    ASSERT_TRUE(model.Compile(std::make_shared<ops::GradientDescentOptimizer>(0.1), "mse").ok());
    auto h = model.Fit(x, yf, opt);
    ASSERT_TRUE(h.ok()) << h.status();
    EXPECT_LT(h->history.at("loss").back(), h->history.at("loss").front());
  }
}

TEST(Keras, DropoutIsOnlyActiveInTraining) {
  Tensor x, y;
  Blobs(64, &x, &y, 4);
  Sequential model;
  model.Add(std::make_shared<keras::Flatten>())
      .Add(D(32, "relu"))
      .Add(std::make_shared<keras::Dropout>(0.5))
      .Add(D(2, "softmax"));
  ASSERT_TRUE(model.Compile("sgd", "sparse_categorical_crossentropy", {"accuracy"}).ok());
  auto a = model.Predict(x);
  auto b = model.Predict(x);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ToDoubles(*a), ToDoubles(*b));
  keras::FitOptions opt;
  opt.verbose = 0;
  ASSERT_TRUE(model.Fit(x, y, opt).ok());
}

// Fit keeps the running loss and metrics on the model's device (full batches fetch
// nothing, so a step need not wait for a GPU) and fetches a smaller last batch's values:
// with weights that do not move, each epoch's figures are Evaluate's, example-weighted,
// the partial batch included.
TEST(Keras, FitAveragesFullAndPartialBatchesAsEvaluateDoes) {
  Tensor x, y;
  Blobs(100, &x, &y, 9);  // batches of 32, 32, 32 and 4
  Sequential model;
  model.Add(D(8, "relu")).Add(D(2, "softmax"));
  ASSERT_TRUE(model
                  .Compile(std::make_shared<ops::GradientDescentOptimizer>(0.0),
                           "sparse_categorical_crossentropy", {"accuracy"})
                  .ok());
  keras::FitOptions opt = Quiet();
  opt.epochs = 2;
  auto h = model.Fit(x, y, opt);
  ASSERT_TRUE(h.ok()) << h.status();
  auto eval = model.Evaluate(x, y, 7);
  ASSERT_TRUE(eval.ok()) << eval.status();
  const double loss = (*eval)[0].second, accuracy = (*eval)[1].second;
  EXPECT_GT(loss, 0.1);
  for (int e = 0; e < 2; ++e) {
    EXPECT_NEAR(h->history.at("loss")[e], loss, 1e-5 * loss);
    EXPECT_NEAR(h->history.at("accuracy")[e], accuracy, 1e-6);
  }
  // Only full batches: the sums alone.
  opt.batch_size = 25;
  opt.epochs = 1;
  h = model.Fit(x, y, opt);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_NEAR(h->history.at("loss")[0], loss, 1e-5 * loss);
  EXPECT_NEAR(h->history.at("accuracy")[0], accuracy, 1e-6);
}

TEST(Keras, CheckpointsEveryNEpochsRestore) {
  Tensor x, y;
  Blobs(64, &x, &y, 5);
  Sequential model;
  model.Add(D(4, "relu")).Add(D(2, "softmax"));
  ASSERT_TRUE(model.Compile("adam", "sparse_categorical_crossentropy").ok());
  keras::FitOptions opt;
  opt.verbose = 0;
  opt.epochs = 2;
  opt.checkpoint_every = 2;
  opt.checkpoint_path = ::testing::TempDir() + "/keras_ckpt";
  ASSERT_TRUE(model.Fit(x, y, opt).ok());
  auto before = model.Predict(x);
  opt.epochs = 1;
  opt.checkpoint_every = 0;
  ASSERT_TRUE(model.Fit(x, y, opt).ok());  // moves the weights on
  Saver saver(model.scope());
  ASSERT_TRUE(saver.Restore(*model.session(), opt.checkpoint_path).ok());
  auto after = model.Predict(x);
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_EQ(ToDoubles(*before), ToDoubles(*after));
  std::remove(opt.checkpoint_path.c_str());
}

TEST(Keras, MisuseIsAStatus) {
  Tensor x, y;
  Blobs(16, &x, &y, 6);
  {
    Sequential m;
    m.Add(D(2, "softmax"));
    EXPECT_EQ(m.Fit(x, y).status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_FALSE(m.Compile("nadam", "mse").ok());
  }
  auto fails = [&](const char* act, const char* loss, const std::vector<std::string>& metrics,
                   const Tensor& xx, const Tensor& yy) {
    Sequential m;
    m.Add(D(2, act));
    absl::Status st = m.Compile("sgd", loss, metrics);
    if (st.ok()) st = m.Fit(xx, yy, Quiet()).status();
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
    return st;
  };
  (void)fails("swish", "mse", {}, x, y);
  (void)fails("softmax", "hinge", {}, x, y);
  (void)fails("softmax", "mse", {"accuracy"}, x, y);
  (void)fails("softmax", "sparse_categorical_crossentropy", {"auc"}, x, y);
  (void)fails("softmax", "sparse_categorical_crossentropy", {},
              Tensor(DT_INT32, TensorShape({16, 10})), y);
  (void)fails("softmax", "sparse_categorical_crossentropy", {}, x,
              Tensor(DT_INT32, TensorShape({15})));
  (void)fails("softmax", "sparse_categorical_crossentropy", {},
              Tensor(DT_FLOAT, TensorShape({16, 2, 5})), y);
  // Labels out of range reach the loss kernel: a Status naming the label, not a crash.
  Tensor bad = FromDoubles(DT_INT32, y.shape(), ToDoubles(y));  // a copy, not a view
  bad.base<int32_t>()[3] = 7;
  (void)fails("softmax", "sparse_categorical_crossentropy", {}, x, bad);
  // A model built for 10 features refuses 9.
  Sequential m;
  m.Add(D(2, "softmax"));
  ASSERT_TRUE(m.Compile("sgd", "sparse_categorical_crossentropy").ok());
  auto fit = m.Fit(x, y, Quiet());
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_EQ(m.Predict(Tensor(DT_FLOAT, TensorShape({4, 9}))).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(Keras, SmallConvNetLearnsWhereTheBlobIs) {
  // 8x8 single-channel images; class 1 when a bright 2x2 blob sits in the right half.
  const int n = 256;
  Tensor x = RandomTensor(DT_FLOAT, {n, 8, 8, 1}, 0, 0.3, 7);
  Tensor y(DT_INT32, TensorShape({n}));
  std::mt19937 gen(8);
  for (int i = 0; i < n; ++i) {
    const int right = static_cast<int>(gen() % 2), row = static_cast<int>(gen() % 7);
    const int col = right ? 4 + static_cast<int>(gen() % 3) : static_cast<int>(gen() % 3);
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) x.base<float>()[(i * 8 + row + a) * 8 + col + b] = 1.f;
    y.base<int32_t>()[i] = right;
  }
  Sequential model;
  model.Add(std::make_shared<keras::Conv2D>(4, 3, "relu", "same"))
      .Add(std::make_shared<keras::MaxPool2D>(2))
      .Add(std::make_shared<keras::Flatten>())
      .Add(D(2, "softmax"));
  ASSERT_TRUE(model
                  .Compile(std::make_shared<ops::AdamOptimizer>(0.02),
                           "sparse_categorical_crossentropy", {"accuracy"})
                  .ok());
  keras::FitOptions opt = Quiet();
  opt.epochs = 15;
  auto h = model.Fit(x, y, opt);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_GT(h->history.at("accuracy").back(), 0.9);
  auto p = model.Predict(x);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->shape(), TensorShape({n, 2}));
  // A convolution needs images.
  Sequential bad;
  bad.Add(std::make_shared<keras::Conv2D>(4, 3));
  EXPECT_EQ(bad.Predict(Tensor(DT_FLOAT, TensorShape({2, 10}))).status().code(),
            absl::StatusCode::kInvalidArgument);
  Sequential bad_pad;
  bad_pad.Add(std::make_shared<keras::MaxPool2D>(2, 2, "full"));
  EXPECT_EQ(bad_pad.Predict(x).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Keras, BatchIteratorCoversEveryExampleOncePerEpoch) {
  Tensor x(DT_FLOAT, TensorShape({103, 2}));
  for (int i = 0; i < 206; ++i) x.base<float>()[i] = static_cast<float>(i / 2);
  auto data = keras::Dataset::FromTensors(x);
  ASSERT_TRUE(data.ok());
  for (bool shuffle : {false, true}) {
    keras::BatchIterator it(*data, 10, shuffle, 7);
    EXPECT_EQ(it.num_batches(), 11);
    std::multiset<float> seen;
    std::vector<float> order;
    int batches = 0;
    while (auto b = it.Next()) {
      ++batches;
      EXPECT_EQ(b->size, batches == 11 ? 3 : 10);
      for (int64_t r = 0; r < b->size; ++r) {
        EXPECT_EQ(b->x.base<float>()[2 * r], b->x.base<float>()[2 * r + 1]);  // rows intact
        seen.insert(b->x.base<float>()[2 * r]);
        order.push_back(b->x.base<float>()[2 * r]);
      }
    }
    EXPECT_EQ(batches, 11);
    ASSERT_EQ(seen.size(), 103u);
    for (int i = 0; i < 103; ++i) EXPECT_EQ(seen.count(static_cast<float>(i)), 1u);
    EXPECT_EQ(std::is_sorted(order.begin(), order.end()), !shuffle);
  }
  // Batches prepared in a device's staging memory (a GPU's pinned host memory) while it
  // has room, in ordinary memory after that; the same rows either way.
  CachingAllocator staging("staging", std::make_unique<FakeMemory>(1024), /*on_host=*/true);
  keras::BatchIterator staged(*data, 10, false, 7, &staging);
  int in_staging = 0, elsewhere = 0;
  std::vector<keras::Batch> kept;  // held, so the staging memory runs out
  while (auto b = staged.Next()) {
    (b->x.allocator() == &staging ? in_staging : elsewhere)++;
    EXPECT_TRUE(b->x.OnHost());
    EXPECT_EQ(b->x.base<float>()[0], static_cast<float>(10 * kept.size()));
    kept.push_back(std::move(*b));
  }
  EXPECT_GE(in_staging, 1);
  EXPECT_GE(elsewhere, 1);
  EXPECT_FALSE(keras::Dataset::FromTensors(x, Tensor(DT_INT32, TensorShape({5}))).ok());
  // Stopped early: the worker thread ends cleanly.
  keras::BatchIterator early(*data, 1, true, 1);
  EXPECT_TRUE(early.Next().has_value());
}

}  // namespace keras_test
}  // namespace
}  // namespace rill::testing
