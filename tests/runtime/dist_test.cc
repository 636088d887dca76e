// The collectives, the engine and DistributedOptimizer in one process (a job of one rank,
// as a program started without mpirun runs); tests/dist/ runs them on 2 and 3 ranks.
#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <thread>

#include "absl/strings/match.h"
#include "fake_comm.h"
#include "gradient_checker.h"
#include "rill/runtime/dist/collectives.h"
#include "rill/runtime/dist/devices.h"
#include "rill/runtime/dist/engine.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace dist_test {

using fake_comm::FakeComm;
using fake_comm::Spec;

// Every test of this binary may run collectives: the job of one rank starts first.
class DistEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { ASSERT_TRUE(dist::Init().ok()); }
};
[[maybe_unused]] const auto* const kDistEnvironment =
    ::testing::AddGlobalTestEnvironment(new DistEnvironment);

MarkTested dist_ops({"CollectiveAllReduce", "CollectiveBroadcast", "CollectiveAllGather",
                     "_CollectiveBroadcastGrad", "_CollectiveAllGatherGrad"});

TEST(Dist, OneProcessIsAJobOfOneRank) {
  EXPECT_TRUE(dist::IsInitialized());
  EXPECT_EQ(dist::Rank(), 0);
  EXPECT_EQ(dist::Size(), 1);
  EXPECT_EQ(dist::LocalRank(), 0);
  EXPECT_EQ(dist::LocalSize(), 1);
  EXPECT_EQ(dist::Backend(), "local (one process)");
  EXPECT_TRUE(dist::Init().ok());  // again: nothing changes
}

TEST(Dist, CollectivesOfOneRankReturnTheirInput) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Const(s, {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  auto sum = ops::CollectiveAllReduce(s, x);
  auto mean = ops::CollectiveAllReduce(s, x, ops::CollectiveAllReduce::Reduction("mean"));
  auto b = ops::CollectiveBroadcast(s, ops::Const(s, {7, 8}));
  auto g = ops::CollectiveAllGather(s, x);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(g.output.shape().DebugString(), "[?,3]");
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({sum, mean, b, g}, &out).ok());
  for (int i : {0, 1, 3}) {
    ExpectTensorNear(out[i], DT_FLOAT, TensorShape({2, 3}), {1, 2, 3, 4, 5, 6}, 0);
  }
  ExpectTensorNear(out[2], DT_INT32, TensorShape({2}), {7, 8}, 0);
}

TEST(Dist, GradientsOfTheCollectivesOnOneRank) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_DOUBLE, ops::Placeholder::Shape({2, 2}));
  Output y = ops::Mul(s, ops::CollectiveAllReduce(s, x), ops::Const(s, 3.0));
  y = ops::Add(s, ops::CollectiveBroadcast(s, y), ops::CollectiveAllGather(s, y));
  Output loss = ops::Sum(s, ops::Square(s, y), ops::Const(s, {0, 1}));
  std::vector<Output> grads;
  ASSERT_TRUE(AddSymbolicGradients(s, {loss}, {x}, &grads).ok());
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({{x, {{1.0, 2.0}, {3.0, -1.0}}}}, {grads[0]}, &out).ok());
  // y = 6x, loss = sum(36 x^2), d loss / dx = 72 x.
  ExpectTensorNear(out[0], DT_DOUBLE, TensorShape({2, 2}), {72, 144, 216, -72}, 1e-12);
}

// The numeric check of each gradient on one rank (tests/dist/ checks the sums over ranks).
TEST(Dist, GradientsMatchNumericOnOneRank) {
  using Xs = std::vector<Output>;
  const Tensor x = FromDoubles(DT_DOUBLE, TensorShape({2, 3}), {0.5, -1, 2, 0.25, 3, -0.75});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Xs& in) {
        return ops::Square(s, ops::CollectiveAllReduce(s, in[0]));
      },
      {x});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Xs& in) {
        return ops::Square(
            s, ops::CollectiveAllReduce(s, in[0], ops::CollectiveAllReduce::Reduction("mean")));
      },
      {x});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Xs& in) { return ops::Exp(s, ops::CollectiveBroadcast(s, in[0])); },
      {x});
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Xs& in) {
        return ops::Square(s, ops::CollectiveAllGather(s, in[0]));
      },
      {x});
}
const bool kGradTested = [] {
  GradTestedOps().insert({"CollectiveAllReduce", "CollectiveBroadcast", "CollectiveAllGather"});
  return true;
}();

