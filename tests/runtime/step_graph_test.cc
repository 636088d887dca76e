// Graph mode (SessionOptions::cuda_graphs): which plans qualify, and the runs themselves
// (runtime/executor_graph.cc) on a fake device that records as a CUDA stream does
// (tests/runtime/stream_device.h). On a GPU, a training step replayed gives the losses of
// ordinary runs.
#include <cstdlib>
#include <utility>

#include "rill/ops/nn_ops.h"
#include "rill/ops/optimizers.h"
#include "rill/ops/random_ops.h"
#include "rill/ops/training_ops.h"
#include "runtime/stream_device.h"

namespace rill::testing {
namespace {
namespace step_graph_test {

using namespace ::rill::ops;  // NOLINT

// One SGD step of a linear map: y = x w (fetched), w -= 0.01 x^T y (x^T fed as xt). The
// reference in doubles on the host.
struct LinearStep {
  Scope root = Scope::NewRootScope();
  Output x, xt, y, w;
  Operation init, train;

  LinearStep() {
    RegisterStreamKernels();
    x = Placeholder(root.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, 3}));
    xt = Placeholder(root.WithOpName("xt"), DT_FLOAT, Placeholder::Shape({3, -1}));
    Variable var(root.WithOpName("w"), RandomTensor(DT_FLOAT, {3, 2}, -1, 1, 7));
    w = var;
    init = var.initializer;
    y = MatMul(root.WithOpName("y"), x, w);
    auto g = MatMul(root.WithOpName("g"), xt, y);
    train = ApplyGradientDescent(root.WithOpName("train"), w, Const(root, 0.01f), g).operation;
  }

