// Training on the GPU (skipped where there is none): the new kernels against the CPU, and
// an MLP trained on each device giving the same losses.
#include <unistd.h>

#include <cstdio>
#include <optional>

#include "rill/runtime/file_util.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace gpu_training_test {

using namespace ::rill::ops;  // NOLINT

// Losses of 10 SGD / Adam steps of a small MLP, with everything on `device`.
std::vector<double> Losses(bool adam, const std::string& device, bool strict) {
  Scope s = Scope::NewRootScope().WithDevice(device);
  auto x = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 8}));
  auto y = Placeholder(s, DT_INT64, Placeholder::Shape({-1}));
  auto w1 = Variable(s, RandomTensor(DT_FLOAT, {8, 32}, -0.5, 0.5, 1));
  auto b1 = Variable(s, RandomTensor(DT_FLOAT, {32}, -0.1, 0.1, 2));
  auto w2 = Variable(s, RandomTensor(DT_FLOAT, {32, 4}, -0.5, 0.5, 3));
  auto h = Tanh(s, Relu(s, Add(s, MatMul(s, x, w1), b1)));
  auto logits = MatMul(s, h, w2);
  auto loss = Add(s, Mean(s, SparseSoftmaxCrossEntropyWithLogits(s, logits, y).loss, 0),
                  Mean(s, SigmoidCrossEntropyWithLogits(s, logits, Sigmoid(s, logits)), {0, 1}));
  std::unique_ptr<Optimizer> opt;
  if (adam) {
    opt = std::make_unique<AdamOptimizer>(0.01);
  } else {
    opt = std::make_unique<MomentumOptimizer>(0.1, 0.9, true);
  }
  Operation train = opt->Minimize(s, loss);
  EXPECT_TRUE(s.ok()) << s.status();
  SessionOptions o;
  o.allow_soft_placement = !strict;
  std::unique_ptr<Session> session = device == "/CPU:0" ? std::make_unique<Session>(s, o, CpuOnly())
                                                        : std::make_unique<Session>(s, o);
  EXPECT_TRUE(session->Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  Tensor xv = RandomTensor(DT_FLOAT, {16, 8}, -1, 1, 4);
  Tensor yv = RandomTensor(DT_INT64, {16}, 0, 3, 5);
  std::vector<double> losses;
  for (int i = 0; i < 10; ++i) {
    std::vector<Tensor> out;
    absl::Status st = session->Run({{x, xv}, {y, yv}}, {loss}, {train}, &out);
    EXPECT_TRUE(st.ok()) << st;
    if (!st.ok()) break;
    losses.push_back(out[0].scalar<float>()());
  }
  if (device != "/CPU:0") {
    EXPECT_EQ(*session->AssignedDevice(Operation(train.node()->control_inputs()[0])),
              "/job:localhost/replica:0/task:0/device:GPU:0");
  }
  return losses;
}

TEST(GpuTraining, MlpLossesMatchTheCpu) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine";
  for (bool adam : {false, true}) {
    auto cpu = Losses(adam, "/CPU:0", false);
    auto gpu = Losses(adam, "/GPU:0", false);
    ASSERT_EQ(cpu.size(), gpu.size());
    for (size_t i = 0; i < cpu.size(); ++i) EXPECT_NEAR(gpu[i], cpu[i], 1e-4 * std::abs(cpu[i]));
  }
}