TEST(Dist, BadCollectivesFailWithTheNodeAndRank) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto b = ops::CollectiveBroadcast(s.WithOpName("from_rank_3"), x,
                                    ops::CollectiveBroadcast::RootRank(3));
  Session session(s);
  std::vector<Tensor> out;
  absl::Status st = session.Run({{x, {1.f}}}, {b}, &out);
  EXPECT_TRUE(absl::IsInvalidArgument(st)) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "from_rank_3")) << st.message();
  EXPECT_TRUE(absl::StrContains(st.message(), "root_rank 3 is not a rank of this job of 1"))
      << st.message();
  // The engine is not broken by a refused collective.
  auto ok = ops::CollectiveAllReduce(s, x);
  ASSERT_TRUE(session.Run({{x, {2.f}}}, {ok}, &out).ok());
  EXPECT_EQ(out[0].scalar<float>()(), 2.f);
}

// Many collectives in one run and many runs: each async node finishes on the engine's
// thread and the executor goes on with what it made ready.
TEST(Dist, ManyAsyncNodesPerRunAndManyRuns) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({64}));
  std::vector<Output> parts;
  for (int i = 0; i < 12; ++i) {
    Output v = ops::Mul(s, x, ops::Const(s, static_cast<float>(i)));
    v = ops::CollectiveAllReduce(s, v);
    parts.push_back(ops::CollectiveAllReduce(s, ops::Add(s, v, ops::Const(s, 1.f))));
  }
  Output total = ops::Sum(s, ops::AddN(s, parts), ops::Const(s, 0));
  ASSERT_TRUE(s.ok());
  for (int threads : {1, 2}) {
    SessionOptions options;
    options.inter_op_threads = threads;
    Session session(s, options);
    Tensor feed(DT_FLOAT, TensorShape({64}));
    for (int i = 0; i < 64; ++i) feed.flat<float>()(i) = 0.5f;
    for (int run = 0; run < 50; ++run) {
      std::vector<Tensor> out;
      ASSERT_TRUE(session.Run({{x, feed}}, {total}, &out).ok());
      // sum over i of (0.5 i + 1) over 64 elements = 64 * (0.5 * 66 + 12).
      EXPECT_FLOAT_EQ(out[0].scalar<float>()(), 64 * (33.f + 12.f));
    }
  }
}

// On the caller's own pool a run offloads nothing: what a collective makes ready is run by
// the thread waiting in the executor (its inbox), not by a pool.
TEST(Dist, AsyncNodesOnTheCallersPool) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_DOUBLE, ops::Placeholder::Shape({3}));
  Output y = x;
  for (int i = 0; i < 6; ++i) {
    y = ops::Add(s, ops::CollectiveAllReduce(s, y), ops::CollectiveBroadcast(s, y));
  }
  Session session(s);
  CallableOptions options;
  options.feed = {x};
  options.fetch = {y};
  Session::CallableHandle handle;
  ASSERT_TRUE(session.MakeCallable(options, &handle).ok());
  thread::ThreadPool pool(Env::Default(), "callers", 2);
  thread::ThreadPoolOptions pools;
  pools.inter_op_threadpool = &pool;
  for (int run = 0; run < 20; ++run) {
    std::vector<Tensor> out;
    Tensor in(DT_DOUBLE, TensorShape({3}));
    for (int i = 0; i < 3; ++i) in.flat<double>()(i) = i + run;
    ASSERT_TRUE(session.RunCallable(handle, {in}, &out, nullptr, pools).ok());
    for (int i = 0; i < 3; ++i) EXPECT_EQ(out[0].flat<double>()(i), 64.0 * (i + run));
  }
}

// Rank r's default GPU is GPU r mod the count: it goes first among the GPUs.
TEST(Dist, EachLocalRankPrefersItsOwnGpu) {
  auto names = [](int local_rank, int gpus) {
    DeviceSet set;
    for (int i = 0; i < gpus; ++i)
      set.Add(std::make_shared<Device>(DEVICE_GPU, i, cpu_allocator()));
    set.Add(std::make_shared<Device>(DEVICE_CPU, 0, cpu_allocator()));
    dist::PreferGpuOfLocalRank(&set, local_rank);
    std::string out;
    for (const auto& d : set.devices())
      out += d->parsed_name().type + std::to_string(d->id()) + " ";
    return out;
  };
  EXPECT_EQ(names(0, 3), "GPU0 GPU1 GPU2 CPU0 ");
  EXPECT_EQ(names(1, 3), "GPU1 GPU0 GPU2 CPU0 ");
  EXPECT_EQ(names(5, 3), "GPU2 GPU0 GPU1 CPU0 ");
  EXPECT_EQ(names(1, 1), "GPU0 CPU0 ");  // ranks sharing the one GPU
  EXPECT_EQ(names(1, 0), "CPU0 ");
}

