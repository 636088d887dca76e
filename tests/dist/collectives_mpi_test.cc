// The collectives on the ranks of `mpirun -np N` (CTest runs N = 2 and 3): every op against
// a reference computed on each rank, for sizes 0, 1, odd, 1 MiB and 64 MiB and every dtype
// (sums also for a count that leaves a short last piece).
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "dist_test_util.h"
#include "rill/runtime/dist/comm.h"

namespace rill::testing {
namespace {

// Rank r's element i: small integers, so sums are exact in every dtype (uint8 included:
// the largest sum over 3 ranks stays below 256).
double Value(int rank, int64_t i) { return static_cast<double>((i * 7 + rank * 13) % 41); }

template <typename T>
void Fill(Tensor* t, int rank) {
  T* p = t->flat<T>().data();
  for (int64_t i = 0; i < t->NumElements(); ++i) p[i] = static_cast<T>(Value(rank, i));
}

// Rank `rank`'s values, written in place (no vector of doubles the size of 64 MiB); bool
// tensors hold the values' parity.
Tensor RankTensor(DataType dt, int64_t n, int rank) {
  Tensor t(dt, TensorShape({n}));
  VisitDataType(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      for (int64_t i = 0; i < n; ++i) t.flat<bool>()(i) = static_cast<int>(Value(rank, i)) % 2;
    } else {
      Fill<T>(&t, rank);
    }
  });
  return t;
}

// Element counts of 0, 1 and 37 elements, 1 MiB and 64 MiB (of float32; the same counts
// for the other dtypes).
const std::vector<int64_t> kCounts = {0, 1, 37, 1 << 18, 1 << 24};
const std::vector<DataType> kNumberTypes = {DT_FLOAT, DT_DOUBLE, DT_INT32,  DT_INT64,  DT_UINT8,
                                            DT_INT8,  DT_INT16,  DT_UINT16, DT_UINT32, DT_UINT64};

// Element i as a double, read in place (64 MiB gathered from 3 ranks is 48M elements).
double At(const Tensor& t, int64_t i) {
  double v = std::nan("");
  VisitDataType(t.dtype(), [&](auto tag) {
    v = static_cast<double>(t.flat<typename decltype(tag)::type>()(i));
  });
  return v;
}

void ExpectValues(const Tensor& got, int64_t n, const std::function<double(int64_t)>& want,
                  const std::string& what) {
  ASSERT_EQ(got.NumElements(), n) << what;
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double g = At(got, i);
    if (g != want(i) && ++bad <= 3) ADD_FAILURE() << what << " [" << i << "] " << g;
  }
  EXPECT_EQ(bad, 0) << what;
}

// MPI sums go in pieces of kAllReducePieceBytes: a count of 4 Mi + 37 elements is more than
// one piece in every dtype, with 37 elements left for a short last piece.
static_assert(dist::kAllReducePieceBytes <= (int64_t{1} << 22));

TEST(Collectives, AllReduceSumAndMeanEveryDtypeAndSize) {
  const int size = dist::Size(), rank = dist::Rank();
  std::vector<int64_t> counts = kCounts;
  counts.push_back((int64_t{1} << 22) + 37);
  for (DataType dt : kNumberTypes) {
    for (int64_t n : counts) {
      Scope s = Scope::NewRootScope();
      auto x = ops::Placeholder(s, dt);
      auto sum = ops::CollectiveAllReduce(s, x);
      auto mean = ops::CollectiveAllReduce(s, x, ops::CollectiveAllReduce::Reduction("mean"));
      Session session(s);
      std::vector<Tensor> out;
      RILL_ASSERT_OK(session.Run({{x, RankTensor(dt, n, rank)}}, {sum, mean}, &out));
      auto total = [&](int64_t i) {
        double t = 0;
        for (int r = 0; r < size; ++r) t += Value(r, i);
        return t;
      };
      const std::string what = DataTypeString(dt) + " x " + std::to_string(n);
      ExpectValues(out[0], n, total, "sum " + what);
      const bool integer = !DataTypeIsFloating(dt);
      ExpectValues(
          out[1], n,
          [&](int64_t i) {
            const double m = total(i) / size;
            if (integer) return std::trunc(m);
            return dt == DT_FLOAT ? static_cast<double>(
                                        static_cast<float>(static_cast<float>(total(i)) / size))
                                  : m;
          },
          "mean " + what);
    }
  }
}

