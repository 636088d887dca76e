// Graph mode with host inputs read on the device: a sparse loss's labels, fed or computed
// on the host, are checked by the kernel's rule and uploaded by the executor before every
// replay (OpKernelContext::UploadCheckedHostInput), on the recording fake device of
// tests/runtime/stream_device.h.
#include <cmath>
#include <utility>

#include "rill/ops/array_ops.h"
#include "rill/ops/gather_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"
#include "rill/ops/optimizers.h"
#include "rill/ops/select_ops.h"
#include "rill/ops/training_ops.h"
#include "runtime/stream_device.h"

namespace rill::testing {
namespace {
namespace step_graph_host_test {

using namespace ::rill::ops;  // NOLINT

constexpr int64_t kIn = 3, kClasses = 4;
constexpr double kRate = 0.1;

// One SGD step of softmax regression with sparse labels: loss = xent(x w, labels) (fetched),
// w -= 0.1 x^T dloss/dlogits (x^T fed as xt). Labels are fed as int32, or as int64 and
// cast on the host (Cast has no kernel on the stream device).
struct XentStep {
  Scope root = Scope::NewRootScope();
  Output x, xt, labels, loss, w;
  Operation init, train;

  explicit XentStep(bool cast_labels) {
    RegisterStreamKernels();
    x = Placeholder(root.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, kIn}));
    xt = Placeholder(root.WithOpName("xt"), DT_FLOAT, Placeholder::Shape({kIn, -1}));
    labels = Placeholder(root.WithOpName("labels"), cast_labels ? DT_INT64 : DT_INT32);
    Output ids = cast_labels ? Output(Cast(root.WithOpName("ids"), labels, DT_INT32)) : labels;
    Variable var(root.WithOpName("w"), Initial());
    w = var;
    init = var.initializer;
    auto logits = MatMul(root.WithOpName("logits"), x, w);
    auto xent = SparseSoftmaxCrossEntropyWithLogits(root.WithOpName("xent"), logits, ids);
    loss = xent.loss;
    auto g = MatMul(root.WithOpName("g"), xt, xent.backprop);
    train =
        ApplyGradientDescent(root.WithOpName("train"), w, Const(root, float(kRate)), g).operation;
  }

  static Tensor Initial() { return RandomTensor(DT_FLOAT, {kIn, kClasses}, -1, 1, 7); }