// Losses of 8 Adam steps of a small conv net (Conv2D SAME, BiasAdd, ReLU, MaxPool, a
// VALID strided Conv2D, AvgPool, dense), everything on `device`; on the GPU with soft
// placement off, so every op of it must have a GPU kernel.
std::vector<double> ConvNetLosses(const std::string& device) {
  Scope s = Scope::NewRootScope().WithDevice(device);
  auto x = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 12, 12, 2}));
  auto y = Placeholder(s, DT_INT64, Placeholder::Shape({-1}));
  auto k1 = Variable(s, RandomTensor(DT_FLOAT, {5, 5, 2, 8}, -0.3, 0.3, 21));
  auto b1 = Variable(s, RandomTensor(DT_FLOAT, {8}, -0.1, 0.1, 22));
  auto k2 = Variable(s, RandomTensor(DT_FLOAT, {3, 3, 8, 6}, -0.3, 0.3, 23));
  auto w = Variable(s, RandomTensor(DT_FLOAT, {24, 3}, -0.3, 0.3, 24));
  Output h = Relu(s, BiasAdd(s, Conv2D(s, x, k1, {1, 1, 1, 1}, "SAME"), b1));
  h = MaxPool(s, h, {1, 2, 2, 1}, {1, 2, 2, 1}, "SAME");  // 6x6
  h = Relu(s, Conv2D(s, h, k2, {1, 2, 2, 1}, "VALID"));   // 2x2
  h = AvgPool(s, h, {1, 2, 2, 1}, {1, 1, 1, 1}, "SAME");  // 2x2
  auto logits = MatMul(s, Reshape(s, h, {-1, 24}), w);
  auto loss = Mean(s, SparseSoftmaxCrossEntropyWithLogits(s, logits, y).loss, 0);
  AdamOptimizer opt(0.01);
  Operation train = opt.Minimize(s, loss);
  EXPECT_TRUE(s.ok()) << s.status();
  SessionOptions o;
  o.allow_soft_placement = device == "/CPU:0";
  std::unique_ptr<Session> session = device == "/CPU:0" ? std::make_unique<Session>(s, o, CpuOnly())
                                                        : std::make_unique<Session>(s, o);
  EXPECT_TRUE(session->Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  Tensor xv = RandomTensor(DT_FLOAT, {10, 12, 12, 2}, -1, 1, 25);
  Tensor yv = RandomTensor(DT_INT64, {10}, 0, 2, 26);
  std::vector<double> losses;
  for (int i = 0; i < 8; ++i) {
    std::vector<Tensor> out;
    absl::Status st = session->Run({{x, xv}, {y, yv}}, {loss}, {train}, &out);
    EXPECT_TRUE(st.ok()) << st;
    if (!st.ok()) break;
    losses.push_back(out[0].scalar<float>()());
  }
  return losses;
}

TEST(GpuTraining, ConvNetLossesMatchTheCpu) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine";
  auto cpu = ConvNetLosses("/CPU:0");
  auto gpu = ConvNetLosses("/GPU:0");
  ASSERT_EQ(cpu.size(), 8u);
  ASSERT_EQ(gpu.size(), cpu.size());
  for (size_t i = 0; i < cpu.size(); ++i) EXPECT_NEAR(gpu[i], cpu[i], 1e-4 * std::abs(cpu[i]));
  EXPECT_LT(cpu.back(), cpu.front());  // it learns
}

// Keras Fit on the GPU prepares its batches in the GPU's pinned host memory, uploads each
// on the copy stream before its step, and trains as it does on the CPU.
TEST(GpuTraining, FitPreparesBatchesInPinnedMemory) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine";
  Tensor x = RandomTensor(DT_FLOAT, {256, 10}, -1, 1, 40);
  Tensor y(DT_FLOAT, TensorShape({256, 2}));
  for (int64_t i = 0; i < 256; ++i) {
    const bool positive = x.matrix<float>()(i, 0) + x.matrix<float>()(i, 1) > 0;
    y.matrix<float>()(i, 0) = positive ? 1.f : 0.f;
    y.matrix<float>()(i, 1) = positive ? 0.f : 1.f;
  }
  std::vector<double> final_loss;
  for (const std::string device : {"/CPU:0", "/GPU:0"}) {
    keras::ModelOptions mo;
    mo.device = device;
    keras::Sequential model(mo);
    model.Add(std::make_shared<keras::Dense>(16, "relu"))
        .Add(std::make_shared<keras::Dense>(2, "softmax"));
    ASSERT_TRUE(model.Compile("sgd", "categorical_crossentropy", {"accuracy"}).ok());
    absl::StatusOr<DeviceMemoryStats> before = GetDeviceMemoryStats("/GPU:0");
    ASSERT_TRUE(before.ok()) << before.status();
    keras::FitOptions fit;
    fit.epochs = 3;
    fit.batch_size = 32;
    fit.verbose = 0;
    auto h = model.Fit(x, y, fit);
    ASSERT_TRUE(h.ok()) << h.status();
    final_loss.push_back(h->history["loss"].back());
    absl::StatusOr<DeviceMemoryStats> after = GetDeviceMemoryStats("/GPU:0");
    const int64_t pinned = after->pinned_host.num_allocs - before->pinned_host.num_allocs;
    const int64_t prefetched = after->prefetch_hits - before->prefetch_hits;
    if (device == "/GPU:0") {
      EXPECT_GE(pinned, 2 * 8 * 2) << "x and y of 8 batches in each of the last 2 epochs";
      // Each batch's upload was started on the copy stream before its step asked for it.
      EXPECT_EQ(prefetched, 2 * 8 * 3) << "x and y of 8 batches in each of 3 epochs";
      EXPECT_EQ(after->prefetch.num_allocs - before->prefetch.num_allocs, 2 * 8 * 3);
    } else {
      EXPECT_EQ(pinned, 0) << "a CPU model does not stage";
      EXPECT_EQ(prefetched, 0);
    }
  }
  EXPECT_NEAR(final_loss[1], final_loss[0], 1e-3 * final_loss[0]);
}