TEST(Engine, AStuckCollectiveFailsAfterTheTimeoutAndBreaksTheEngine) {
  auto comm = std::make_unique<FakeComm>(2, [](void*) {});
  FakeComm* raw = comm.get();
  raw->Block();
  dist::Engine engine(std::move(comm), absl::Milliseconds(200));
  std::promise<absl::Status> first, second;
  const auto start = std::chrono::steady_clock::now();
  Tensor t(DT_FLOAT, TensorShape({3}));
  engine.Submit(
      "allreduce (sum) of float [3]",
      [t](dist::Comm& c) {
        dist::HostPlace host;
        return dist::AllReduce(c, host, Spec(TensorShape({3})), t, t, false);
      },
      [&](absl::Status st) { first.set_value(st); });
  engine.Submit(
      "queued behind it", [](dist::Comm&) { return absl::OkStatus(); },
      [&](absl::Status st) { second.set_value(st); });
  absl::Status st = first.get_future().get();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(absl::IsDeadlineExceeded(st)) << st;
  EXPECT_TRUE(absl::StrContains(st.message(),
                                "allreduce (sum) of float [3]: not complete "
                                "after 200ms on rank 0 of 2"))
      << st.message();
  EXPECT_GE(seconds, 0.19);
  EXPECT_LT(seconds, 5.0);
  EXPECT_TRUE(raw->abandoned) << "the engine broke without telling its Comm to give up";
  EXPECT_TRUE(absl::IsDeadlineExceeded(second.get_future().get()));
  std::promise<absl::Status> later;
  engine.Submit(
      "later", [](dist::Comm&) { return absl::OkStatus(); },
      [&](absl::Status s) { later.set_value(s); });
  EXPECT_TRUE(absl::IsDeadlineExceeded(later.get_future().get()));
  EXPECT_TRUE(absl::IsDeadlineExceeded(engine.Stop()));
  raw->Release();  // the stuck call returns now; its late result is dropped
}

// On one rank, a DistributedOptimizer trains exactly as the optimizer it wraps, packs the
// gradients into buckets of the size asked, and reduces a gradient of alone_bytes or more
// by itself.
TEST(DistributedOptimizer, OneRankTrainsAsTheWrappedOptimizer) {
  auto train = [](bool distributed, dist::DistributedOptimizerOptions options, int* allreduces) {
    Scope s = Scope::NewRootScope();
    auto x = ops::Const(s, {{0.5f, -1.f, 2.f}, {1.f, 0.25f, -0.5f}});
    auto w1 = ops::Variable(s.WithOpName("w1"), {{0.1f, 0.2f}, {-0.3f, 0.4f}, {0.5f, -0.6f}});
    auto b1 = ops::Variable(s.WithOpName("b1"), {0.01f, -0.02f});
    auto w2 = ops::Variable(s.WithOpName("w2"), {{0.7f}, {-0.8f}});
    Output h = ops::Tanh(s, ops::BiasAdd(s, ops::MatMul(s, x, w1), b1));
    Output loss = ops::Mean(s, ops::Square(s, ops::MatMul(s, h, w2)), ops::Const(s, {0, 1}));
    std::shared_ptr<ops::Optimizer> opt = std::make_shared<ops::AdamOptimizer>(0.05);
    if (distributed) {
      opt = std::make_shared<dist::DistributedOptimizer>(opt, options);
    }
    Operation step = opt->Minimize(s, loss);
    EXPECT_TRUE(s.ok()) << s.status();
    *allreduces = 0;
    for (int id = 0; id < s.graph()->num_nodes(); ++id) {
      *allreduces += s.graph()->node(id)->type_string() == "CollectiveAllReduce";
    }
    Session session(s);
    EXPECT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(s)}, nullptr).ok());
    if (distributed) {
      EXPECT_TRUE(session.Run({}, {}, {dist::BroadcastVariables(s)}, nullptr).ok());
    }
    for (int i = 0; i < 20; ++i) EXPECT_TRUE(session.Run({}, {}, {step}, nullptr).ok());
    std::vector<Tensor> out;
    EXPECT_TRUE(session.Run({w1, b1, w2}, &out).ok());
    return out;
  };
  int n = 0;
  const std::vector<Tensor> plain = train(false, {}, &n);
  EXPECT_EQ(n, 0);
  // 25 MB: one bucket of all three; 8 bytes: w2 (8 bytes) and b1 (8) alone, w1 (24) alone;
  // 25 MB but 24 bytes alone: w2 and b1 packed, w1 alone; 8 bytes alone: each alone.
  struct Case {
    int64_t bucket, alone;
    int want;
  };
  for (Case c : {Case{25 << 20, 1 << 20, 1}, Case{8, 1 << 20, 3}, Case{16, 1 << 20, 2},
                 Case{25 << 20, 24, 2}, Case{25 << 20, 8, 3}, Case{8, 0, 3}}) {
    const std::vector<Tensor> dist =
        train(true, {.bucket_bytes = c.bucket, .alone_bytes = c.alone}, &n);
    EXPECT_EQ(n, c.want) << "bucket " << c.bucket << ", alone " << c.alone;
    for (size_t i = 0; i < plain.size(); ++i) {
      ExpectTensorNear(dist[i], DT_FLOAT, plain[i].shape(), ToDoubles(plain[i]), 0);
    }
  }
}

