// Data-parallel training is the same training: N ranks with batch B each, through
// DistributedOptimizer, end with the weights of one process with batch N*B (1e-5), after 50
// SGD steps and after 50 Adam steps, also when the ranks sum their updated weights (replicas).
// Each rank also trains the one-process reference itself.
#include <cmath>
#include <random>

#include "dist_test_util.h"

namespace rill::testing {
namespace {

constexpr int kSteps = 50;

// A two-layer network's sizes and each rank's batch. The default one's weights are larger
// than their factors only in no layer; Wide()'s first layer, [40, 48], is larger than a
// batch of 4 a rank gathered from 2 or 3 ranks (8 or 12 x (40 + 48) elements), so its
// replica update goes by rows (dist::UpdateReplicas).
struct Dims {
  int in = 6, hidden = 16, out = 3, batch = 8;
  bool uneven = false;  // rank r takes batch + r rows
  int RowsOf(int rank) const { return batch + (uneven ? rank : 0); }
  int FirstRowOf(int rank) const {
    int first = 0;
    for (int r = 0; r < rank; ++r) first += RowsOf(r);
    return first;
  }
};

constexpr Dims kSmall{};
constexpr Dims kWide{.in = 40, .hidden = 48, .out = 3, .batch = 4};

// The global batch of step `step` (every rank makes the same one).
Tensor Batch(int step, int rows, int cols, uint32_t salt) {
  std::mt19937 gen(1000 * step + salt);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Tensor t(DT_FLOAT, TensorShape({rows, cols}));
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<float>()(i) = u(gen);
  return t;
}

Tensor Rows(const Tensor& t, int first, int count) {
  const int cols = static_cast<int>(t.dim_size(1));
  Tensor r(DT_FLOAT, TensorShape({count, cols}));
  std::memcpy(r.data(), t.flat<float>().data() + first * cols, sizeof(float) * count * cols);
  return r;
}

struct Model {
  Dims dims;
  Scope scope = Scope::NewRootScope();
  Output x, y, w1, b1, w2, b2;
  Operation step;
};

// A two-layer network; its starting weights depend on `seed` (ranks start apart, so the
// broadcast from rank 0 matters).
void Build(Model* m, std::shared_ptr<ops::Optimizer> opt, uint32_t seed, Dims dims = kSmall) {
  m->dims = dims;
  const int kIn = dims.in, kHidden = dims.hidden, kOut = dims.out;
  Scope& s = m->scope;
  m->x = ops::Placeholder(s.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({-1, kIn}));
  m->y = ops::Placeholder(s.WithOpName("y"), DT_FLOAT, ops::Placeholder::Shape({-1, kOut}));
  auto init = [&](const char* name, std::vector<int64_t> shape, uint32_t salt) {
    Tensor t = RandomTensor(DT_FLOAT, TensorShape(shape), -0.5, 0.5, seed * 10 + salt);
    return Output(ops::Variable(s.WithOpName(name), Input::Initializer(t)));
  };
  m->w1 = init("w1", {kIn, kHidden}, 1);
  m->b1 = init("b1", {kHidden}, 2);
  m->w2 = init("w2", {kHidden, kOut}, 3);
  m->b2 = init("b2", {kOut}, 4);
  Output h = ops::Tanh(s, ops::BiasAdd(s, ops::MatMul(s, m->x, m->w1), m->b1));
  Output p = ops::BiasAdd(s, ops::MatMul(s, h, m->w2), m->b2);
  Output loss = ops::Mean(s, ops::Square(s, ops::Sub(s, p, m->y)), ops::Const(s, {0, 1}));
  m->step = opt->Minimize(s, loss);
  ASSERT_TRUE(s.ok()) << s.status();
}

std::vector<Tensor> Train(Model* m, bool distributed) {
  const int size = dist::Size(), rank = dist::Rank();
  Session session(m->scope);
  EXPECT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(m->scope)}, nullptr).ok());
  if (distributed) {
    EXPECT_TRUE(session.Run({}, {}, {dist::BroadcastVariables(m->scope)}, nullptr).ok());
  }
  const Dims& d = m->dims;
  const int all = d.FirstRowOf(size);
  for (int step = 0; step < kSteps; ++step) {
    Tensor x = Batch(step, all, d.in, 1), y = Batch(step, all, d.out, 2);
    if (distributed) {
      x = Rows(x, d.FirstRowOf(rank), d.RowsOf(rank));
      y = Rows(y, d.FirstRowOf(rank), d.RowsOf(rank));
    }
    absl::Status st = session.Run({{m->x, x}, {m->y, y}}, {}, {m->step}, nullptr);
    EXPECT_TRUE(st.ok()) << st;
    if (!st.ok()) return {};
  }
  std::vector<Tensor> out;
  EXPECT_TRUE(session.Run({m->w1, m->b1, m->w2, m->b2}, &out).ok());
  return out;
}

