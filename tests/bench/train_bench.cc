// A training step of the tiny MLP (10 -> 16 -> 2, ReLU, batch 32, sparse softmax
// cross entropy, SGD) on the CPU: rill through a callable, against the same arithmetic
// written directly in Eigen (no framework) in the same process.
//   BM_TrainStepTinyMlp       counter us_per_step
//   BM_TrainStepTinyMlpEigen  the hand-written step; the difference is rill's own cost
//   BM_SeedTrainStep          the CIFAR MLP and MNIST CNN steps, memory plan and graph
//                             optimizer off and on
//   BM_RnnTrainStep           a recurrent net's step unrolled (0) or as a While (1), whose
//                             gradient runs the loop again with a log and then backward
#include <random>

#include "Eigen/Core"
#include "benchmark/benchmark.h"
#include "rill/rill.h"
#include "support/model_steps.h"

namespace {
namespace train_bench {

using namespace rill;  // NOLINT

constexpr int kBatch = 32, kIn = 10, kHidden = 16, kOut = 2;

Tensor Random(const TensorShape& shape, uint32_t seed) {
  Tensor t(DT_FLOAT, shape);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.base<float>()[i] = u(gen);
  return t;
}

void BM_TrainStepTinyMlp(benchmark::State& state) {
  Scope s = Scope::NewRootScope().WithDevice("/CPU:0");
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({-1, kIn}));
  auto y = ops::Placeholder(s, DT_INT32, ops::Placeholder::Shape({-1}));
  auto w1 = ops::Variable(s, Random({kIn, kHidden}, 1));
  auto b1 = ops::Variable(s, Random({kHidden}, 2));
  auto w2 = ops::Variable(s, Random({kHidden, kOut}, 3));
  auto b2 = ops::Variable(s, Random({kOut}, 4));
  auto h = ops::Relu(s, ops::Add(s, ops::MatMul(s, x, w1), b1));
  auto logits = ops::Add(s, ops::MatMul(s, h, w2), b2);
  auto loss = ops::Mean(s, ops::SparseSoftmaxCrossEntropyWithLogits(s, logits, y).loss, 0);
  ops::GradientDescentOptimizer opt(0.01);
  Operation train = opt.Minimize(s, loss);
  if (!s.ok()) return state.SkipWithError(std::string(s.status().message()).c_str());
  Session session(s);
  if (!session.Run({}, {}, {ops::GlobalVariablesInitializer(s)}, nullptr).ok())
    return state.SkipWithError("init failed");
  Session::CallableHandle handle;
  if (!session.MakeCallable({{x, y}, {loss}, {train}}, &handle).ok())
    return state.SkipWithError("MakeCallable failed");
  Tensor xv = Random({kBatch, kIn}, 5);
  Tensor yv(DT_INT32, TensorShape({kBatch}));
  for (int i = 0; i < kBatch; ++i) yv.base<int32_t>()[i] = i % kOut;
  std::vector<Tensor> out;
  for (auto _ : state) {
    out.clear();
    if (!session.RunCallable(handle, {xv, yv}, &out).ok()) state.SkipWithError("step failed");
  }
  state.counters["us_per_step"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_TrainStepTinyMlp)->UseRealTime();

void BM_TrainStepTinyMlpEigen(benchmark::State& state) {
  using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  M x = M::Random(kBatch, kIn), w1 = M::Random(kIn, kHidden) * 0.5f;
  M w2 = M::Random(kHidden, kOut) * 0.5f;
  Eigen::RowVectorXf b1 = Eigen::RowVectorXf::Zero(kHidden), b2 = Eigen::RowVectorXf::Zero(kOut);
  std::vector<int> y(kBatch);
  for (int i = 0; i < kBatch; ++i) y[i] = i % kOut;
  const float lr = 0.01f;
  float loss = 0;
  for (auto _ : state) {
    M z = (x * w1).rowwise() + b1;
    M h = z.cwiseMax(0.f);
    M logits = (h * w2).rowwise() + b2;
    M d = logits;
    loss = 0;
    for (int r = 0; r < kBatch; ++r) {
      const float mx = logits.row(r).maxCoeff();
      const float sum = (logits.row(r).array() - mx).exp().sum();
      loss += (std::log(sum) + mx - logits(r, y[r])) / kBatch;
      d.row(r) = ((logits.row(r).array() - mx).exp() / sum).matrix() / kBatch;
      d(r, y[r]) -= 1.f / kBatch;
    }
    M gw2 = h.transpose() * d;
    Eigen::RowVectorXf gb2 = d.colwise().sum();
    M dh = (d * w2.transpose()).cwiseProduct((z.array() > 0).cast<float>().matrix());
    M gw1 = x.transpose() * dh;
    Eigen::RowVectorXf gb1 = dh.colwise().sum();
    w1 -= lr * gw1;
    b1 -= lr * gb1;
    w2 -= lr * gw2;
    b2 -= lr * gb2;
    benchmark::DoNotOptimize(loss);
  }
  state.counters["us_per_step"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_TrainStepTinyMlpEigen)->UseRealTime();

}  // namespace train_bench
}  // namespace

namespace {
namespace train_bench {

// Initialises `t`'s variables, makes its step a callable (*h), runs it twice, then times
// it; false (the error reported to `state`) when the step cannot be built.
bool TimeSteps(benchmark::State& state, Session& session, const testing::TrainStep& t,
               Session::CallableHandle* h) {
  if (!session.Run({}, {}, {t.init}, nullptr).ok() ||
      !session.MakeCallable(t.Signature(), h).ok()) {
    state.SkipWithError("could not build the step");
    return false;
  }
  const std::vector<Tensor> feeds = {t.x_value, t.y_value};
  for (int i = 0; i < 2; ++i) (void)session.RunCallable(*h, feeds, nullptr);
  for (auto _ : state) {
    if (!session.RunCallable(*h, feeds, nullptr).ok()) state.SkipWithError("step failed");
  }
  return true;
}

// The seeds' models' training steps (tests/support/model_steps.h) at their sizes, with the
// static memory plan off (0) or on (1); run with --benchmark_enable_random_interleaving
// so the two alternate. Counters: the arena's bytes (the peak of the planned values) and
// the bytes of all planned values added up.
void BM_SeedTrainStep(benchmark::State& state) {
  const bool mnist = state.range(0) == 1;
  testing::TrainStep t =
      mnist ? testing::MnistCnnStep(50, 32, 64, 1024) : testing::CifarMlpStep(32, 3000, 1000);
  SessionOptions options;
  options.plan_memory = state.range(1) == 1;
  options.optimize_graph = state.range(2) == 1;
  Session session(t.scope, options);
  Session::CallableHandle h;
  if (!TimeSteps(state, session, t, &h)) return;
  absl::StatusOr<MemoryPlanStats> st = session.GetMemoryPlanStats(h);
  if (st.ok()) {
    state.counters["arena_MB"] = static_cast<double>(st->arena_bytes) / 1e6;
    state.counters["values_MB"] = static_cast<double>(st->planned_value_bytes) / 1e6;
  }
}
BENCHMARK(BM_SeedTrainStep)
    ->ArgNames({"mnist", "plan_memory", "optimize"})
    ->Args({0, 0, 1})
    ->Args({0, 1, 1})
    ->Args({0, 1, 0})
    ->Args({1, 0, 1})
    ->Args({1, 1, 1})
    ->Args({1, 1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace train_bench
}  // namespace

namespace {
namespace train_bench {

// A recurrent net's training step (tests/support/model_steps.h: 20 steps, batch 32,
// 64 -> 128, SGD) unrolled by hand (while 0) or as a While (while 1), with the graph
// optimizer on or off (off: the forward loop runs beside its record, and the backward loop
// carries every variable's gradient). Run with --benchmark_enable_random_interleaving so
// they alternate. The ratio of the first two is what differentiating through the loop
// costs: the loop runs again with a log, and the backward loop recomputes each
// iteration's body before differentiating it.
void BM_RnnTrainStep(benchmark::State& state) {
  testing::TrainStep t = testing::RnnStep(20, 32, 64, 128, state.range(0) == 1);
  SessionOptions options;
  options.optimize_graph = state.range(1) == 1;
  Session session(t.scope, options);
  Session::CallableHandle h;
  TimeSteps(state, session, t, &h);
}
BENCHMARK(BM_RnnTrainStep)
    ->ArgNames({"while", "optimize"})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace train_bench
}  // namespace
