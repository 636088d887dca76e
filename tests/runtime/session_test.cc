// Session semantics: pruning, plan caching, callables, variables across runs and fetch
// sets, errors that name what failed, placement, and concurrent runs.
#include <sched.h>

#include <atomic>
#include <thread>

#include "rill/core/testing/status_test_util.h"
#include "rill/runtime/thread_pool.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace session_test {

MarkTested tested({"Variable", "Assign", "AssignAdd", "AssignSub", "IsVariableInitialized"});

using ::absl::StatusCode;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

TEST(Session, OnlyWhatTheFetchesNeedRuns) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  auto unused = ops::Mul(root, x, 2.0f);  // needs x, but is never fetched
  auto c = ops::Add(root, 1.0f, 2.0f);
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({c}, &out).ok());  // x is not fed and not needed
  EXPECT_EQ(out[0].scalar<float>()(), 3.0f);
  absl::Status s = session.Run({unused}, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(Msg(s).find("You must feed a value for placeholder tensor 'x'"), std::string::npos)
      << s;
}

// Constants are in their slots before a run starts (they never run): a fetched constant,
// a constant read by a kernel that may reuse its input's buffer (the constant must stay as
// it is for the next run), one behind a control input (it runs, after it), and a plan of
// constants alone.
TEST(Session, ConstantsArePresetAndStayConstant) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT, ops::Placeholder::Shape({3}));
  auto c = ops::Const(root.WithOpName("c"), {1.f, -2.f, 3.f});
  auto relu = ops::Relu(root, c);  // sole reader of c: may forward its buffer
  auto sum = ops::Add(root, ops::Neg(root, c), x);
  auto v = ops::Variable(root, Tensor(0.f));
  auto bump = ops::AssignAdd(root, v, 1.f);
  auto after = ops::Const(root.WithControlDependencies({bump.operation}).WithOpName("after"), 5.f);
  Session session(root);
  RILL_ASSERT_OK(session.Run({ops::Assign(root, v, 0.f)}, nullptr));
  std::vector<Tensor> out;
  for (int run = 0; run < 3; ++run) {
    RILL_ASSERT_OK(session.Run({{x, {10.f, 10.f, 10.f}}}, {c, relu, sum, after}, &out));
    ExpectTensorNear(out[0], DT_FLOAT, TensorShape({3}), {1, -2, 3}, 0);
    ExpectTensorNear(out[1], DT_FLOAT, TensorShape({3}), {1, 0, 3}, 0);
    ExpectTensorNear(out[2], DT_FLOAT, TensorShape({3}), {9, 12, 7}, 0);
    EXPECT_EQ(out[3].scalar<float>()(), 5.f);
  }
  RILL_ASSERT_OK(session.Run({v}, &out));
  EXPECT_EQ(out[0].scalar<float>()(), 3.f);  // the control input ran before each `after`
  RILL_ASSERT_OK(session.Run({c}, &out));    // nothing runs at all
  ExpectTensorNear(out[0], DT_FLOAT, TensorShape({3}), {1, -2, 3}, 0);
}

TEST(Session, FeedsAreCheckedAgainstThePlaceholder) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("images"), DT_FLOAT, ops::Placeholder::Shape({-1, 3}));
  auto y = ops::Identity(root, x);
  Session session(root);
  std::vector<Tensor> out;
  absl::Status s = session.Run({{x, {1, 2, 3}}}, {y}, &out);  // int32, [3]
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(Msg(s).find("images"), std::string::npos);
  EXPECT_NE(Msg(s).find("[?,3]"), std::string::npos) << s;
  EXPECT_NE(Msg(s).find("int32"), std::string::npos) << s;
  s = session.Run({{x, {1.f, 2.f}}}, {y}, &out);  // float, wrong shape
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(Msg(s).find("[2]"), std::string::npos) << s;
  ASSERT_TRUE(session.Run({{x, {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}}}, {y}, &out).ok());
  EXPECT_EQ(out[0].shape(), TensorShape({2, 3}));
  EXPECT_EQ(out[0].matrix<float>()(1, 2), 6.f);
}

