// Einsum against the op a TensorFlow user would otherwise write, in the same process,
// alternated within each iteration (the counter is Einsum's time over the other's):
//   BM_EinsumAttention/n  "bhqd,bhkd->bhqk" (b 2, h 4, d 64, q = k = n) against
//                         BatchMatMulV2(x, y, AdjY(true)): einsum_vs_batch_matmul
//   BM_EinsumTrace/n      "...ii->..." over [16, n, n] against Sum(MatrixDiagPart(x), -1):
//                         einsum_vs_diag_sum
#include <chrono>
#include <random>

#include "benchmark/benchmark.h"
#include "rill/rill.h"

namespace {
namespace einsum_bench {

using namespace rill;  // NOLINT
using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

Tensor Random(const TensorShape& shape) {
  Tensor t(DT_FLOAT, shape);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<float>()(i) = dist(rng);
  return t;
}

// Runs `a` and `b` (fetches of one Session over `feeds`) in turn each iteration; reports
// a's time and the counter `name` = a's total time over b's.
void Alternate(benchmark::State& state, Session& session, const Session::FeedType& feeds,
               const Output& a, const Output& b, const char* name) {
  std::vector<Tensor> out;
  double ta = 0, tb = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    if (!session.Run(feeds, {a}, &out).ok()) state.SkipWithError("Einsum's run failed");
    auto t1 = Clock::now();
    if (!session.Run(feeds, {b}, &out).ok()) state.SkipWithError("the other run failed");
    auto t2 = Clock::now();
    ta += Seconds(t0, t1);
    tb += Seconds(t1, t2);
    state.SetIterationTime(Seconds(t0, t1));
  }
  state.counters[name] = ta / tb;
}

void BM_EinsumAttention(benchmark::State& state) {
  const int64_t n = state.range(0);
  const TensorShape shape({2, 4, n, 64});
  Scope s = Scope::NewRootScope();
  auto q = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape(shape));
  auto k = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape(shape));
  Output einsum = ops::Einsum(s, {q, k}, "bhqd,bhkd->bhqk");
  Output bmm = ops::BatchMatMulV2(s, q, k, ops::BatchMatMulV2::AdjY(true));
  Session session(s);
  Alternate(state, session, {{q, Random(shape)}, {k, Random(shape)}}, einsum, bmm,
            "einsum_vs_batch_matmul");
}
BENCHMARK(BM_EinsumAttention)->Arg(64)->Arg(256)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_EinsumTrace(benchmark::State& state) {
  const int64_t n = state.range(0);
  const TensorShape shape({16, n, n});
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape(shape));
  Output einsum = ops::Einsum(s, {x}, "...ii->...");
  Output diag_sum = ops::Sum(s, ops::MatrixDiagPart(s, x), -1);
  Session session(s);
  Alternate(state, session, {{x, Random(shape)}}, einsum, diag_sum, "einsum_vs_diag_sum");
}
BENCHMARK(BM_EinsumTrace)->Arg(64)->Arg(512)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace einsum_bench
}  // namespace