// The largest difference between two runs' weights; `moved` adds up want's magnitudes.
double LargestDifference(const std::vector<Tensor>& got, const std::vector<Tensor>& want,
                         double* moved) {
  EXPECT_EQ(got.size(), want.size());
  double worst = 0;
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
    const std::vector<double> a = ToDoubles(got[i]), b = ToDoubles(want[i]);
    for (size_t k = 0; k < a.size(); ++k) {
      worst = std::max(worst, std::abs(a[k] - b[k]));
      *moved += std::abs(b[k]);
    }
  }
  return worst;
}

void ExpectSameTraining(const std::function<std::shared_ptr<ops::Optimizer>()>& make,
                        const dist::DistributedOptimizerOptions& options, Dims dims = kSmall) {
  Model reference, data_parallel;
  Build(&reference, make(), /*seed=*/1, dims);
  Build(&data_parallel, std::make_shared<dist::DistributedOptimizer>(make(), options),
        /*seed=*/1 + dist::Rank(), dims);
  const std::vector<Tensor> want = Train(&reference, false);
  const std::vector<Tensor> got = Train(&data_parallel, true);
  ASSERT_EQ(got.size(), want.size());
  double moved = 0;
  const double worst = LargestDifference(got, want, &moved);
  EXPECT_LE(worst, 1e-5) << "rank " << dist::Rank() << " of " << dist::Size();
  if (dist::Rank() == 0) {
    std::printf(
        "%d ranks x batch %d against 1 process x batch %d, %d steps: largest weight "
        "difference %.3g\n",
        dist::Size(), dims.batch, dist::Size() * dims.batch, kSteps, worst);
  }
  EXPECT_GT(moved, 0.1);
}

std::shared_ptr<ops::Optimizer> Sgd() {
  return std::make_shared<ops::GradientDescentOptimizer>(0.1);
}

TEST(DataParallel, SgdOnNRanksEqualsOneProcessWithNTimesTheBatch) { ExpectSameTraining(Sgd, {}); }

TEST(DataParallel, AdamOnNRanksEqualsOneProcessWithNTimesTheBatch) {
  ExpectSameTraining([] { return std::make_shared<ops::AdamOptimizer>(0.01); }, {});
}

// Buckets of 64 bytes: an allreduce per gradient, each started as its gradient is made.
TEST(DataParallel, SmallBucketsTrainTheSame) {
  ExpectSameTraining([] { return std::make_shared<ops::MomentumOptimizer>(0.05, 0.9); },
                     {.bucket_bytes = 64});
}

// Replicas: each weight's gradient is reduced alone, so its update sums the ranks' updated
// weights (_MatMulAllReduceApplyGradientDescent) instead of updating after the sum.
dist::DistributedOptimizerOptions Replicas() {
  return {.bucket_bytes = 64, .replicated_variables = true};
}

TEST(DataParallel, SgdOnReplicasEqualsOneProcessWithNTimesTheBatch) {
  ExpectSameTraining(Sgd, Replicas());
}

int TracedOps(Session& session, const Model& m, const std::string& op) {
  RunOptions traced;
  traced.trace_level = RunOptions::FULL_TRACE;
  RunMetadata meta;
  const Tensor x = Batch(0, m.dims.batch, m.dims.in, 1), y = Batch(0, m.dims.batch, m.dims.out, 2);
  absl::Status st = session.Run(traced, {{m.x, x}, {m.y, y}}, {}, {m.step}, nullptr, &meta);
  EXPECT_TRUE(st.ok()) << st;
  int count = 0;
  for (const NodeExecStats& n : meta.step_stats.nodes) count += n.op == op;
  return count;
}

// Whether this rank's value of each tensor is rank 0's.
bool SameAsRankZero(Session& session, const std::vector<Output>& values) {
  Scope s = Scope::NewRootScope();
  std::vector<Output> mine, root;
  std::vector<Tensor> got;
  EXPECT_TRUE(session.Run(values, &got).ok());
  for (const Tensor& t : got) {
    mine.push_back(ops::Const(s, t));
    root.push_back(ops::CollectiveBroadcast(s, mine.back()));
  }
  std::vector<Tensor> a, b;
  Session check(s);
  EXPECT_TRUE(check.Run(mine, &a).ok() && check.Run(root, &b).ok());
  bool same = true;
  for (size_t i = 0; i < a.size(); ++i) same = same && ToDoubles(a[i]) == ToDoubles(b[i]);
  return same;
}