TEST(Session, PlansAreCachedPerSignature) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_INT32);
  auto y = ops::Mul(root, x, 3);
  auto z = ops::Add(root, y, 1);
  Session session(root);
  std::vector<Tensor> out;
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(session.Run({{x, i}}, {y}, &out).ok());
    EXPECT_EQ(out[0].scalar<int32_t>()(), 3 * i);
  }
  EXPECT_EQ(session.num_cached_plans(), 1);
  ASSERT_TRUE(session.Run({{x, 2}}, {y, z}, &out).ok());
  EXPECT_EQ(out[1].scalar<int32_t>()(), 7);
  EXPECT_EQ(session.num_cached_plans(), 2);
  // Feeding an intermediate value replaces what computes it.
  ASSERT_TRUE(session.Run({{y, 100}}, {z}, &out).ok());
  EXPECT_EQ(out[0].scalar<int32_t>()(), 101);
}

TEST(Session, CallableSkipsTheLookup) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Placeholder(root, DT_FLOAT);
  auto b = ops::Placeholder(root, DT_FLOAT);
  auto d = ops::Sub(root, a, b);
  Session session(root);
  Session::CallableHandle h;
  ASSERT_TRUE(session.MakeCallable({{b, a}, {d}, {}}, &h).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(session.RunCallable(h, {Tensor(1.0f), Tensor(10.0f)}, &out).ok());
  EXPECT_EQ(out[0].scalar<float>()(), 9.0f);  // a - b with b=1, a=10
  EXPECT_EQ(session.RunCallable(h, {Tensor(1.0f)}, &out).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(session.ReleaseCallable(h).ok());
  EXPECT_EQ(session.RunCallable(h, {Tensor(1.0f), Tensor(2.0f)}, &out).code(),
            StatusCode::kInvalidArgument);
}

TEST(Session, VariablesKeepValuesAcrossRunsAndFetchSets) {
  Scope root = Scope::NewRootScope();
  auto w = ops::Variable(root.WithOpName("w"), {2}, DT_FLOAT);
  auto init = ops::Assign(root, w, {1.f, 2.f});
  auto add = ops::AssignAdd(root, w, {10.f, 10.f});
  auto sub = ops::AssignSub(root, w, {1.f, 1.f});
  auto doubled = ops::Mul(root, w, 2.f);
  Session session(root);
  std::vector<Tensor> out;
  absl::Status s = session.Run({doubled}, &out);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(Msg(s).find("uninitialized value w"), std::string::npos) << s;
  s = session.Run({w}, &out);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(session.Run({add}, &out).code(), StatusCode::kFailedPrecondition);

  ASSERT_TRUE(session.Run({}, {}, {init}, nullptr).ok());
  ASSERT_TRUE(session.Run({w}, &out).ok());
  Tensor before = out[0];
  ASSERT_TRUE(session.Run({add}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2}, {11, 12}, 0);
  ExpectTensorNear(before, DT_FLOAT, {2}, {1, 2}, 0);  // a fetched value never changes
  ASSERT_TRUE(session.Run({sub}, &out).ok());
  ASSERT_TRUE(session.Run({doubled, w}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2}, {20, 22}, 0);
  ExpectTensorNear(out[1], DT_FLOAT, {2}, {10, 11}, 0);
  // Another Session has its own variables.
  Session other(root);
  EXPECT_EQ(other.Run({w}, &out).code(), StatusCode::kFailedPrecondition);
  // A wrong shape arriving at run time is refused and leaves the value alone.
  auto fed = ops::Placeholder(root, DT_FLOAT);
  auto bad = ops::Assign(root, w, fed);
  auto bad_add = ops::AssignAdd(root, w, fed);
  for (Output op : {bad.output, bad_add.output}) {
    s = session.Run({{fed, {1.f, 2.f, 3.f}}}, {op}, &out);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s;
    EXPECT_NE(Msg(s).find("[3]"), std::string::npos) << s;
  }
  ASSERT_TRUE(session.Run({w}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2}, {10, 11}, 0);
  // With validate_shape off, Assign may change the shape, as in TensorFlow.
  auto reshape = ops::Assign(root, w, {1.f, 2.f, 3.f}, ops::Assign::ValidateShape(false));
  ASSERT_TRUE(session.Run({reshape}, &out).ok());
  ASSERT_TRUE(session.Run({w}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {3}, {1, 2, 3}, 0);
}

TEST(Session, GlobalVariablesInitializerAndControlDependencies) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Variable(root.WithOpName("a"), {{1, 2}, {3, 4}});
  auto b = ops::Variable(root.WithOpName("b"), 5.0);
  auto init = ops::GlobalVariablesInitializer(root);
  EXPECT_EQ(init.name(), "init");
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {}, {init}, nullptr).ok());
  ASSERT_TRUE(session.Run({a, b}, &out).ok());
  ExpectTensorNear(out[0], DT_INT32, {2, 2}, {1, 2, 3, 4}, 0);
  EXPECT_EQ(out[1].scalar<double>()(), 5.0);
  // A read ordered after an update by a control dependency sees the update.
  auto inc = ops::AssignAdd(root, b, 1.0);
  auto read = ops::Identity(root.WithControlDependencies(Output(inc)), b);
  ASSERT_TRUE(session.Run({read}, &out).ok());
  EXPECT_EQ(out[0].scalar<double>()(), 6.0);
  auto group = ops::NoOp(root.WithControlDependencies(std::vector<Operation>{inc.operation}));
  ASSERT_TRUE(session.Run({}, {}, {group}, nullptr).ok());
  ASSERT_TRUE(session.Run({b}, &out).ok());
  EXPECT_EQ(out[0].scalar<double>()(), 7.0);
}