TEST(DistributedOptimizer, RefusesAnUnknownReduction) {
  Scope s = Scope::NewRootScope();
  auto w = ops::Variable(s, {1.f, 2.f});
  Output loss = ops::Sum(s, ops::Square(s, w), ops::Const(s, 0));
  dist::DistributedOptimizer opt(std::make_shared<ops::GradientDescentOptimizer>(0.1),
                                 {.reduction = "max"});
  opt.Minimize(s, loss);
  EXPECT_TRUE(absl::IsInvalidArgument(s.status()));
  EXPECT_TRUE(absl::StrContains(s.status().message(), "reduction must be mean or sum, got 'max'"))
      << s.status().message();
}

// Op cases: on one rank each collective is the identity (its GPU kernel included).
std::vector<OpCase> Collectives() {
  EXPECT_TRUE(dist::Init().ok());
  std::vector<OpCase> cases;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    Tensor x = RandomTensor(dt, TensorShape({3, 5}), 0, 9, 7);
    const std::string t = DataTypeString(dt);
    cases.push_back({"AllReduce sum " + t,
                     [](auto s, auto in) { return ops::CollectiveAllReduce(s, in[0]); },
                     {x},
                     0,
                     false});
    cases.push_back({"AllReduce mean " + t,
                     [](auto s, auto in) {
                       return ops::CollectiveAllReduce(s, in[0],
                                                       ops::CollectiveAllReduce::Reduction("mean"));
                     },
                     {x},
                     0,
                     false});
    cases.push_back({"Broadcast " + t,
                     [](auto s, auto in) { return ops::CollectiveBroadcast(s, in[0]); },
                     {x},
                     0,
                     false});
    cases.push_back({"AllGather " + t,
                     [](auto s, auto in) { return ops::CollectiveAllGather(s, in[0]); },
                     {x},
                     0,
                     false});
  }
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    Tensor g = RandomTensor(dt, TensorShape({4, 2}), -1, 1, 3);
    cases.push_back(
        {"BroadcastGrad " + DataTypeString(dt),
         [](auto s, auto in) {
           return Output(
               ops::internal::NodeBuilder(s, "_CollectiveBroadcastGrad").Input(in[0]).Finalize(),
               0);
         },
         {g},
         0,
         false});
    cases.push_back({"AllGatherGrad " + DataTypeString(dt),
                     [](auto s, auto in) {
                       return Output(ops::internal::NodeBuilder(s, "_CollectiveAllGatherGrad")
                                         .Input(in[0])
                                         .Input(in[1])
                                         .Finalize(),
                                     0);
                     },
                     {g, g},
                     0,
                     false});
  }
  return cases;
}
RILL_OP_CASES(collectives, Collectives);

}  // namespace dist_test
}  // namespace
}  // namespace rill::testing