  // The losses of one step on `w`, which it updates; in doubles.
  static std::vector<double> Reference(const std::vector<double>& xs,
                                       const std::vector<int64_t>& ids, std::vector<double>* w) {
    const size_t b = ids.size();
    std::vector<double> loss(b), grad(kIn * kClasses, 0.0);
    for (size_t r = 0; r < b; ++r) {
      double logit[kClasses], top = -INFINITY, sum = 0;
      for (int c = 0; c < kClasses; ++c) {
        logit[c] = 0;
        for (int q = 0; q < kIn; ++q) logit[c] += xs[r * kIn + q] * (*w)[q * kClasses + c];
        top = std::max(top, logit[c]);
      }
      for (double l : logit) sum += std::exp(l - top);
      loss[r] = top + std::log(sum) - logit[ids[r]];
      for (int c = 0; c < kClasses; ++c) {
        const double d = std::exp(logit[c] - top) / sum - (c == ids[r]);
        for (int q = 0; q < kIn; ++q) grad[q * kClasses + c] += xs[r * kIn + q] * d;
      }
    }
    for (size_t i = 0; i < grad.size(); ++i) (*w)[i] -= kRate * grad[i];
    return loss;
  }
};

// Labels of step `step` for a batch of `b`: a different pattern each step.
std::vector<int64_t> LabelsOf(int step, int64_t b) {
  std::vector<int64_t> ids(b);
  for (int64_t r = 0; r < b; ++r) ids[r] = (r * 3 + step) % kClasses;
  return ids;
}

struct Steps {
  std::vector<absl::Status> statuses;
  StepGraphStats stats;
  std::vector<double> w;  // the variable after the last step
};

// Runs one step per entry of `batches` on the stream device (graph mode on or off),
// checking each step's losses against the reference; `bad_step` feeds a label out of
// range there (and the reference skips that step).
Steps RunXentSteps(bool cast_labels, bool graphs, const std::vector<int64_t>& batches,
                   int bad_step = -1) {
  XentStep m(cast_labels);
  SessionOptions o;
  o.cuda_graphs = graphs;
  o.allow_soft_placement = true;
  Session session(m.root, o, StreamAndCpu(std::make_shared<StreamDevice>()));
  EXPECT_TRUE(session.Run({}, {}, {m.init}, nullptr).ok());
  std::vector<double> w = ToDoubles(XentStep::Initial());
  Session::CallableHandle h;
  EXPECT_TRUE(session.MakeCallable({{m.x, m.xt, m.labels}, {m.loss}, {m.train}}, &h).ok());
  Steps got;
  for (int step = 0; step < static_cast<int>(batches.size()); ++step) {
    const int64_t b = batches[step];
    Tensor xv = RandomTensor(DT_FLOAT, {b, kIn}, -1, 1, 100 + step);
    std::vector<int64_t> ids = LabelsOf(step, b);
    if (step == bad_step) ids[b - 1] = kClasses + 5;
    std::vector<double> id_values(ids.begin(), ids.end());
    Tensor lv = FromDoubles(cast_labels ? DT_INT64 : DT_INT32, {b}, id_values);
    std::vector<Tensor> out;
    got.statuses.push_back(session.RunCallable(h, {xv, TransposedMatrix(xv), lv}, &out));
    if (step == bad_step) continue;
    EXPECT_TRUE(got.statuses.back().ok()) << got.statuses.back();
    if (!got.statuses.back().ok()) break;
    ExpectTensorNear(out[0], DT_FLOAT, {b}, XentStep::Reference(ToDoubles(xv), ids, &w), 1e-5);
  }
  std::vector<Tensor> final_w;
  EXPECT_TRUE(session.Run({}, {m.w}, &final_w).ok());
  ExpectTensorNear(final_w[0], DT_FLOAT, {kIn, kClasses}, w, 1e-5);
  got.w = ToDoubles(final_w[0]);
  got.stats = *session.GetStepGraphStats(h);
  return got;
}

TEST(StepGraphHostInputs, FedLabelsAreCheckedAndUploadedBeforeEveryReplay) {
  for (bool cast : {false, true}) {
    SCOPED_TRACE(cast ? "int64 labels cast on the host" : "int32 labels fed");
    // The first run of each batch size lays the memory out, the second records.
    Steps s = RunXentSteps(cast, true, {4, 4, 4, 4, 4, 2, 2, 2, 4});
    EXPECT_EQ(s.stats.why_not, "");
    EXPECT_EQ(s.stats.captures, 2);
    EXPECT_EQ(s.stats.replays, 5);
    EXPECT_EQ(s.stats.fallbacks, 0);
  }
}

TEST(StepGraphHostInputs, ALabelOutOfRangeFailsAReplayAsItFailsAnOrdinaryRun) {
  const std::vector<int64_t> batches = {4, 4, 4, 4, 4, 4};
  for (bool cast : {false, true}) {
    SCOPED_TRACE(cast ? "cast" : "fed");
    // Step 3 would be a replay: its bad label is refused before the launch, the variable
    // keeps the value of step 2 (the reference skips step 3), and replays go on.
    Steps replayed = RunXentSteps(cast, true, batches, 3);
    Steps ordinary = RunXentSteps(cast, false, batches, 3);
    ASSERT_EQ(replayed.statuses.size(), batches.size());
    const absl::Status& st = replayed.statuses[3];
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
    EXPECT_EQ(st, ordinary.statuses[3]);
    EXPECT_NE(st.message().find("'xent' (SparseSoftmaxCrossEntropyWithLogits) on "
                                "/job:localhost/replica:0/task:0/device:FAKE_STREAM:0"),
              std::string::npos)
        << st;
    EXPECT_NE(st.message().find("9"), std::string::npos) << st;
    EXPECT_EQ(replayed.stats.captures, 1);
    EXPECT_EQ(replayed.stats.replays, 3);  // steps 2, 4 and 5
    EXPECT_EQ(replayed.w, ordinary.w);
  }
}

// Labels the body's shapes make on the host (row r's class is r mod 4, the row count read
// from the logits' shape): a checked upload of a value fixed for the recording, uploaded
// once with it; a replay does not run the host nodes that made it, nor needs them.
TEST(StepGraphHostInputs, LabelsMadeFromTheBodysShapesAreUploadedWithTheRecording) {
  RegisterStreamKernels();
  Scope root = Scope::NewRootScope();
  auto x = Placeholder(root.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, kIn}));
  auto logits = MatMul(root.WithOpName("logits"), x, Const(root, XentStep::Initial()));
  auto rows = Reshape(root, Slice(root, Shape(root, logits), {0}, {1}),
                      Const(root, FromDoubles(DT_INT32, {0}, {})));
  auto ids = FloorMod(root.WithOpName("ids"), Range(root, 0, rows, 1), int32_t{kClasses});
  auto loss = SparseSoftmaxCrossEntropyWithLogits(root.WithOpName("xent"), logits, ids).loss;
  SessionOptions o;
  o.cuda_graphs = true;
  Session session(root, o, StreamAndCpu(std::make_shared<StreamDevice>()));
  Session::CallableHandle h;
  ASSERT_TRUE(session.MakeCallable({{x}, {loss}, {}}, &h).ok());
  const std::vector<int64_t> batches = {4, 4, 4, 4, 3, 3, 3, 4};
  for (size_t step = 0; step < batches.size(); ++step) {
    const int64_t b = batches[step];
    Tensor xv = RandomTensor(DT_FLOAT, {b, kIn}, -1, 1, 60 + step);
    std::vector<int64_t> want_ids(b);
    for (int64_t r = 0; r < b; ++r) want_ids[r] = r % kClasses;
    std::vector<double> w = ToDoubles(XentStep::Initial());
    std::vector<Tensor> out;
    ASSERT_TRUE(session.RunCallable(h, {xv}, &out).ok());
    ExpectTensorNear(out[0], DT_FLOAT, {b}, XentStep::Reference(ToDoubles(xv), want_ids, &w), 1e-5);
  }
  const StepGraphStats st = *session.GetStepGraphStats(h);
  EXPECT_EQ(st.why_not, "");
  EXPECT_EQ(st.captures, 2);
  EXPECT_EQ(st.replays, 4);
}