TEST(Session, IsVariableInitializedTurnsTrueWithTheInitializer) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Variable(root.WithOpName("a"), {1.f, 2.f});
  auto b = ops::Variable(root.WithOpName("b"), PartialTensorShape({2}), DT_INT64);
  auto a_ready = ops::IsVariableInitialized(root, a);
  auto b_ready = ops::IsVariableInitialized(root, b);
  Session session(root);
  std::vector<Tensor> out;
  // Asking never reads the value, so an uninitialized variable is no error here.
  ASSERT_TRUE(session.Run({a_ready, b_ready}, &out).ok());
  EXPECT_FALSE(out[0].scalar<bool>()());
  EXPECT_FALSE(out[1].scalar<bool>()());
  ASSERT_TRUE(session.Run({}, {}, {a.initializer}, nullptr).ok());
  ASSERT_TRUE(session.Run({a_ready, b_ready}, &out).ok());
  EXPECT_TRUE(out[0].scalar<bool>()());
  EXPECT_FALSE(out[1].scalar<bool>()());
}

TEST(Session, VariablesInitializedFromOpsSitBesideTheirInitializer) {
  Scope root = Scope::NewRootScope();
  Scope layer = root.NewSubScope("dense");
  auto init_value = ops::Mul(layer, ops::Const(layer, {1.f, 2.f}), 3.f);
  auto w = ops::Variable(layer.WithOpName("kernel"), init_value);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(w.node()->name(), "dense/kernel");
  EXPECT_EQ(w.initializer.node()->name(), "dense/kernel/Assign");
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  ASSERT_TRUE(session.Run({w}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2}, {3, 6}, 0);
}

TEST(Session, BuildErrorsSurfaceFromRun) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, {{1.f, 2.f}});
  auto bad = ops::MatMul(root.WithOpName("mm"), a, a);  // [1,2] x [1,2]
  EXPECT_FALSE(root.ok());
  EXPECT_NE(Msg(root.status()).find("node 'mm' (MatMul)"), std::string::npos) << root.status();
  Session session(root);
  std::vector<Tensor> out;
  EXPECT_EQ(session.Run({a}, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.node(), nullptr);
  // A name asked for twice is made unique, as TensorFlow makes it.
  Scope dup = Scope::NewRootScope();
  ops::Const(dup.WithOpName("c"), 1);
  EXPECT_EQ(ops::Const(dup.WithOpName("c"), 2).node()->name(), "c_1");
  EXPECT_TRUE(dup.ok()) << dup.status();
  Scope dev = Scope::NewRootScope();
  ops::Const(dev.WithDevice("GPU0"), 1);
  EXPECT_EQ(dev.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(Msg(dev.status()).find("GPU0"), std::string::npos);
}

TEST(Session, NamesFollowScopes) {
  Scope root = Scope::NewRootScope();
  Scope layer = root.NewSubScope("dense");
  auto a = ops::Add(layer, 1, 2);
  auto b = ops::Add(layer, 1, 2);
  auto c = ops::Add(layer.WithOpName("out"), a, b);
  EXPECT_EQ(a.node()->name(), "dense/Add");
  EXPECT_EQ(b.node()->name(), "dense/Add_1");
  EXPECT_EQ(c.node()->name(), "dense/out");
  EXPECT_EQ(root.NewSubScope("dense").GetUniqueNameForOp("Add"), "dense_1/Add");
}

TEST(Session, PlacementIsReadableAndSoftByDefault) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root.WithDevice("/device:GPU:0"), 1.0f);
  auto b = ops::Add(root.WithDevice("/job:localhost/replica:0/task:0/device:CPU:0"), a, a);
  auto v = ops::Variable(root.WithOpName("v"), 1.0f);
  auto up = ops::AssignAdd(root, v, 1.0f);
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  ASSERT_TRUE(session.Run({b, up}, &out).ok());
  EXPECT_EQ(out[0].scalar<float>()(), 2.0f);
  EXPECT_EQ(*session.AssignedDevice(b.operation), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(*session.AssignedDevice(up.operation), *session.AssignedDevice(v.operation));
  if (session.ListDevices().size() == 1) {  // no GPU here: the request fell back, and says so
    auto reason = session.PlacementReason(a.node() ? Operation(a.node()) : Operation());
    ASSERT_TRUE(reason.ok());
    EXPECT_NE(reason->find("soft placement"), std::string::npos) << *reason;
    SessionOptions strict;
    strict.allow_soft_placement = false;
    Session hard(root, strict);
    absl::Status s = hard.Run({b}, &out);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(Msg(s).find("/device:GPU:0"), std::string::npos) << s;
    EXPECT_NE(Msg(s).find("(Const)"), std::string::npos) << s;
    EXPECT_NE(Msg(s).find("device:CPU:0"), std::string::npos) << s;
  }
  // An empty Operation is no node at all: a bad argument, not a node yet to be placed.
  EXPECT_EQ(session.AssignedDevice(Operation()).status().code(), StatusCode::kInvalidArgument);
}