TEST(Collectives, BroadcastFromTheFirstAndTheLastRank) {
  const int size = dist::Size(), rank = dist::Rank();
  std::vector<DataType> every = kNumberTypes;
  every.push_back(DT_BOOL);
  for (DataType dt : every) {
    for (int64_t n : kCounts) {
      for (int root : {0, size - 1}) {
        Scope s = Scope::NewRootScope();
        auto x = ops::Placeholder(s, dt);
        auto b = ops::CollectiveBroadcast(s, x, ops::CollectiveBroadcast::RootRank(root));
        Session session(s);
        std::vector<Tensor> out;
        RILL_ASSERT_OK(session.Run({{x, RankTensor(dt, n, rank)}}, {b}, &out));
        ExpectValues(
            out[0], n,
            [&](int64_t i) {
              const double v = Value(root, i);
              return dt == DT_BOOL ? static_cast<double>(static_cast<int>(v) % 2) : v;
            },
            "broadcast " + DataTypeString(dt) + " x " + std::to_string(n) + " from " +
                std::to_string(root));
      }
    }
  }
}

// Rank r brings its rows: every dtype, 0, 1, 37, 1 MiB and 64 MiB of them per rank (one
// column), and rows of 3 whose count differs per rank.
TEST(Collectives, AllGatherEveryDtypeAndSize) {
  const int size = dist::Size(), rank = dist::Rank();
  std::vector<DataType> every = kNumberTypes;
  every.push_back(DT_BOOL);
  for (DataType dt : every) {
    for (int64_t n : kCounts) {
      // 0, 1 and 37 rows; 1 MiB and 64 MiB a rank in this dtype.
      const int64_t rows = n <= 37 ? n : n * 4 / DataTypeSize(dt);
      Scope s = Scope::NewRootScope();
      auto x = ops::Placeholder(s, dt);
      auto g = ops::CollectiveAllGather(s, x);
      Session session(s);
      std::vector<Tensor> out;
      RILL_ASSERT_OK(session.Run({{x, RankTensor(dt, rows, rank)}}, {g}, &out));
      ExpectValues(
          out[0], rows * size,
          [&](int64_t i) {
            const double v = Value(static_cast<int>(i / rows), i % rows);
            return dt == DT_BOOL ? static_cast<double>(static_cast<int>(v) % 2) : v;
          },
          "allgather " + DataTypeString(dt) + " x " + std::to_string(rows));
    }
  }
}

TEST(Collectives, AllGatherRowsThatDifferPerRank) {
  const int size = dist::Size(), rank = dist::Rank();
  for (DataType dt : {DT_FLOAT, DT_INT64, DT_UINT8}) {
    for (int extra : {0, 1}) {
      const int64_t rows = rank + extra;
      std::vector<double> v;
      for (int64_t i = 0; i < rows * 3; ++i) v.push_back(Value(rank, i));
      Scope s = Scope::NewRootScope();
      auto x = ops::Placeholder(s, dt);
      auto g = ops::CollectiveAllGather(s, x);
      Session session(s);
      std::vector<Tensor> out;
      RILL_ASSERT_OK(session.Run({{x, FromDoubles(dt, TensorShape({rows, 3}), v)}}, {g}, &out));
      std::vector<double> want;
      for (int r = 0; r < size; ++r) {
        for (int64_t i = 0; i < (r + extra) * 3; ++i) want.push_back(Value(r, i));
      }
      ExpectTensorNear(out[0], dt, TensorShape({static_cast<int64_t>(want.size() / 3), 3}), want,
                       0);
    }
  }
}