  static void Reference(const std::vector<double>& xs, int64_t b, std::vector<double>* w,
                        std::vector<double>* y) {
    y->assign(b * 2, 0);
    for (int64_t i = 0; i < b; ++i) {
      for (int j = 0; j < 2; ++j) {
        for (int q = 0; q < 3; ++q) (*y)[i * 2 + j] += xs[i * 3 + q] * (*w)[q * 2 + j];
      }
    }
    for (int q = 0; q < 3; ++q) {
      for (int j = 0; j < 2; ++j) {
        double g = 0;
        for (int64_t i = 0; i < b; ++i) g += xs[i * 3 + q] * (*y)[i * 2 + j];
        (*w)[q * 2 + j] -= 0.01 * g;
      }
    }
  }
};

// Runs steps of the given batch sizes on the stream device with graph mode on, checking
// each y and the final w against the reference; returns the stats.
StepGraphStats RunSteps(const std::vector<int64_t>& batches, StreamDevice* dev = nullptr,
                        bool reinit_midway = false) {
  LinearStep m;
  auto device = std::make_shared<StreamDevice>();
  if (dev != nullptr) device->refuse_recording = dev->refuse_recording;
  SessionOptions o;
  o.cuda_graphs = true;
  o.allow_soft_placement = true;
  Session session(m.root, o, StreamAndCpu(device));
  EXPECT_TRUE(session.Run({}, {}, {m.init}, nullptr).ok());
  std::vector<double> w = ToDoubles(RandomTensor(DT_FLOAT, {3, 2}, -1, 1, 7)), y;
  CallableOptions sig{{m.x, m.xt}, {m.y}, {m.train}};
  Session::CallableHandle h;
  EXPECT_TRUE(session.MakeCallable(sig, &h).ok());
  for (size_t step = 0; step < batches.size(); ++step) {
    if (reinit_midway && step == batches.size() / 2) {
      EXPECT_TRUE(session.Run({}, {}, {m.init}, nullptr).ok());
      w = ToDoubles(RandomTensor(DT_FLOAT, {3, 2}, -1, 1, 7));
    }
    Tensor xv = RandomTensor(DT_FLOAT, {batches[step], 3}, -1, 1, 100 + step);
    std::vector<Tensor> out;
    absl::Status st = session.RunCallable(h, {xv, TransposedMatrix(xv)}, &out);
    EXPECT_TRUE(st.ok()) << st;
    if (!st.ok()) break;
    LinearStep::Reference(ToDoubles(xv), batches[step], &w, &y);
    ExpectTensorNear(out[0], DT_FLOAT, {batches[step], 2}, y, 1e-5);
  }
  std::vector<Tensor> final_w;
  EXPECT_TRUE(session.Run({}, {m.w}, &final_w).ok());
  ExpectTensorNear(final_w[0], DT_FLOAT, {3, 2}, w, 1e-5);
  if (dev != nullptr) dev->launches = device->launches;
  return *session.GetStepGraphStats(h);
}

TEST(StepGraph, ReplaysGiveWhatOrdinaryRunsGive) {
  StreamDevice counts;
  StepGraphStats st = RunSteps({4, 4, 4, 4, 4, 4}, &counts);
  EXPECT_TRUE(st.enabled);
  EXPECT_EQ(st.why_not, "");
  // The first run lays the memory out, the second records (and launches), then replays.
  EXPECT_EQ(st.captures, 1);
  EXPECT_EQ(st.replays, 4);
  EXPECT_EQ(st.fallbacks, 0);
  EXPECT_EQ(counts.launches, 5);
}

TEST(StepGraph, ANewBatchSizeIsRecordedOnceAndTheOldOneStillReplays) {
  StepGraphStats st = RunSteps({4, 4, 4, 2, 2, 2, 4, 4});
  EXPECT_EQ(st.captures, 2);
  EXPECT_EQ(st.replays, 4);  // the third run of each size, then both runs of 4 again
}

TEST(StepGraph, AVariableGivenANewBufferIsRecordedAgain) {
  // The initializer gives w a new buffer: the recording's address for w is stale.
  StepGraphStats st = RunSteps({4, 4, 4, 4, 4, 4}, nullptr, /*reinit_midway=*/true);
  EXPECT_EQ(st.captures, 2);
  EXPECT_EQ(st.replays, 3);  // the third run, then the two after the new recording
}

TEST(StepGraph, AFailedRecordingRunsTheStepAsUsualFromThenOn) {
  StreamDevice refusing;
  refusing.refuse_recording = true;
  StepGraphStats st = RunSteps({4, 4, 4, 4}, &refusing);
  EXPECT_EQ(st.captures, 0);
  EXPECT_EQ(st.replays, 0);
  EXPECT_EQ(st.fallbacks, 1);
  EXPECT_NE(st.why_not.find("told to refuse"), std::string::npos) << st.why_not;
  EXPECT_EQ(refusing.launches, 0);
}

// The reason a plan of `fetch` (after `init`) gives on the stream device.
std::string WhyNot(const Scope& root, Output fetch, Operation init, bool plan_memory = true) {
  auto device = std::make_shared<StreamDevice>();
  SessionOptions o;
  o.cuda_graphs = true;
  o.plan_memory = plan_memory;
  Session session(root, o, StreamAndCpu(device));
  EXPECT_TRUE(session.Run({}, {}, {init}, nullptr).ok());
  Session::CallableHandle h;
  EXPECT_TRUE(session.MakeCallable({{}, {fetch}, {}}, &h).ok());
  std::vector<Tensor> out;
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(session.RunCallable(h, {}, &out).ok());
  return session.GetStepGraphStats(h)->why_not;
}

TEST(StepGraph, PlansThatCannotBeReplayedSayWhy) {
  RegisterStreamKernels();
  Scope root = Scope::NewRootScope();
  Variable w(root.WithOpName("w"), RandomTensor(DT_FLOAT, {2, 2}, -1, 1, 1));
  auto a = MatMul(root.WithOpName("a"), w, w);
  // Sub has no kernel on the stream device: a's value goes to the host and back.
  auto back = MatMul(root.WithOpName("back"), Sub(root.WithOpName("sub"), a, a), w);
  EXPECT_NE(WhyNot(root, back, w.initializer).find("to the host and back"), std::string::npos);
  // A random op with no kernel on the stream device runs on the host, where a failed
  // recording would run it again.
  auto r = RandomNormal(root.WithOpName("r"), Const(root, {2, 2}), DT_FLOAT);
  auto noisy = MatMul(root.WithOpName("noisy"), Add(root, a, r), w);
  EXPECT_NE(WhyNot(root, noisy, w.initializer).find("'r' (RandomStandardNormal) is stateful"),
            std::string::npos);
  EXPECT_NE(WhyNot(root, a, w.initializer, /*plan_memory=*/false).find("plan_memory"),
            std::string::npos);
  // A device node reading on the host what a host node made in the run (Add has no
  // kernel on the stream device): the recording would keep the first run's value.
  Variable dims(root.WithOpName("dims").WithDevice("/cpu:0"), FromDoubles(DT_INT32, {2}, {2, 3}));
  auto shape = Add(root.WithOpName("shape"), dims, Const(root, {0, 0}));
  auto drawn = RandomUniform(root.WithOpName("drawn"), shape, DT_FLOAT);
  EXPECT_NE(WhyNot(root, drawn, dims.initializer)
                .find("'drawn' (RandomUniform) reads on the host a value made in the run "
                      "(node 'shape' (Add))"),
            std::string::npos);
  // Both at once: each blocker is named.
  auto both = MatMul(root.WithOpName("both"), back, noisy);
  const std::string why = WhyNot(root, both, w.initializer);
  EXPECT_NE(why.find("'r' (RandomStandardNormal) is stateful"), std::string::npos) << why;
  EXPECT_NE(why.find("to the host and back"), std::string::npos) << why;
  EXPECT_NE(why.find("; "), std::string::npos) << why;
}

// The values of `fetch` on `devices` with graph mode on, one run per entry of `batches`:
// with x fed a batch of that size, or nothing fed when x is empty; the callable's stats.
std::vector<Tensor> GraphModeRuns(const Scope& root, Output x, Output fetch, DeviceSet devices,
                                  const std::vector<int64_t>& batches, StepGraphStats* stats) {
  SessionOptions o;
  o.cuda_graphs = true;
  Session session(root, o, std::move(devices));
  const bool fed = x.node() != nullptr;
  Session::CallableHandle h;
  EXPECT_TRUE(
      session.MakeCallable({fed ? std::vector<Output>{x} : std::vector<Output>{}, {fetch}, {}}, &h)
          .ok());
  std::vector<Tensor> values;
  for (size_t i = 0; i < batches.size(); ++i) {
    std::vector<Tensor> feeds, out;
    if (fed) feeds.push_back(RandomTensor(DT_FLOAT, {batches[i], 3}, -1, 1, 40 + i));
    absl::Status st = session.RunCallable(h, feeds, &out);
    EXPECT_TRUE(st.ok()) << st;
    if (!st.ok()) break;
    values.push_back(out[0]);
  }
  *stats = *session.GetStepGraphStats(h);
  return values;
}

TEST(StepGraph, RandomOpsDrawNewNumbersAtEveryReplayTheNumbersOfOrdinaryRuns) {
  RegisterStreamKernels();
  Scope root = Scope::NewRootScope();
  auto r = RandomUniform(root.WithOpName("r"), Const(root, {3, 5}), DT_FLOAT,
                         RandomUniform::Seed(5).Seed2(9));
  auto q =
      RandomUniform(root.WithOpName("q"), Const(root, {5, 2}), DT_FLOAT, RandomUniform::Seed(6));
  auto y = MatMul(root.WithOpName("y"), r, q);  // two random ops, two counters
  for (Output fetch : {Output(r), Output(y)}) {
    SCOPED_TRACE(fetch.node()->name());
    StepGraphStats replayed, host;
    auto device = std::make_shared<StreamDevice>();
    const std::vector<Tensor> got = GraphModeRuns(root, Output(), fetch, StreamAndCpu(device),
                                                  std::vector<int64_t>(6), &replayed);
    const std::vector<Tensor> want =
        GraphModeRuns(root, Output(), fetch, CpuOnly(), std::vector<int64_t>(6), &host);
    EXPECT_EQ(replayed.why_not, "");
    EXPECT_EQ(replayed.captures, 1);
    EXPECT_EQ(replayed.replays, 4);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      ExpectTensorNear(got[i], DT_FLOAT, want[i].shape(), ToDoubles(want[i]), 1e-6);
      if (i > 0) {
        EXPECT_NE(ToDoubles(got[i]), ToDoubles(got[i - 1])) << "run " << i;
      }
    }
  }
}