// A kernel's host-computed table (Tile's source indices, from shapes and constant
// multiples) is uploaded once with each recording: replays of two batch sizes give what
// the CPU gives.
TEST(StepGraphHostInputs, AKernelsHostComputedValuesAreUploadedOnceWithTheRecording) {
  RegisterStreamKernels();
  Scope root = Scope::NewRootScope();
  auto x = Placeholder(root.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, kIn}));
  auto y = MatMul(root.WithOpName("y"), x, Const(root, XentStep::Initial()));
  auto tiled = Tile(root.WithOpName("tiled"), y, Const(root, {2, 3}));
  const std::vector<int64_t> batches = {4, 4, 4, 4, 2, 2, 2, 4};
  SessionOptions o;
  o.cuda_graphs = true;
  Session session(root, o, StreamAndCpu(std::make_shared<StreamDevice>()));
  ClientSession cpu(root, SessionOptions(), CpuOnly());
  Session::CallableHandle h;
  ASSERT_TRUE(session.MakeCallable({{x}, {tiled}, {}}, &h).ok());
  for (size_t step = 0; step < batches.size(); ++step) {
    Tensor xv = RandomTensor(DT_FLOAT, {batches[step], kIn}, -1, 1, 80 + step);
    std::vector<Tensor> got, want;
    ASSERT_TRUE(session.RunCallable(h, {xv}, &got).ok());
    ASSERT_TRUE(cpu.Run({{x, xv}}, {tiled}, &want).ok());
    ExpectTensorNear(got[0], DT_FLOAT, {batches[step] * 2, kClasses * 3}, ToDoubles(want[0]), 1e-6);
  }
  const StepGraphStats st = *session.GetStepGraphStats(h);
  EXPECT_EQ(st.why_not, "");
  EXPECT_EQ(st.captures, 2);
  EXPECT_EQ(st.replays, 4);
  EXPECT_EQ(st.fallbacks, 0);
}

