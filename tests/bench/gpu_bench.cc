// GPU figures, skipped where there is no GPU:
//   BM_GpuMatMulVsCublas/n   rill's MatMul on /GPU:0 (a Run with it as target) and cuBLAS
//                            (cublasGemmEx into a buffer made once) on the same stream,
//                            alternated; counter rill_vs_cublas = cuBLAS time / rill time
//   BM_GpuChain100/graphs    100 dependent scalar Adds on the GPU (the optimizer off, so
//                            that they stay 100 nodes): host cost per node, run as usual
//                            (0) or replayed as a CUDA graph (1; counter replays)
//   BM_GpuChain100Host/graphs  the host's time alone for the same (queued, not waited for)
//   BM_GpuLaunch100          100 bare kernel launches: the floor under that
//   BM_GpuFirstRun           Session creation + first Run of a 1024^2 MatMul, and a warm Run
#include <chrono>
#include <memory>

#include "benchmark/benchmark.h"
#include "gpu_bench_device.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"
#include "rill/rill.h"

namespace {

using namespace rill;  // NOLINT
using Clock = std::chrono::steady_clock;

using bench::Gpu;

#define RILL_BENCH_REQUIRE_GPU(state)              \
  if (Gpu() == nullptr) {                          \
    state.SkipWithError("no GPU on this machine"); \
    return;                                        \
  }

void BM_GpuMatMulVsCublas(benchmark::State& state) {
  RILL_BENCH_REQUIRE_GPU(state);
  const int64_t n = state.range(0);
  const bool tf32 = state.range(1) != 0;
  auto* ctx = Gpu()->gpu_context();
  Scope root = Scope::NewRootScope().WithDevice("/GPU:0");
  auto shape = ops::Const(root, {n, n});
  auto a = ops::RandomUniform(root, shape, DT_FLOAT, ops::RandomUniform::Seed(1));
  auto b = ops::RandomUniform(root, shape, DT_FLOAT, ops::RandomUniform::Seed(2));
  auto va = ops::Variable(root, {n, n}, DT_FLOAT), vb = ops::Variable(root, {n, n}, DT_FLOAT);
  auto c = ops::MatMul(root, va, vb);  // run as a target: the product stays on the GPU
  SessionOptions opts;
  opts.allow_tf32 = tf32;
  Session session(root, opts);
  if (!session.Run({}, {}, {ops::Assign(root, va, a), ops::Assign(root, vb, b)}, nullptr).ok()) {
    state.SkipWithError("init failed");
    return;
  }
  Tensor da, db;
  std::vector<Tensor> out;
  (void)session.Run({va, vb}, &out);
  (void)Gpu()->CopyFromHost(out[0], &da);
  (void)Gpu()->CopyFromHost(out[1], &db);
  Tensor dc(Gpu()->allocator(), DT_FLOAT, TensorShape({n, n}));
  const float one = 1, zero = 0;
  double rill_s = 0, raw_s = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    (void)session.Run({}, {}, {c.operation}, nullptr);
    auto t1 = Clock::now();
    cublasGemmEx(ctx->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db.base<float>(), CUDA_R_32F,
                 n, da.base<float>(), CUDA_R_32F, n, &zero, dc.base<float>(), CUDA_R_32F, n,
                 tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cudaStreamSynchronize(ctx->stream);
    auto t2 = Clock::now();
    double r = std::chrono::duration<double>(t1 - t0).count();
    rill_s += r;
    raw_s += std::chrono::duration<double>(t2 - t1).count();
    state.SetIterationTime(r);
  }
  // Both sides end with a sync of the stream; rill's run also allocates its output.
  state.counters["rill_vs_cublas"] = raw_s / rill_s;
  state.counters["TFLOPs"] = 2.0 * n * n * n * state.iterations() / rill_s / 1e12;
}
BENCHMARK(BM_GpuMatMulVsCublas)
    ->ArgsProduct({{256, 1024, 2048, 4096, 8192}, {0, 1}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// 100 dependent scalar Adds on the GPU in a Session with graph mode as `state` says, the
// optimizer off (it would fuse them into one kernel); the callable feeds x and fetches
// the sum, or has it as a target only.
struct Chain100 {
  Chain100(benchmark::State& state, bool fetch) {
    auto x = ops::Placeholder(root, DT_FLOAT);
    Output acc = x;
    for (int i = 0; i < 100; ++i) acc = ops::Add(root, acc, 1.0f);
    SessionOptions options;
    options.optimize_graph = false;
    options.cuda_graphs = state.range(0) != 0;
    session = std::make_unique<Session>(root, options);
    CallableOptions sig{{x}, {}, {}};
    if (fetch) {
      sig.fetch = {acc};
    } else {
      sig.target = {acc.op()};
    }
    ok = session->MakeCallable(sig, &handle).ok();
    if (!ok) state.SkipWithError("MakeCallable failed");
  }
  void CountReplays(benchmark::State& state) const {
    auto stats = session->GetStepGraphStats(handle);
    if (stats.ok()) state.counters["replays"] = static_cast<double>(stats->replays);
  }
  Scope root = Scope::NewRootScope().WithDevice("/GPU:0");
  std::unique_ptr<Session> session;
  Session::CallableHandle handle = 0;
  bool ok = false;
  const std::vector<Tensor> feeds{Tensor(0.0f)};
};

void BM_GpuChain100(benchmark::State& state) {
  RILL_BENCH_REQUIRE_GPU(state);
  Chain100 chain(state, /*fetch=*/true);
  if (!chain.ok) return;
  std::vector<Tensor> out;
  for (auto _ : state) (void)chain.session->RunCallable(chain.handle, chain.feeds, &out);
  state.counters["us_per_node"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 100 * 1e6,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  chain.CountReplays(state);
  if (out.empty() || out[0].scalar<float>()() != 100.f) state.SkipWithError("wrong result");
}
BENCHMARK(BM_GpuChain100)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// The host's share of BM_GpuChain100: the same 100 nodes as a target (no fetch), run with
// RunOptions::wait_for_devices = false so that the call returns once the work is queued;
// only the call is timed, the wait for the GPU comes after. Counter host_us_per_node (the
// issue's goal for graph replay: at most 1).
void BM_GpuChain100Host(benchmark::State& state) {
  RILL_BENCH_REQUIRE_GPU(state);
  Chain100 chain(state, /*fetch=*/false);
  if (!chain.ok) return;
  RunOptions run;
  run.wait_for_devices = false;
  std::vector<Tensor> out;
  double host_s = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    (void)chain.session->RunCallable(chain.handle, chain.feeds, &out, run, nullptr);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    cudaDeviceSynchronize();
    state.SetIterationTime(s);
    host_s += s;
  }
  state.counters["host_us_per_node"] =
      host_s * 1e6 / (static_cast<double>(state.iterations()) * 100);
  chain.CountReplays(state);
}
// A fixed count: the manual (host) time of a replay is a few microseconds against the
// GPU's 150, so a time-based count ran past the GPU run's minute (2026-11-28, H200).
BENCHMARK(BM_GpuChain100Host)
    ->Arg(0)
    ->Arg(1)
    ->UseManualTime()
    ->Iterations(2000)
    ->Unit(benchmark::kMicrosecond);

// The floor under BM_GpuChain100: 100 bare kernel launches (one float filled each) and a
// sync, through rill's launcher, no graph; counter us_per_launch.
void BM_GpuLaunch100(benchmark::State& state) {
  RILL_BENCH_REQUIRE_GPU(state);
  auto* ctx = Gpu()->gpu_context();
  Tensor one(Gpu()->allocator(), DT_FLOAT, TensorShape({1}));
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) {
      (void)gpu::LaunchFillConstant<float>(float(i), one.base<float>(), 1, ctx->stream);
    }
    cudaStreamSynchronize(ctx->stream);
  }
  state.counters["us_per_launch"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 100 * 1e6,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_GpuLaunch100)->Unit(benchmark::kMicrosecond);

void BM_GpuFirstRun(benchmark::State& state) {
  RILL_BENCH_REQUIRE_GPU(state);
  double first_ms = 0, warm_ms = 0;
  for (auto _ : state) {
    Scope root = Scope::NewRootScope().WithDevice("/GPU:0");
    auto a = ops::RandomUniform(root, {1024, 1024}, DT_FLOAT);
    auto c = ops::Sum(root, ops::MatMul(root, a, a), {0, 1});
    Session session(root);
    std::vector<Tensor> out;
    auto t0 = Clock::now();
    (void)session.Run({c}, &out);
    auto t1 = Clock::now();
    (void)session.Run({c}, &out);
    auto t2 = Clock::now();
    first_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
    warm_ms += std::chrono::duration<double, std::milli>(t2 - t1).count();
  }
  state.counters["first_run_ms"] = first_ms / state.iterations();
  state.counters["warm_run_ms"] = warm_ms / state.iterations();
}
BENCHMARK(BM_GpuFirstRun)->Iterations(5)->Unit(benchmark::kMillisecond);

}  // namespace