// A shape made on the device and turned into a random op's dims by a host node (Add has
// no stream kernel; placer pass 6 puts such integer work on the host): the host node reads
// only what the body made, fixed for the memory layout, so it runs inside the recording
// instead of keeping the step from being recorded.
TEST(StepGraph, HostWorkOnTheBodysShapesIsRecordedWithIt) {
  RegisterStreamKernels();
  Scope root = Scope::NewRootScope();
  auto x = Placeholder(root.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, 3}));
  auto y = MatMul(root.WithOpName("y"), x, Const(root, RandomTensor(DT_FLOAT, {3, 2}, -1, 1, 3)));
  auto dims = Add(root.WithOpName("dims"), Shape(root.WithOpName("shape"), y), Const(root, {0, 1}));
  auto r = RandomUniform(root.WithOpName("r"), dims, DT_FLOAT, RandomUniform::Seed(3));
  const std::vector<int64_t> batches = {4, 4, 4, 4, 2, 2, 2, 4};
  StepGraphStats replayed, host;
  const std::vector<Tensor> got =
      GraphModeRuns(root, x, r, StreamAndCpu(std::make_shared<StreamDevice>()), batches, &replayed);
  const std::vector<Tensor> want = GraphModeRuns(root, x, r, CpuOnly(), batches, &host);
  EXPECT_EQ(replayed.why_not, "");
  EXPECT_EQ(replayed.captures, 2);
  EXPECT_EQ(replayed.replays, 4);  // two of batch 4, one of 2, then 4 again
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].shape(), TensorShape({batches[i], 3}));
    ExpectTensorNear(got[i], DT_FLOAT, want[i].shape(), ToDoubles(want[i]), 1e-6);
  }
}

