// SparseSegmentSum as an embedding bag (a [50000, 64] table, `n` row lookups summed into
// bags of 8), in the same process and alternated within each iteration, against:
//   gather_segment_sum  UnsortedSegmentSum(Gather(table, indices), ids, n / 8): what a
//                       TensorFlow user writes without the op (counter: op time over it)
//   raw_loop            the same sums as a plain C++ loop over the table, no graph (counter:
//                       op time over it: the Session's and the id checks' cost)
#include <chrono>
#include <random>

#include "benchmark/benchmark.h"
#include "rill/rill.h"

namespace {
namespace segment_bench {

using namespace rill;  // NOLINT
using Clock = std::chrono::steady_clock;

constexpr int64_t kRows = 50000, kDim = 64, kBag = 8;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

void RawLoop(const float* table, const int32_t* idx, int64_t n, float* out) {
  std::fill(out, out + n / kBag * kDim, 0.f);
  for (int64_t j = 0; j < n; ++j) {
    float* o = out + j / kBag * kDim;
    const float* row = table + int64_t{idx[j]} * kDim;
    for (int64_t i = 0; i < kDim; ++i) o[i] += row[i];
  }
}

void BM_EmbeddingBag(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::mt19937 rng(5);
  Tensor table(DT_FLOAT, TensorShape({kRows, kDim})), idx(DT_INT32, TensorShape({n}));
  Tensor ids(DT_INT32, TensorShape({n}));
  std::uniform_real_distribution<float> value(-1, 1);
  for (int64_t i = 0; i < table.NumElements(); ++i) table.base<float>()[i] = value(rng);
  for (int64_t j = 0; j < n; ++j) {
    idx.base<int32_t>()[j] = static_cast<int32_t>(rng() % kRows);
    ids.base<int32_t>()[j] = static_cast<int32_t>(j / kBag);
  }
  Scope s = Scope::NewRootScope();
  // The table a constant (a model's weights); the lookups fed, as a batch's are.
  auto t = ops::Const(s, table);
  auto i = ops::Placeholder(s, DT_INT32);
  auto b = ops::Placeholder(s, DT_INT32);
  Output op = ops::SparseSegmentSum(s, t, i, b);
  Output composed = ops::UnsortedSegmentSum(s, ops::Gather(s, t, i), b,
                                            ops::Const(s, static_cast<int32_t>(n / kBag)));
  Session session(s);
  const Session::FeedType feeds = {{i, idx}, {b, ids}};
  std::vector<Tensor> out;
  std::vector<float> raw(n / kBag * kDim);
  double t_op = 0, t_composed = 0, t_raw = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    if (!session.Run(feeds, {op}, &out).ok()) state.SkipWithError("SparseSegmentSum failed");
    auto t1 = Clock::now();
    if (!session.Run(feeds, {composed}, &out).ok()) state.SkipWithError("the composition failed");
    auto t2 = Clock::now();
    RawLoop(table.base<float>(), idx.base<int32_t>(), n, raw.data());
    benchmark::DoNotOptimize(raw.data());
    auto t3 = Clock::now();
    t_op += Seconds(t0, t1);
    t_composed += Seconds(t1, t2);
    t_raw += Seconds(t2, t3);
    state.SetIterationTime(Seconds(t0, t1));
  }
  state.counters["op_vs_gather_segment_sum"] = t_op / t_composed;
  state.counters["op_vs_raw_loop"] = t_op / t_raw;
}
BENCHMARK(BM_EmbeddingBag)->Arg(4096)->Arg(65536)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace segment_bench
}  // namespace