// A Keras model's history after 3 epochs of 10 batches of 16 (the last of 8), with graph
// mode as `graphs` says, on the GPU, and what graph mode made of Fit's steps.
std::vector<double> FitLosses(std::optional<bool> graphs, StepGraphStats* stats) {
  Tensor x = RandomTensor(DT_FLOAT, {152, 12}, -1, 1, 50);
  std::vector<double> labels(152);
  for (int i = 0; i < 152; ++i) labels[i] = (i * 7) % 3;
  keras::ModelOptions mo;
  if (graphs.has_value()) mo.session.cuda_graphs = *graphs;
  keras::Sequential model(mo);
  model.Add(std::make_shared<keras::Dense>(16, "relu"))
      .Add(std::make_shared<keras::Dense>(3, "softmax"));
  EXPECT_TRUE(model.Compile("adam", "sparse_categorical_crossentropy", {"accuracy"}).ok());
  keras::FitOptions fit;
  fit.epochs = 3;
  fit.batch_size = 16;
  fit.verbose = 0;
  auto h = model.Fit(x, FromDoubles(DT_INT32, {152}, labels), fit);
  EXPECT_TRUE(h.ok()) << h.status();
  *stats = *model.FitStepGraphStats();
  return h.ok() ? h->history["loss"] : std::vector<double>{};
}

// Keras replays Fit's full batches as CUDA graphs by default on a GPU, with the losses of
// steps run node by node; the last, smaller batch of each epoch runs as usual.
TEST(GpuTraining, FitReplaysItsFullBatchesByDefault) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine";
  StepGraphStats on, off;
  const std::vector<double> replayed = FitLosses(std::nullopt, &on);
  const std::vector<double> plain = FitLosses(false, &off);
  EXPECT_EQ(on.why_not, "");
  EXPECT_EQ(on.captures, 1);
  EXPECT_EQ(on.replays, 3 * 9 - 2);  // 9 full batches an epoch; the first runs, the second records
  EXPECT_EQ(on.fallbacks, 0);
  EXPECT_FALSE(off.enabled);
  ASSERT_EQ(replayed.size(), 3u);
  ASSERT_EQ(plain.size(), 3u);
  for (size_t i = 0; i < plain.size(); ++i) {
    EXPECT_NEAR(replayed[i], plain[i], 1e-5 * std::abs(plain[i])) << "epoch " << i;
  }
}

