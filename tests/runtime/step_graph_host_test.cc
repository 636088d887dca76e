// Graph mode with host inputs read on the device: a sparse loss's labels, fed or computed
// on the host, are checked by the kernel's rule and uploaded by the executor before every
// replay (OpKernelContext::UploadCheckedHostInput), on the recording fake device of
// tests/runtime/stream_device.h.
#include <cmath>
#include <utility>

#include "rill/ops/array_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"
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

}  // namespace step_graph_host_test
}  // namespace
}  // namespace rill::testing