TEST(StepGraph, APlanOnlyOnTheCpuIsNotRecorded) {
  Scope root = Scope::NewRootScope();
  auto x = Placeholder(root, DT_FLOAT);
  auto y = Mul(root, x, x);
  SessionOptions o;
  o.cuda_graphs = true;
  Session session(root, o, CpuOnly());
  Session::CallableHandle h;
  ASSERT_TRUE(session.MakeCallable({{x}, {y}, {}}, &h).ok());
  std::vector<Tensor> out;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(session.RunCallable(h, {Tensor(float(i))}, &out).ok());
    ExpectTensorNear(out[0], DT_FLOAT, {}, {double(i * i)}, 0);
  }
  StepGraphStats st = *session.GetStepGraphStats(h);
  EXPECT_TRUE(st.enabled);
  EXPECT_NE(st.why_not.find("no node runs on a device that can record"), std::string::npos);
  EXPECT_EQ(st.captures + st.replays + st.fallbacks, 0);
}

// RILL_CUDA_GRAPHS=1 turns graph mode on for Sessions made while it is set.
TEST(StepGraph, TheEnvironmentTurnsGraphModeOn) {
  Scope root = Scope::NewRootScope();
  auto x = Placeholder(root, DT_FLOAT);
  auto y = Mul(root, x, x);
  for (const char* value : {"1", "0"}) {
    SCOPED_TRACE(value);
    setenv("RILL_CUDA_GRAPHS", value, 1);
    Session session(root, SessionOptions(), CpuOnly());
    unsetenv("RILL_CUDA_GRAPHS");
    Session::CallableHandle h;
    ASSERT_TRUE(session.MakeCallable({{x}, {y}, {}}, &h).ok());
    std::vector<Tensor> out;
    ASSERT_TRUE(session.RunCallable(h, {Tensor(3.f)}, &out).ok());
    ExpectTensorNear(out[0], DT_FLOAT, {}, {9.0}, 0);
    EXPECT_EQ(session.GetStepGraphStats(h)->enabled, std::string(value) == "1");
  }
}

