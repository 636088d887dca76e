// The static memory plan (runtime/passes/memory.cc, runtime/arena.h): what it shares,
// that runs with it compute what runs without it compute, and that memory still held
// past its planned life is never handed out again.
#include <gtest/gtest.h>

#include <thread>

#include "rill/runtime/arena.h"
#include "support/model_steps.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace memory_plan_test {
using namespace ::rill::ops;  // NOLINT

// The same dtype, shape and bits.
void ExpectTensorsEqual(const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.dtype(), want.dtype());
  ASSERT_EQ(got.shape(), want.shape());
  EXPECT_EQ(ToDoubles(got), ToDoubles(want));
}

SessionOptions Options(bool plan_memory) {
  SessionOptions o;
  o.plan_memory = plan_memory;
  return o;
}

// Two chains of three MatMuls from one input, added: within a chain a value may reuse
// the memory of the one before its predecessor; across chains nothing is ordered, so
// nothing is shared. Each value is 32x32 floats (4 KiB).
TEST(MemoryPlan, SharesOnlyBetweenValuesWhoseLivesAreOrdered) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_FLOAT, Placeholder::Shape({32, 32}));
  Output w = Const(s, RandomTensor(DT_FLOAT, {32, 32}, -0.2, 0.2, 1));
  Output a = x, b = x;
  for (int i = 0; i < 3; ++i) {
    a = MatMul(s, a, w);
    b = MatMul(s, b, w, MatMul::TransposeB(true));
  }
  Output sum = Add(s, a, b);
  Session session(s, SessionOptions{}, CpuOnly());
  Session::CallableHandle h;
  CallableOptions sig;
  sig.feed = {x};
  sig.fetch = {sum};
  ASSERT_TRUE(session.MakeCallable(sig, &h).ok());
  Tensor xv = RandomTensor(DT_FLOAT, {32, 32}, -1, 1, 2);
  std::vector<Tensor> first, later;
  ASSERT_TRUE(session.RunCallable(h, {xv}, &first).ok());
  const int64_t value = 32 * 32 * 4;
  absl::StatusOr<MemoryPlanStats> st = session.GetMemoryPlanStats(h);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->planned_values, 6);  // the six MatMuls; the fetched sum stays outside
  EXPECT_EQ(st->planned_value_bytes, 6 * value);
  EXPECT_EQ(st->arena_bytes, 4 * value);  // two live at a time per chain, two chains
  for (int run = 0; run < 3; ++run) {
    ASSERT_TRUE(session.RunCallable(h, {xv}, &later).ok());
    ExpectTensorsEqual(later[0], first[0]);
  }
}

void ExpectSameTraining(TrainStep (*make)(), int steps) {
  std::vector<Tensor> losses[2];
  for (bool plan : {false, true}) {
    TrainStep t = make();
    Session session(t.scope, Options(plan), CpuOnly());
    ASSERT_TRUE(session.Run({}, {}, {t.init}, nullptr).ok());
    Session::CallableHandle h;
    ASSERT_TRUE(session.MakeCallable(t.Signature(), &h).ok());
    for (int i = 0; i < steps; ++i) {
      ASSERT_TRUE(session.RunCallable(h, {t.x_value, t.y_value}, nullptr).ok());
    }
    std::vector<Tensor> out;
    ASSERT_TRUE(session.Run({{t.x, t.x_value}, {t.y, t.y_value}}, {t.loss}, &out).ok());
    losses[plan] = out;
    absl::StatusOr<MemoryPlanStats> st = session.GetMemoryPlanStats(h);
    ASSERT_TRUE(st.ok());
    if (plan) {
      EXPECT_GT(st->planned_values, 5);
      EXPECT_GT(st->arena_bytes, 0);
      EXPECT_LT(st->arena_bytes, st->planned_value_bytes);
    } else {
      EXPECT_EQ(st->planned_values, 0);
    }
  }
  // The same kernels on the same inputs: the same bits, wherever the values lived.
  ExpectTensorsEqual(losses[1][0], losses[0][0]);
}

