// Regressions of the outside attack of November 2026 on the Keras API (defects 5 and 6
// of docs/robustness.md's table): sizes that overflow or cannot be allocated, batch sizes
// near INT64_MAX, empty data and bad checkpoint paths are a Status before any training.
#include <limits>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace hardening_keras_test {

using keras::Sequential;

keras::FitOptions Quiet(int64_t batch_size) {
  keras::FitOptions o;
  o.verbose = 0;
  o.batch_size = batch_size;
  return o;
}

// Ten rows of 4 features, three classes.
void Data(int rows, Tensor* x, Tensor* y) {
  *x = RandomTensor(DT_FLOAT, TensorShape({rows, 4}), -1, 1, 7);
  *y = Tensor(DT_INT32, TensorShape({rows}));
  for (int i = 0; i < rows; ++i) y->base<int32_t>()[i] = i % 3;
}

absl::Status Compiled(Sequential* model, std::shared_ptr<keras::Layer> layer) {
  model->Add(layer);
  return model->Compile("sgd", "sparse_categorical_crossentropy", {"accuracy"});
}

// Defect 5: Dense(2^40) and Conv2D with a huge kernel wrote through a null buffer.
TEST(Hardening, KerasLayersTooLargeForMemoryAreResourceExhausted) {
  Tensor x, y;
  Data(10, &x, &y);
  for (int64_t units : {int64_t{1} << 40, int64_t{1} << 62, std::numeric_limits<int64_t>::max()}) {
    Sequential model;
    ASSERT_TRUE(Compiled(&model, std::make_shared<keras::Dense>(units, "softmax")).ok());
    auto h = model.Fit(x, y, Quiet(4));
    ASSERT_FALSE(h.ok()) << units;
    EXPECT_TRUE(h.status().code() == absl::StatusCode::kResourceExhausted ||
                h.status().code() == absl::StatusCode::kInvalidArgument)
        << h.status();
  }
  Tensor images = RandomTensor(DT_FLOAT, TensorShape({2, 4, 4, 1}), 0, 1, 1);
  Tensor labels(DT_INT32, TensorShape({2}));
  labels.flat<int32_t>().setZero();
  for (int64_t k : {int64_t{1} << 20, int64_t{1} << 32}) {
    Sequential model;
    model.Add(std::make_shared<keras::Conv2D>(3, k, "relu", "same"))
        .Add(std::make_shared<keras::Flatten>());
    ASSERT_TRUE(model.Compile("sgd", "sparse_categorical_crossentropy").ok());
    auto h = model.Fit(images, labels, Quiet(2));
    ASSERT_FALSE(h.ok()) << k;
    EXPECT_TRUE(h.status().code() == absl::StatusCode::kResourceExhausted ||
                h.status().code() == absl::StatusCode::kInvalidArgument)
        << h.status();
  }
}

// Defect 6: batch_size near INT64_MAX wrapped the batch count to 0 (Fit: loss 0,
// Evaluate: no metrics, Predict: a [0,3] tensor); now one batch holds every row.
TEST(Hardening, KerasBatchSizesNearInt64MaxAreOneBatch) {
  Tensor x, y;
  Data(10, &x, &y);
  Sequential model;
  ASSERT_TRUE(Compiled(&model, std::make_shared<keras::Dense>(3, "softmax")).ok());
  const int64_t big = std::numeric_limits<int64_t>::max();
  for (int64_t batch : {big, big - 1, int64_t{1} << 62}) {
    auto h = model.Fit(x, y, Quiet(batch));
    ASSERT_TRUE(h.ok()) << h.status();
    EXPECT_GT(h->history.at("loss")[0], 0.1);  // about ln 3 for an untrained model
    auto m = model.Evaluate(x, y, batch);
    ASSERT_TRUE(m.ok()) << m.status();
    ASSERT_EQ(m->size(), 2u);
    EXPECT_GT(m->at(0).second, 0.1);
    auto p = model.Predict(x, batch);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->shape(), TensorShape({10, 3}));
  }
}