// The gradients across ranks: loss = sum over ranks of sum(w_r * f(x)), each rank's x its own.
TEST(Collectives, GradientsSumOverTheRanks) {
  const int size = dist::Size(), rank = dist::Rank();
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_DOUBLE, ops::Placeholder::Shape({2}));
  const double w = rank + 1;
  Output all = ops::CollectiveAllReduce(s, x);
  Output from_root = ops::CollectiveBroadcast(s, x, ops::CollectiveBroadcast::RootRank(size - 1));
  Output gathered = ops::CollectiveAllGather(s, ops::Reshape(s, x, ops::Const(s, {1, 2})));
  Output loss =
      ops::AddN(s, {ops::Sum(s, ops::Mul(s, all, ops::Const(s, w)), ops::Const(s, 0)),
                    ops::Sum(s, ops::Mul(s, from_root, ops::Const(s, w)), ops::Const(s, 0)),
                    ops::Sum(s, ops::Mul(s, gathered, ops::Const(s, w)), ops::Const(s, {0, 1}))});
  std::vector<Output> grads;
  RILL_ASSERT_OK(AddSymbolicGradients(s, {loss}, {x}, &grads));
  Session session(s);
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session.Run({{x, {1.0, 2.0}}}, {grads[0]}, &out));
  // d/dx_r of sum_q w_q * (sum_p x_p) = sum_q w_q; the broadcast adds it on the root only;
  // the gather gives each rank's row the sum of the w_q too.
  double wsum = 0;
  for (int q = 0; q < size; ++q) wsum += q + 1;
  const double want = wsum + (rank == size - 1 ? wsum : 0) + wsum;
  ExpectTensorNear(out[0], DT_DOUBLE, TensorShape({2}), {want, want}, 1e-12);
}

// A rank's share of a mean, x / N: the same folded into a constant when the plan is built
// as run in a plan without the optimizer.
TEST(Collectives, RankShareIsXOverTheRanks) {
  for (bool optimize : {true, false}) {
    Scope s = Scope::NewRootScope();
    Output share = ops::internal::RankShare(s, ops::Const(s, {3.0, -6.0, 1.0}));
    SessionOptions options;
    options.optimize_graph = optimize;
    Session session(s, options);
    std::vector<Tensor> out;
    RILL_ASSERT_OK(session.Run({share}, &out));
    const double n = dist::Size();
    ExpectTensorNear(out[0], DT_DOUBLE, TensorShape({3}), {3 / n, -6 / n, 1 / n}, 0);
  }
}

// One rank with another shape: every rank fails with both sides named; the job goes on.
// CPU seconds this process has used so far, every thread's.
double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return t.tv_sec + t.tv_usec * 1e-6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

// A rank that waits for a late one sleeps: mpirun binds a few ranks to a core each, and a
// communication thread that polled at full speed would take that core from the rank's own
// compute. The last rank arrives 400 ms late; the others may spend a quarter of it on CPU.
TEST(Collectives, WaitingForALateRankTakesNoCore) {
  if (dist::Size() < 2) GTEST_SKIP() << "needs a rank to wait for";
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto sum = ops::CollectiveAllReduce(s, x);
  Session session(s);
  std::vector<Tensor> out;
  const Tensor one = FromDoubles(DT_FLOAT, TensorShape({1}), {1.0});
  RILL_ASSERT_OK(session.Run({{x, one}}, {sum}, &out));  // every rank has planned the step
  const bool late = dist::Rank() == dist::Size() - 1;
  if (late) std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const double cpu = CpuSeconds();
  RILL_ASSERT_OK(session.Run({{x, one}}, {sum}, &out));
  ExpectTensorNear(out[0], DT_FLOAT, TensorShape({1}), {1.0 * dist::Size()}, 0);
  if (!late) {
    EXPECT_LT(CpuSeconds() - cpu, 0.1) << "CPU seconds spent waiting 0.4 s";
  }
}