// How a GPU training step is built: its optimizer, dropout, and labels one-hot (a device
// value) or sparse (int32, checked on the host and uploaded before each replay).
struct GpuStepKind {
  bool adam = false, dropout = false, sparse = false;
};

// Losses of 8 training steps of an MLP with everything on the GPU, fed a new batch each
// step, with graph mode on or off (dropout seeded: the same masks in both Sessions); the
// stats of the training callable.
std::vector<double> GpuLosses(bool graphs, GpuStepKind kind, StepGraphStats* stats) {
  Scope s = Scope::NewRootScope().WithDevice("/GPU:0");
  auto x = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 8}));
  auto y = kind.sparse ? Placeholder(s, DT_INT32, Placeholder::Shape({-1}))
                       : Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 4}));
  auto w1 = Variable(s, RandomTensor(DT_FLOAT, {8, 32}, -0.5, 0.5, 1));
  auto b1 = Variable(s, RandomTensor(DT_FLOAT, {32}, -0.1, 0.1, 2));
  auto w2 = Variable(s, RandomTensor(DT_FLOAT, {32, 4}, -0.5, 0.5, 3));
  Output h = Relu(s, BiasAdd(s, MatMul(s, x, w1), b1));
  if (kind.dropout) h = Dropout(s, h, 0.25f, Dropout::Seed(11));
  Output logits = MatMul(s, h, w2);
  auto loss = Mean(s,
                   kind.sparse ? SparseSoftmaxCrossEntropyWithLogits(s, logits, y).loss
                               : SoftmaxCrossEntropyWithLogits(s, logits, y).loss,
                   0);
  std::unique_ptr<Optimizer> opt;
  if (kind.adam) {
    opt = std::make_unique<AdamOptimizer>(0.01);
  } else {
    opt = std::make_unique<MomentumOptimizer>(0.1, 0.9, true);
  }
  Operation train = opt->Minimize(s, loss);
  EXPECT_TRUE(s.ok()) << s.status();
  Session::CallableHandle handle;
  std::unique_ptr<Session> session = TrainingSession(s, graphs, {{x, y}, {loss}, {train}}, &handle);
  std::vector<double> losses;
  for (uint32_t i = 0; i < 8; ++i) {
    std::vector<double> ids(16), one_hot(16 * 4, 0.0);
    for (int r = 0; r < 16; ++r) {
      ids[r] = (r * 7 + i) % 4;
      one_hot[r * 4 + (r * 7 + i) % 4] = 1;
    }
    Tensor labels =
        kind.sparse ? FromDoubles(DT_INT32, {16}, ids) : FromDoubles(DT_FLOAT, {16, 4}, one_hot);
    std::vector<Tensor> out;
    absl::Status st = session->RunCallable(
        handle, {RandomTensor(DT_FLOAT, {16, 8}, -1, 1, 10 + i), labels}, &out);
    EXPECT_TRUE(st.ok()) << st;
    if (!st.ok()) break;
    losses.push_back(out[0].scalar<float>()());
  }
  *stats = *session->GetStepGraphStats(handle);
  return losses;
}

TEST(StepGraph, OnTheGpuATrainingStepReplaysWithTheLossesOfOrdinaryRuns) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine";
  const GpuStepKind kinds[] = {
      {false, false, false}, {true, false, false}, {true, true, false}, {true, false, true}};
  for (const GpuStepKind kind : kinds) {
    SCOPED_TRACE(absl::StrCat(kind.adam ? "Adam" : "momentum", kind.dropout ? ", dropout" : "",
                              kind.sparse ? ", sparse labels" : ""));
    StepGraphStats off, on;
    const std::vector<double> want = GpuLosses(false, kind, &off);
    const std::vector<double> got = GpuLosses(true, kind, &on);
    EXPECT_FALSE(off.enabled);
    EXPECT_EQ(on.why_not, "");
    EXPECT_EQ(on.captures, 1);
    EXPECT_EQ(on.replays, 6);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 * std::abs(want[i]));
  }
}

}  // namespace step_graph_test
}  // namespace
}  // namespace rill::testing