// Every rank runs the fused update for both weights, and ranks that start apart (no
// broadcast) hold rank 0's weights after one step: the documented rule for replicas
// updated by a sum (this model's weights are smaller than their factors).
TEST(DataParallel, ReplicaUpdatesRunFusedAndFollowRankZero) {
  Model m;
  Build(&m, std::make_shared<dist::DistributedOptimizer>(Sgd(), Replicas()), 1 + dist::Rank());
  Session session(m.scope);
  RILL_ASSERT_OK(session.Run({}, {}, {ops::GlobalVariablesInitializer(m.scope)}, nullptr));
  const bool apart = dist::Size() > 1;
  EXPECT_EQ(SameAsRankZero(session, {m.w1, m.w2}), !apart || dist::Rank() == 0);
  EXPECT_EQ(TracedOps(session, m, "_MatMulAllReduceApplyGradientDescent"), 2);
  EXPECT_EQ(TracedOps(session, m, "ApplyGradientDescent"), 2);  // the biases
  EXPECT_TRUE(SameAsRankZero(session, {m.w1, m.w2}));
}

// How many replica updates went by rows (gathered) and how many shared one copy since
// `since`, against what a job of 2 or more ranks on one host makes: the first by rows, the
// rest in the shared copy the ranks moved into after it.
void ExpectRowsThenShared(const dist::PathCounts& since, int64_t rows, int64_t shared) {
  const dist::PathCounts now = dist::CollectivePaths();
  const bool many = dist::Size() > 1;
  EXPECT_EQ(now.replica_rows - since.replica_rows, many ? rows : 0);
  EXPECT_EQ(now.replica_shared - since.replica_shared, many ? shared : 0);
}

// Replicas whose first layer's update goes by rows (gathered factors), then in one shared
// copy: the same training as one process.
TEST(DataParallel, SgdOnReplicasByRowsEqualsOneProcessWithNTimesTheBatch) {
  const dist::PathCounts before = dist::CollectivePaths();
  ExpectSameTraining(Sgd, Replicas(), kWide);
  ExpectRowsThenShared(before, 1, kSteps - 1);
}

// With a batch that differs between ranks (4, 5, 6 rows), each rank's rows of the gathered
// factors weigh as its own batch's: the update by rows is the plain mean's.
TEST(DataParallel, ReplicasByRowsWithUnevenBatchesUpdateAsThePlainMean) {
  Dims uneven = kWide;
  uneven.uneven = true;
  Model plain, rows;
  Build(&plain, std::make_shared<dist::DistributedOptimizer>(Sgd()), 1, uneven);
  Build(&rows, std::make_shared<dist::DistributedOptimizer>(Sgd(), Replicas()), 1, uneven);
  const dist::PathCounts before = dist::CollectivePaths();
  const std::vector<Tensor> got = Train(&rows, true);
  ExpectRowsThenShared(before, 1, kSteps - 1);
  double moved = 0;
  EXPECT_LE(LargestDifference(got, Train(&plain, true), &moved), 1e-5);
  EXPECT_GT(moved, 0.1);
}

// Ranks that start apart (no broadcast) hold the same weights after one update by rows:
// each row is its rank's minus the summed update.
TEST(DataParallel, ReplicaUpdatesByRowsLeaveRanksAlike) {
  Model m;
  Build(&m, std::make_shared<dist::DistributedOptimizer>(Sgd(), Replicas()), 1 + dist::Rank(),
        kWide);
  Session session(m.scope);
  RILL_ASSERT_OK(session.Run({}, {}, {ops::GlobalVariablesInitializer(m.scope)}, nullptr));
  EXPECT_EQ(SameAsRankZero(session, {m.w1}), dist::Size() == 1 || dist::Rank() == 0);
  EXPECT_EQ(TracedOps(session, m, "_MatMulAllReduceApplyGradientDescent"), 2);
  EXPECT_TRUE(SameAsRankZero(session, {m.w1, m.w2}));
}

// One step of the global batch `step` on this rank's rows of it, fetching `fetch` too.
void StepOnThisRank(Session& session, const Model& m, int step,
                    const std::vector<Output>& fetch = {}) {
  const Dims& d = m.dims;
  const int all = d.FirstRowOf(dist::Size()), first = d.FirstRowOf(dist::Rank());
  const Tensor x = Rows(Batch(step, all, d.in, 1), first, d.RowsOf(dist::Rank()));
  const Tensor y = Rows(Batch(step, all, d.out, 2), first, d.RowsOf(dist::Rank()));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session.Run({{m.x, x}, {m.y, y}}, fetch, {m.step}, &out));
}