TEST(Collectives, ShapesThatDifferAcrossRanksAreAnErrorOnEveryRank) {
  if (dist::Size() < 2) GTEST_SKIP() << "needs two ranks to disagree";
  const int rank = dist::Rank();
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto sum = ops::CollectiveAllReduce(s.WithOpName("mismatched"), x);
  Session session(s);
  std::vector<Tensor> out;
  absl::Status st =
      session.Run({{x, Tensor(DT_FLOAT, TensorShape({rank == 1 ? 4 : 3}))}}, {sum}, &out);
  EXPECT_TRUE(absl::IsInvalidArgument(st)) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "the ranks disagree on this collective"))
      << st.message();
  EXPECT_TRUE(absl::StrContains(st.message(),
                                "rank 0 runs CollectiveAllReduce 'mismatched' "
                                "on float [3]; rank 1 runs CollectiveAllReduce "
                                "'mismatched' on float [4]"))
      << st.message();
  RILL_ASSERT_OK(session.Run({{x, Tensor(1.f)}}, {sum}, &out));
  EXPECT_EQ(out[0].scalar<float>()(), static_cast<float>(dist::Size()));
}

// On a GPU the data stays in the GPU's memory: NCCL moves it when every rank has a GPU of
// its own (a job of one rank too), else it is staged through pinned host memory and MPI
// (ranks sharing a GPU, or a build without NCCL). Either way the values are the host's.
TEST(Collectives, GpuTensorsMoveByNcclOrThroughTheHost) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU in this process";
  const int size = dist::Size(), rank = dist::Rank();
  int gpus = 0;
  for (const auto& d : DeviceSet::Local().devices()) gpus += d->device_type() == DEVICE_GPU;
  Scope s = Scope::NewRootScope().WithDevice("/GPU:0");
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({3}));
  auto sum = ops::CollectiveAllReduce(s, x);
  auto mean = ops::CollectiveAllReduce(s, x, ops::CollectiveAllReduce::Reduction("mean"));
  auto root = ops::CollectiveBroadcast(s, x, ops::CollectiveBroadcast::RootRank(size - 1));
  auto rows = ops::CollectiveAllGather(s, ops::Reshape(s, x, ops::Const(s, {1, 3})));
  Session session(s);
  std::vector<Tensor> out;
  const dist::PathCounts before = dist::CollectivePaths();
  const Tensor mine = FromDoubles(DT_FLOAT, TensorShape({3}), {1.0 + rank, 2.0, 3.0 * rank});
  RILL_ASSERT_OK(session.Run({{x, mine}}, {sum, mean, root, rows}, &out));
  const dist::PathCounts after = dist::CollectivePaths();
  const bool nccl = dist::NcclEnabled() && dist::LocalSize() <= gpus;
  EXPECT_EQ(after.nccl - before.nccl, nccl ? 4 : 0);
  EXPECT_EQ(after.staged - before.staged, nccl ? 0 : 4);
  EXPECT_EQ(after.host, before.host);
  double r_sum = 0;
  for (int r = 0; r < size; ++r) r_sum += r;
  ExpectTensorNear(out[0], DT_FLOAT, TensorShape({3}), {size + r_sum, 2.0 * size, 3 * r_sum}, 0);
  ExpectTensorNear(out[1], DT_FLOAT, TensorShape({3}),
                   {(size + r_sum) / size, 2.0, 3 * r_sum / size}, 1e-6);
  ExpectTensorNear(out[2], DT_FLOAT, TensorShape({3}), {1.0 + (size - 1), 2.0, 3.0 * (size - 1)},
                   0);
  std::vector<double> gathered;
  for (int r = 0; r < size; ++r) gathered.insert(gathered.end(), {1.0 + r, 2.0, 3.0 * r});
  ExpectTensorNear(out[3], DT_FLOAT, TensorShape({size, 3}), gathered, 0);
}

}  // namespace
}  // namespace rill::testing