// Losses of 8 SGD steps of an embedding model with everything on the GPU: ids and labels
// fed as int32 (read on the host by GatherV2, its gradient's UnsortedSegmentSum and the
// sparse loss), with graph mode on or off; `bad_step` feeds an id out of range there. The
// statuses of the steps and the stats of the training callable.
std::vector<double> GpuEmbeddingLosses(bool graphs, int bad_step, std::vector<absl::Status>* st,
                                       StepGraphStats* stats) {
  constexpr int64_t kRows = 20, kDim = 8, kBatch = 16;
  Scope s = Scope::NewRootScope().WithDevice("/GPU:0");
  auto ids = Placeholder(s, DT_INT32, Placeholder::Shape({-1}));
  auto labels = Placeholder(s, DT_INT32, Placeholder::Shape({-1}));
  auto table = Variable(s, RandomTensor(DT_FLOAT, {kRows, kDim}, -0.5, 0.5, 1));
  auto w = Variable(s, RandomTensor(DT_FLOAT, {kDim, kClasses}, -0.5, 0.5, 2));
  Output h = GatherV2(s, table, ids, Const(s, 0));
  auto loss = Mean(s, SparseSoftmaxCrossEntropyWithLogits(s, MatMul(s, h, w), labels).loss, 0);
  Operation train = GradientDescentOptimizer(0.5).Minimize(s, loss);
  EXPECT_TRUE(s.ok()) << s.status();
  Session::CallableHandle handle;
  std::unique_ptr<Session> session =
      TrainingSession(s, graphs, {{ids, labels}, {loss}, {train}}, &handle);
  std::vector<double> losses;
  for (int i = 0; i < 8; ++i) {
    std::vector<double> idv(kBatch), lv(kBatch);
    for (int r = 0; r < kBatch; ++r) {
      idv[r] = (r * 5 + i * 3) % kRows;
      lv[r] = (r * 7 + i) % kClasses;
    }
    if (i == bad_step) idv[2] = kRows + 1;
    std::vector<Tensor> out;
    st->push_back(session->RunCallable(
        handle, {FromDoubles(DT_INT32, {kBatch}, idv), FromDoubles(DT_INT32, {kBatch}, lv)}, &out));
    if (st->back().ok()) losses.push_back(out[0].scalar<float>()());
  }
  *stats = *session->GetStepGraphStats(handle);
  return losses;
}

TEST(StepGraphHostInputs, OnTheGpuAnEmbeddingStepReplaysWithTheLossesOfOrdinaryRuns) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine";
  std::vector<absl::Status> st_off, st_on;
  StepGraphStats off, on;
  const std::vector<double> want = GpuEmbeddingLosses(false, 4, &st_off, &off);
  const std::vector<double> got = GpuEmbeddingLosses(true, 4, &st_on, &on);
  EXPECT_EQ(on.why_not, "");
  EXPECT_EQ(on.captures, 1);
  EXPECT_EQ(on.replays, 5);  // steps 2, 3, 5, 6 and 7; step 4's bad id fails before launch
  ASSERT_EQ(st_on.size(), st_off.size());
  for (size_t i = 0; i < st_on.size(); ++i) EXPECT_EQ(st_on[i], st_off[i]) << "step " << i;
  EXPECT_EQ(st_on[4].code(), absl::StatusCode::kInvalidArgument) << st_on[4];
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 * std::abs(want[i]));
}

}  // namespace step_graph_host_test
}  // namespace
}  // namespace rill::testing