// Two plans of one session (a step with a fetch and one without) update the same weight by
// turns: they share its one copy as one plan does.
TEST(DataParallel, TwoPlansOfOneSessionShareOneCopy) {
  Model m;
  Build(&m, std::make_shared<dist::DistributedOptimizer>(Sgd(), Replicas()), 1, kWide);
  Session session(m.scope);
  RILL_ASSERT_OK(session.Run({}, {}, {ops::GlobalVariablesInitializer(m.scope)}, nullptr));
  const dist::PathCounts since = dist::CollectivePaths();
  for (int step = 0; step < 8; ++step) {
    StepOnThisRank(session, m, step, step % 2 ? std::vector<Output>{m.b1} : std::vector<Output>{});
  }
  ExpectRowsThenShared(since, 1, 7);
  EXPECT_TRUE(SameAsRankZero(session, {m.w1}));
}

// A weight rank 0 fetched from the shared copy keeps its value while training goes on: that
// rank's next update writes a private copy, so every rank leaves the shared one for the
// step (by rows, ranks alike after it); they wait a step, move into a new shared copy by
// rows, and share it again.
TEST(DataParallel, AWeightFetchedFromTheSharedCopyNeverChanges) {
  Model m;
  Build(&m, std::make_shared<dist::DistributedOptimizer>(Sgd(), Replicas()), 1, kWide);
  Session session(m.scope);
  RILL_ASSERT_OK(session.Run({}, {}, {ops::GlobalVariablesInitializer(m.scope)}, nullptr));
  dist::PathCounts since = dist::CollectivePaths();
  for (int step = 0; step < 2; ++step) StepOnThisRank(session, m, step);
  ExpectRowsThenShared(since, 1, 1);
  std::vector<Tensor> held;
  RILL_ASSERT_OK(session.Run({m.w1}, &held));
  if (dist::Rank() != 0) held.clear();
  const std::vector<double> seen = held.empty() ? std::vector<double>() : ToDoubles(held[0]);
  since = dist::CollectivePaths();
  StepOnThisRank(session, m, 2);
  ExpectRowsThenShared(since, 1, 0);
  if (!held.empty()) {
    EXPECT_EQ(ToDoubles(held[0]), seen);
  }
  EXPECT_TRUE(SameAsRankZero(session, {m.w1}));
  held.clear();
  since = dist::CollectivePaths();
  for (int step = 3; step < 6; ++step) StepOnThisRank(session, m, step);
  ExpectRowsThenShared(since, 2, 1);
  EXPECT_TRUE(SameAsRankZero(session, {m.w1}));
}

// A weight assigned on rank 0 alone changes on rank 0 alone (the assignment writes a private
// copy, not the shared one); the next update leaves the shared copy, and each row ends as
// its rank's row minus the summed update, so the ranks are alike again after it.
TEST(DataParallel, AnAssignmentOnOneRankLeavesTheOthersWeights) {
  Model m;
  Build(&m, std::make_shared<dist::DistributedOptimizer>(Sgd(), Replicas()), 1, kWide);
  Operation zero = ops::Assign(m.scope, m.w1, ops::ZerosLike(m.scope, m.w1)).operation;
  Session session(m.scope);
  RILL_ASSERT_OK(session.Run({}, {}, {ops::GlobalVariablesInitializer(m.scope)}, nullptr));
  for (int step = 0; step < 2; ++step) StepOnThisRank(session, m, step);
  std::vector<Tensor> before, after;
  RILL_ASSERT_OK(session.Run({m.w1}, &before));
  if (dist::Rank() == 0) {
    RILL_ASSERT_OK(session.Run({}, {}, {zero}, nullptr));
  }
  RILL_ASSERT_OK(session.Run({m.w1}, &after));
  const std::vector<double> was = ToDoubles(before[0]), now = ToDoubles(after[0]);
  EXPECT_EQ(now, dist::Rank() == 0 ? std::vector<double>(was.size(), 0.0) : was);
  before.clear();
  after.clear();
  const dist::PathCounts since = dist::CollectivePaths();
  StepOnThisRank(session, m, 2);
  ExpectRowsThenShared(since, 1, 0);
  EXPECT_TRUE(SameAsRankZero(session, {m.w1}));
}

}  // namespace
}  // namespace rill::testing
