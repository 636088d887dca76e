// Framework overhead and MatMul against the raw library, measured in the same process.
//   BM_RunTrivial        Session::Run of a one-node graph (fetch a constant)
//   BM_RunCallable       the same through a callable handle (no signature lookup)
//   BM_Chain100/traced:t a chain of 100 scalar adds; counter ns_per_node (t=1: traced Runs)
//   BM_MatMulVsSgemm/n   rill MatMul and dnnl_sgemm alternated in each iteration;
//                        counter rill_vs_sgemm = sgemm time / rill time (1.0 = parity)
//   BM_PlanMlpTrainingStep/optimize:o  building the plan of the CIFAR MLP's training step
//                        (the cost a first Run pays; o=1 with the graph optimizer, whose
//                        composite rules build and match patterns); counter nodes
#include <chrono>
#include <random>

#include "benchmark/benchmark.h"
#include "oneapi/dnnl/dnnl.h"
#include "rill/rill.h"

namespace {
namespace session_bench {

using namespace rill;  // NOLINT
using Clock = std::chrono::steady_clock;

void BM_RunTrivial(benchmark::State& state) {
  Scope root = Scope::NewRootScope();
  auto c = ops::Const(root, 1.0f);
  Session session(root);
  std::vector<Tensor> out;
  for (auto _ : state) {
    if (!session.Run({c}, &out).ok()) state.SkipWithError("Run failed");
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_RunTrivial);

void BM_RunFedIdentity(benchmark::State& state) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto y = ops::Identity(root, x);
  Session session(root);
  std::vector<Tensor> out;
  Session::FeedType feeds{{x, Tensor(1.0f)}};
  for (auto _ : state) {
    if (!session.Run(feeds, {y}, &out).ok()) state.SkipWithError("Run failed");
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_RunFedIdentity);

void BM_RunCallable(benchmark::State& state) {
  Scope root = Scope::NewRootScope();
  auto c = ops::Const(root, 1.0f);
  Session session(root);
  Session::CallableHandle h;
  if (!session.MakeCallable({{}, {c}, {}}, &h).ok()) state.SkipWithError("MakeCallable failed");
  std::vector<Tensor> out;
  for (auto _ : state) {
    if (!session.RunCallable(h, {}, &out).ok()) state.SkipWithError("Run failed");
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_RunCallable);

// traced = 1: every Run records step stats (RunOptions::FULL_TRACE), for the cost of tracing.
void BM_Chain100(benchmark::State& state) {
  const bool traced = state.range(0) != 0;
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  Output acc = x;
  for (int i = 0; i < 100; ++i) acc = ops::Add(root, acc, 1.0f);
  Session session(root);
  std::vector<Tensor> out;
  Session::FeedType feeds{{x, Tensor(0.0f)}};
  RunOptions options;
  if (traced) options.trace_level = RunOptions::FULL_TRACE;
  for (auto _ : state) {
    RunMetadata meta;
    if (!session.Run(options, feeds, {acc}, {}, &out, &meta).ok()) {
      state.SkipWithError("Run failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  if (out.empty() || out[0].scalar<float>()() != 100.0f) state.SkipWithError("wrong result");
  // 100 Adds (their 100 equal Consts are one after the optimizer): report per Add.
  state.counters["ns_per_node"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 100,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Chain100)->ArgName("traced")->Arg(0)->Arg(1);

void BM_MatMulVsSgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  Tensor a(DT_FLOAT, TensorShape({n, n})), b(DT_FLOAT, TensorShape({n, n}));
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int64_t i = 0; i < n * n; ++i) a.base<float>()[i] = u(gen), b.base<float>()[i] = u(gen);
  Scope root = Scope::NewRootScope();
  auto pa = ops::Placeholder(root, DT_FLOAT), pb = ops::Placeholder(root, DT_FLOAT);
  auto c = ops::MatMul(root, pa, pb);
  Session session(root);
  Session::CallableHandle h;
  if (!session.MakeCallable({{pa, pb}, {c}, {}}, &h).ok()) state.SkipWithError("callable");
  std::vector<float> raw_c(n * n);
  std::vector<Tensor> out;
  std::vector<Tensor> feeds = {a, b};
  double rill_s = 0, raw_s = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    if (!session.RunCallable(h, feeds, &out).ok()) state.SkipWithError("Run failed");
    auto t1 = Clock::now();
    dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.base<float>(), n, b.base<float>(), n, 0.0f, raw_c.data(),
               n);
    auto t2 = Clock::now();
    double r = std::chrono::duration<double>(t1 - t0).count();
    rill_s += r;
    raw_s += std::chrono::duration<double>(t2 - t1).count();
    state.SetIterationTime(r);
  }
  state.counters["rill_vs_sgemm"] = raw_s / rill_s;
  state.counters["GFLOPs"] =
      benchmark::Counter(2.0 * n * n * n * state.iterations() / rill_s / 1e9);
}
BENCHMARK(BM_MatMulVsSgemm)
    ->RangeMultiplier(2)
    ->Range(64, 4096)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// The CIFAR MLP's training step as Keras writes it (3072 -> 512 -> 256 -> 10, relu, relu,
// sigmoid; categorical cross-entropy of probabilities, accuracy, SGD), built with ops::.
void BM_PlanMlpTrainingStep(benchmark::State& state) {
  namespace kb = keras::backend;
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({-1, 3072}));
  auto y = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({-1, 10}));
  Output h = x;
  std::vector<Output> vars;
  const int64_t widths[] = {3072, 512, 256, 10};
  for (int l = 0; l < 3; ++l) {
    auto w = ops::Variable(s, Tensor(DT_FLOAT, TensorShape({widths[l], widths[l + 1]})));
    auto b = ops::Variable(s, Tensor(DT_FLOAT, TensorShape({widths[l + 1]})));
    vars.insert(vars.end(), {w, b});
    Output z = ops::BiasAdd(s, ops::MatMul(s, h, w), b);
    h = l < 2 ? Output(ops::Relu(s, z)) : Output(ops::Sigmoid(s, z));
  }
  Output loss = kb::MeanOfAll(s, kb::CategoricalCrossentropy(s, y, h));
  Output accuracy = kb::CategoricalAccuracy(s, y, h);
  std::vector<Output> grads;
  if (!ops::AddSymbolicGradients(s, {loss}, vars, &grads).ok()) state.SkipWithError("gradients");
  std::vector<Operation> updates;
  for (size_t i = 0; i < vars.size(); ++i) {
    updates.push_back(ops::ApplyGradientDescent(s, vars[i], 0.01f, grads[i]).operation);
  }
  SessionOptions options;
  options.optimize_graph = state.range(0) != 0;
  Session session(s, options);
  CallableOptions step{{x, y}, {loss, accuracy}, updates};
  size_t nodes = 0;
  for (auto _ : state) {
    absl::StatusOr<GraphView> plan = session.ViewPlan(step);
    if (!plan.ok()) state.SkipWithError(plan.status().ToString().c_str());
    nodes = plan.ok() ? plan->nodes.size() : 0;
  }
  state.counters["nodes"] = static_cast<double>(nodes);
}
BENCHMARK(BM_PlanMlpTrainingStep)
    ->ArgName("optimize")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond);

}  // namespace session_bench
}  // namespace

BENCHMARK_MAIN();