// Defect 6: Evaluate and Predict took batch_size 0 and -1; Fit and Evaluate on 0 rows
// returned made-up figures; empty validation data added no val_ metrics silently.
TEST(Hardening, KerasBadBatchSizesAndEmptyDataAreInvalidArgument) {
  Tensor x, y, x0, y0;
  Data(10, &x, &y);
  Data(0, &x0, &y0);
  Sequential model;
  ASSERT_TRUE(Compiled(&model, std::make_shared<keras::Dense>(3, "softmax")).ok());
  for (int64_t batch : {int64_t{0}, int64_t{-1}, std::numeric_limits<int64_t>::min()}) {
    EXPECT_EQ(model.Fit(x, y, Quiet(batch)).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(model.Evaluate(x, y, batch).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(model.Predict(x, batch).status().code(), absl::StatusCode::kInvalidArgument);
  }
  auto fit0 = model.Fit(x0, y0, Quiet(4));
  EXPECT_EQ(fit0.status().code(), absl::StatusCode::kInvalidArgument) << fit0.status();
  EXPECT_NE(std::string(fit0.status().message()).find("no examples"), std::string::npos);
  EXPECT_EQ(model.Evaluate(x0, y0, 4).status().code(), absl::StatusCode::kInvalidArgument);
  keras::FitOptions with_val = Quiet(4);
  with_val.validation_data = std::make_pair(x0, y0);
  EXPECT_EQ(model.Fit(x, y, with_val).status().code(), absl::StatusCode::kInvalidArgument);
  // Predicting no rows is truthfully no rows.
  auto p0 = model.Predict(x0, 4);
  ASSERT_TRUE(p0.ok()) << p0.status();
  EXPECT_EQ(p0->shape(), TensorShape({0, 3}));
}

// Found beside the attack: a null layer was dereferenced when the model was built.
TEST(Hardening, KerasNullLayersAndEmptyModelsAreAStatus) {
  Tensor x, y;
  Data(10, &x, &y);
  Sequential null_layer;
  null_layer.Add(nullptr);
  ASSERT_TRUE(null_layer.Compile("sgd", "mse").ok());
  auto h = null_layer.Fit(x, y, Quiet(4));
  EXPECT_EQ(h.status().code(), absl::StatusCode::kInvalidArgument) << h.status();
  EXPECT_NE(std::string(h.status().message()).find("null"), std::string::npos);
  Sequential empty;
  ASSERT_TRUE(empty.Compile("sgd", "mse").ok());
  auto e = empty.Fit(x, y, Quiet(4));
  EXPECT_FALSE(e.ok());
  EXPECT_NE(e.status().code(), absl::StatusCode::kInternal) << e.status();
}

// Defect 6: a bad checkpoint_path failed only after a whole epoch of training.
TEST(Hardening, KerasBadCheckpointPathsFailBeforeTraining) {
  Tensor x, y;
  Data(10, &x, &y);
  Sequential model;
  ASSERT_TRUE(Compiled(&model, std::make_shared<keras::Dense>(3, "softmax")).ok());
  ASSERT_TRUE(model.Fit(x, y, Quiet(4)).ok());  // builds and initializes
  auto before = model.Evaluate(x, y, 10);
  ASSERT_TRUE(before.ok());
  for (const std::string& path :
       {std::string(), ::testing::TempDir(), ::testing::TempDir() + "/no/such/dir/m.ckpt"}) {
    keras::FitOptions o = Quiet(4);
    o.checkpoint_every = 1;
    o.checkpoint_path = path;
    auto h = model.Fit(x, y, o);
    ASSERT_FALSE(h.ok()) << path;
    EXPECT_TRUE(h.status().code() == absl::StatusCode::kInvalidArgument ||
                h.status().code() == absl::StatusCode::kFailedPrecondition)
        << h.status();
  }
  auto after = model.Evaluate(x, y, 10);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->at(0).second, before->at(0).second);  // no step was taken
}

}  // namespace hardening_keras_test
}  // namespace
}  // namespace rill::testing