TEST(Session, ConcurrentRunsGiveExactResults) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_INT64);
  auto m = ops::MatMul(root, ops::Cast(root, ops::Reshape(root, x, {1, 1}), DT_DOUBLE),
                       ops::Const(root, {{2.0, 3.0}}));
  auto y = ops::Sum(root, m, {0, 1});                         // 5x
  auto z = ops::Add(root, ops::Mul(root, x, x), int64_t{1});  // x^2 + 1
  auto counter = ops::Variable(root, int64_t{0});
  auto inc = ops::AssignAdd(root, counter, int64_t{1});
  Session session(root);
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Tensor> out;
      for (int i = 0; i < 1000; ++i) {
        int64_t v = t * 1000 + i;
        absl::Status s = session.Run({{x, v}}, {y, z}, {inc.operation}, &out);
        if (!s.ok() || out[0].scalar<double>()() != 5.0 * v ||
            out[1].scalar<int64_t>()() != v * v + 1) {
          ++wrong;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({counter}, &out).ok());
  EXPECT_EQ(out[0].scalar<int64_t>()(), 8000);
}

TEST(Session, LongChainsRunAndFreeIntermediates) {
  Scope root = Scope::NewRootScope();
  Output acc = ops::Const(root, 0.0f);
  for (int i = 0; i < 500; ++i) acc = ops::Add(root, acc, 1.0f);
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({acc}, &out).ok());
  EXPECT_EQ(out[0].scalar<float>()(), 500.0f);
}

// The thread calling Run runs nodes too, so the default pool leaves its core to it: as
// many kernels at once as there are cores, not one more.
TEST(Session, DefaultPoolHasOneThreadFewerThanTheCores) {
  EXPECT_EQ(DefaultPoolThreads(0), 1);  // the core count is unknown
  EXPECT_EQ(DefaultPoolThreads(1), 1);
  EXPECT_EQ(DefaultPoolThreads(2), 1);
  EXPECT_EQ(DefaultPoolThreads(16), 15);
  EXPECT_EQ(DefaultPoolThreads(1u << 20), kMaxPoolThreads);
}

// A process bound to one core (taskset, a cpuset, mpirun's default binding for 2 ranks)
// counts one core, not the machine's: its default pool is one worker, not one per core of
// the machine all on that core. Checked on a thread of its own, whose mask the test narrows.
TEST(Session, DefaultPoolCountsTheCoresTheThreadMayRunOn) {
  cpu_set_t all;
  CPU_ZERO(&all);
  ASSERT_EQ(sched_getaffinity(0, sizeof(all), &all), 0);
  EXPECT_EQ(SchedulableCores(), static_cast<unsigned>(CPU_COUNT(&all)));
  int first = 0;
  while (!CPU_ISSET(first, &all)) ++first;
  unsigned bound = 0;
  std::thread([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    if (sched_setaffinity(0, sizeof(one), &one) == 0) bound = SchedulableCores();
  }).join();
  EXPECT_EQ(bound, 1u);
  EXPECT_EQ(DefaultPoolThreads(bound), 1);
}

}  // namespace session_test
}  // namespace
}  // namespace rill::testing