TEST(MemoryPlan, CifarMlpStepsTrainAsWithoutIt) {
  ExpectSameTraining([] { return CifarMlpStep(8, 64, 32); }, 5);
}

TEST(MemoryPlan, MnistCnnStepsTrainAsWithoutIt) {
  ExpectSameTraining([] { return MnistCnnStep(4, 4, 6, 16); }, 4);
}

// On a GPU, once a step's layout is planned, its runs ask the device for no memory: no
// cudaMalloc (the caching allocator's backend) and no cudaHostAlloc for the feeds'
// staging, step after step.
void ExpectGpuStepsAllocateNothing(const TrainStep& t) {
  Session session(t.scope);
  ASSERT_TRUE(session.Run({}, {}, {t.init}, nullptr).ok());
  Session::CallableHandle h;
  ASSERT_TRUE(session.MakeCallable(t.Signature(), &h).ok());
  std::vector<Tensor> out;
  for (int step = 0; step < 3; ++step) {
    ASSERT_TRUE(session.RunCallable(h, {t.x_value, t.y_value}, &out).ok());
  }
  absl::StatusOr<DeviceMemoryStats> before = GetDeviceMemoryStats("/GPU:0");
  ASSERT_TRUE(before.ok()) << before.status();
  for (int step = 0; step < 10; ++step) {
    ASSERT_TRUE(session.RunCallable(h, {t.x_value, t.y_value}, &out).ok());
  }
  absl::StatusOr<DeviceMemoryStats> after = GetDeviceMemoryStats("/GPU:0");
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->device.num_backend_allocs, before->device.num_backend_allocs)
      << after->device.DebugString();
  EXPECT_EQ(after->pinned_host.num_backend_allocs, before->pinned_host.num_backend_allocs)
      << after->pinned_host.DebugString();
  std::printf(
      "10 steps: %lld device allocations (all from the cache), %lld pinned\n",
      static_cast<long long>(after->device.num_allocs - before->device.num_allocs),
      static_cast<long long>(after->pinned_host.num_allocs - before->pinned_host.num_allocs));
}

TEST(MemoryPlan, GpuStepsAllocateNoDeviceMemory) {
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine";
  {
    SCOPED_TRACE("CIFAR MLP");
    ExpectGpuStepsAllocateNothing(CifarMlpStep(8, 64, 32));
  }
  SCOPED_TRACE("MNIST CNN");
  ExpectGpuStepsAllocateNothing(MnistCnnStep(4, 4, 6, 16));
}

// Each set of feed shapes gets its own layout (up to a few; then runs allocate).
TEST(MemoryPlan, FeedShapesThatChangeGetTheirOwnLayouts) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_FLOAT, Placeholder::Shape({-1, 16}));
  Output w = Const(s, RandomTensor(DT_FLOAT, {16, 16}, -0.5, 0.5, 3));
  Output y = Sum(s, Tanh(s, MatMul(s, Relu(s, MatMul(s, x, w)), w)), 1);
  Session planned(s, SessionOptions{}, CpuOnly());
  Session plain(s, Options(false), CpuOnly());
  for (int64_t batch : {4, 8, 4, 1, 16, 3, 5, 7, 8, 4}) {
    Tensor xv = RandomTensor(DT_FLOAT, {batch, 16}, -1, 1, static_cast<uint32_t>(batch));
    std::vector<Tensor> got, want;
    ASSERT_TRUE(planned.Run({{x, xv}}, {y}, &got).ok());
    ASSERT_TRUE(plain.Run({{x, xv}}, {y}, &want).ok());
    ExpectTensorsEqual(got[0], want[0]);
  }
}