// Steps that fetch nothing and do not wait (RunOptions::wait_for_devices = false, as
// Keras Fit runs them) keep what their queued work reads: fed values staged in pinned
// memory, and batches prepared in pinned memory and uploaded ahead, are not reused
// while the GPU, kept busy by a large product each step, is behind the host. Every
// step's values arrive: the sum is exact.
TEST(GpuTraining, QueuedStepsKeepTheirUploadsUntilTheyAreDone) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine";
  std::shared_ptr<Device> gpu;
  for (const auto& d : DeviceSet::Local().devices()) {
    if (d->device_type() == DEVICE_GPU) gpu = d;
  }
  ASSERT_NE(gpu, nullptr);
  constexpr int64_t kN = 1 << 18;
  Scope s = Scope::NewRootScope().WithDevice("/GPU:0");
  auto x = Placeholder(s.WithDevice("/CPU:0"), DT_FLOAT, Placeholder::Shape({kN}));
  Tensor zeros(DT_FLOAT, TensorShape({kN}));
  std::fill(zeros.base<float>(), zeros.base<float>() + kN, 0.f);
  auto sum = Variable(s, zeros);
  auto add = AssignAdd(s, sum, x);
  auto m = Variable(s, RandomTensor(DT_FLOAT, {2048, 2048}, -1, 1, 5));
  auto busy = MatMul(s, m, m);  // about 0.3 ms per step on an H100
  ASSERT_TRUE(s.ok()) << s.status();
  SessionOptions o;
  o.allow_soft_placement = false;
  Session session(s, o);
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  RunOptions queued;
  queued.wait_for_devices = false;
  Session::CallableHandle step;
  ASSERT_TRUE(session.MakeCallable({{x}, {}, {add.operation, busy.operation}}, &step).ok());
  double expected = 0;
  for (int i = 1; i <= 60; ++i) {
    // Odd steps: a pageable value (staged by the device); even: a pinned one uploaded
    // ahead, dropped by the host as soon as the step is queued.
    Tensor value = i % 2 ? Tensor(DT_FLOAT, TensorShape({kN}))
                         : Tensor(gpu->host_staging_allocator(), DT_FLOAT, TensorShape({kN}));
    ASSERT_TRUE(value.IsInitialized());
    std::fill(value.base<float>(), value.base<float>() + kN, static_cast<float>(i));
    if (i % 2 == 0) gpu->PrefetchFromHost(value);
    std::vector<Tensor> none;
    ASSERT_TRUE(session.RunCallable(step, {value}, &none, queued, nullptr).ok()) << i;
    EXPECT_TRUE(none.empty());
    expected += i;
  }
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({sum}, &out).ok());
  const float* got = out[0].base<float>();
  int64_t wrong = 0;
  for (int64_t j = 0; j < kN; ++j) wrong += got[j] != static_cast<float>(expected);
  EXPECT_EQ(wrong, 0) << "of " << kN << "; first " << got[0] << " vs " << expected;
}

// Variables living on the GPU save and restore like CPU ones: values come back after
// updates, a CPU-only Session reads the same file, and a damaged file is DataLoss with
// the GPU variables unchanged.
TEST(GpuCheckpoint, VariablesOnTheGpuSaveAndRestore) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine";
  Scope root = Scope::NewRootScope();
  auto w = Variable(root.WithOpName("w").WithDevice("/GPU:0"), {{1.f, 2.f}, {3.f, 4.f}});
  auto b = Variable(root.WithOpName("b").WithDevice("/GPU:0"), {0.5f, -0.5f});
  auto step_w = AssignAdd(root.WithDevice("/GPU:0"), w, {{1.f, 1.f}, {1.f, 1.f}});
  auto step_b = AssignSub(root.WithDevice("/GPU:0"), b, {1.f, 1.f});
  Saver saver(root);
  SessionOptions strict;
  strict.allow_soft_placement = false;
  Session gpu(root, strict);
  ASSERT_TRUE(gpu.Run({}, {}, {GlobalVariablesInitializer(root)}, nullptr).ok());
  EXPECT_EQ(*gpu.AssignedDevice(w.operation), "/job:localhost/replica:0/task:0/device:GPU:0");
  const std::string path = ::testing::TempDir() + "rill_gpu_" + std::to_string(getpid()) + ".ckpt";
  ASSERT_TRUE(saver.Save(gpu, path).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(gpu.Run({}, {}, {step_w.operation, step_b.operation}, nullptr).ok());
  ASSERT_TRUE(saver.Restore(gpu, path).ok());
  ASSERT_TRUE(gpu.Run({Output(w), Output(b)}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2, 2}, {1, 2, 3, 4}, 0);
  ExpectTensorNear(out[1], DT_FLOAT, {2}, {0.5, -0.5}, 0);

  Session cpu(root, SessionOptions(), CpuOnly());
  ASSERT_TRUE(saver.Restore(cpu, path).ok());
  ASSERT_TRUE(cpu.Run({Output(w)}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2, 2}, {1, 2, 3, 4}, 0);

  auto read = ReadFileToString(path, "checkpoint");
  ASSERT_TRUE(read.ok()) << read.status();
  std::string bytes = *read;
  bytes[bytes.size() / 2] ^= 0x10;
  ASSERT_TRUE(WriteFileAtomically(path, bytes, "checkpoint").ok());
  ASSERT_TRUE(gpu.Run({}, {}, {step_w.operation}, nullptr).ok());
  EXPECT_EQ(saver.Restore(gpu, path).code(), absl::StatusCode::kDataLoss);
  ASSERT_TRUE(gpu.Run({Output(w)}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2, 2}, {2, 3, 4, 5}, 0);
  std::remove(path.c_str());
}

}  // namespace gpu_training_test
}  // namespace
}  // namespace rill::testing
