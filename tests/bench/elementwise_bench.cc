// A fused elementwise chain against the same ops unfused and against one hand-written loop
// that keeps every value in registers (the bound for a chain that reads one tensor and
// writes one), measured in the same process, alternated within each iteration.
//   BM_HardSwishChain/n  PP-OCRv4's convolution epilogue over n floats: a channel bias, an
//                        affine, x * clip(x + 3, 0, 6) / 6, an affine (10 ops); counters
//                        unfused_vs_fused (unfused time / fused time) and loop_vs_fused
//                        (hand loop time / fused time; 1.0 = the bound)
#include <algorithm>
#include <chrono>
#include <random>

#include "benchmark/benchmark.h"
#include "rill/rill.h"

namespace {
namespace elementwise_bench {

using namespace rill;  // NOLINT
using Clock = std::chrono::steady_clock;

constexpr int64_t kChannels = 240;

// The chain over x [n / kChannels, kChannels] with bias b [kChannels].
Output HardSwishChain(const Scope& s, Output x, Output b) {
  auto scalar = [&](float v) { return ops::Const(s, v); };
  Output t = ops::Add(s, x, b);
  Output u = ops::Add(s, ops::Mul(s, scalar(1.1f), t), scalar(0.1f));
  Output clip =
      ops::Minimum(s, ops::Maximum(s, ops::Add(s, u, scalar(3.0f)), scalar(0.0f)), scalar(6.0f));
  Output h = ops::RealDiv(s, ops::Mul(s, u, clip), scalar(6.0f));
  return ops::Add(s, ops::Mul(s, scalar(0.9f), h), scalar(-0.2f));
}

// One thread, one pass, vectorized by the compiler over the channels.
void HandLoop(const float* x, const float* b, float* y, int64_t n) {
  for (int64_t row = 0; row < n; row += kChannels) {
    for (int64_t c = 0; c < kChannels; ++c) {
      const float u = 1.1f * (x[row + c] + b[c]) + 0.1f;
      const float h = u * std::min(std::max(u + 3.0f, 0.0f), 6.0f) / 6.0f;
      y[row + c] = 0.9f * h - 0.2f;
    }
  }
}

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

void BM_HardSwishChain(benchmark::State& state) {
  const int64_t n = state.range(0);
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({n / kChannels, kChannels}));
  auto b = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({kChannels}));
  Output y = HardSwishChain(s, x, b);
  Tensor xv(DT_FLOAT, TensorShape({n / kChannels, kChannels})),
      bv(DT_FLOAT, TensorShape({kChannels}));
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-5, 5);
  for (int64_t i = 0; i < xv.NumElements(); ++i) xv.flat<float>()(i) = dist(rng);
  for (int64_t i = 0; i < kChannels; ++i) bv.flat<float>()(i) = dist(rng);
  SessionOptions plain;
  plain.optimize_graph = false;
  Session fused(s), unfused(s, plain);
  Session::FeedType feeds{{x, xv}, {b, bv}};
  std::vector<Tensor> out_f, out_u;
  Tensor out_l(DT_FLOAT, xv.shape());
  double tf = 0, tu = 0, tl = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    if (!fused.Run(feeds, {y}, &out_f).ok()) state.SkipWithError("fused Run failed");
    auto t1 = Clock::now();
    if (!unfused.Run(feeds, {y}, &out_u).ok()) state.SkipWithError("unfused Run failed");
    auto t2 = Clock::now();
    HandLoop(xv.flat<float>().data(), bv.flat<float>().data(), out_l.flat<float>().data(),
             xv.NumElements());
    auto t3 = Clock::now();
    benchmark::DoNotOptimize(out_l.flat<float>().data());
    tf += Seconds(t0, t1);
    tu += Seconds(t1, t2);
    tl += Seconds(t2, t3);
    state.SetIterationTime(Seconds(t0, t1));
  }
  state.counters["unfused_vs_fused"] = tu / tf;
  state.counters["loop_vs_fused"] = tl / tf;
}
BENCHMARK(BM_HardSwishChain)
    ->Arg(240 * 64)
    ->Arg(240 * 960)
    ->Arg(240 * 4096)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace elementwise_bench
}  // namespace