// Runs of one plan at once each have their own arena.
TEST(MemoryPlan, ConcurrentRunsOfOnePlan) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_FLOAT, Placeholder::Shape({8, 64}));
  Output w = Const(s, RandomTensor(DT_FLOAT, {64, 64}, -0.2, 0.2, 4));
  Output h = x;
  for (int i = 0; i < 4; ++i) h = Tanh(s, MatMul(s, h, w));
  Session session(s, SessionOptions{}, CpuOnly());
  Session::CallableHandle handle;
  CallableOptions sig;
  sig.feed = {x};
  sig.fetch = {h};
  ASSERT_TRUE(session.MakeCallable(sig, &handle).ok());
  std::vector<Tensor> inputs, want(4);
  for (int t = 0; t < 4; ++t) {
    inputs.push_back(RandomTensor(DT_FLOAT, {8, 64}, -1, 1, 10 + t));
    std::vector<Tensor> out;
    ASSERT_TRUE(session.RunCallable(handle, {inputs[t]}, &out).ok());
    want[t] = out[0];
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        std::vector<Tensor> out;
        ASSERT_TRUE(session.RunCallable(handle, {inputs[t]}, &out).ok());
        ExpectTensorsEqual(out[0], want[t]);
      }
    });
  }
  for (auto& th : threads) th.join();
}

// A layout by hand: values 0 and 1 share bytes. While value 0 is held (as by a Tensor
// kept past its run), value 1 is not handed out, and the arena reports value 0.
TEST(Arena, NeverHandsOutMemoryStillHeld) {
  DeviceSet devices = CpuOnly();
  auto layout = std::make_shared<MemoryLayout>();
  layout->arenas = {{devices.cpu(), 256}};
  layout->values = {{0, 0, 256, 0, {1}}, {0, 64, 128, 1, {0}}};
  layout->slot_value = {0, 1};
  Arena* arena = Arena::Create(layout);
  ASSERT_NE(arena, nullptr);
  EXPECT_EQ(arena->Take(0, 512), nullptr);  // more than planned: allocated elsewhere
  TensorBuffer* b0 = arena->Take(0, 256);
  ASSERT_NE(b0, nullptr);
  Tensor held = Tensor::Adopt(DT_FLOAT, {64}, b0);
  EXPECT_EQ(arena->Take(1, 128), nullptr);  // overlaps a held value
  EXPECT_EQ(arena->Take(0, 256), nullptr);  // held itself
  std::vector<int> misfits;
  EXPECT_TRUE(arena->Misfits(&misfits));
  EXPECT_EQ(misfits, std::vector<int>({0}));  // held, and asked for 512 bytes
  arena->Unref();                             // the state lets go; `held` keeps it alive
  held.flat<float>().setConstant(2.f);
  EXPECT_EQ(held.flat<float>()(63), 2.f);
}

TEST(Arena, HandsOutAgainOnceReturned) {
  DeviceSet devices = CpuOnly();
  auto layout = std::make_shared<MemoryLayout>();
  layout->arenas = {{devices.cpu(), 128}};
  layout->values = {{0, 0, 128, 0, {1}}, {0, 0, 128, 1, {0}}};
  layout->slot_value = {0, 1};
  Arena* arena = Arena::Create(layout);
  ASSERT_NE(arena, nullptr);
  { Tensor t = Tensor::Adopt(DT_FLOAT, {32}, arena->Take(0, 128)); }
  TensorBuffer* b1 = arena->Take(1, 100);
  ASSERT_NE(b1, nullptr);
  Tensor t1 = Tensor::Adopt(DT_UINT8, {100}, b1);
  EXPECT_EQ(t1.allocator(), devices.cpu()->allocator());
  std::vector<int> misfits;
  EXPECT_TRUE(arena->Misfits(&misfits));  // t1 is still held
  t1 = Tensor();
  misfits.clear();
  EXPECT_FALSE(arena->Misfits(&misfits));
  arena->Unref();
}

}  // namespace memory_plan_test
}  // namespace
}  // namespace rill::testing
