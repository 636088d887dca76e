// TensorFlow's thread pool names (runtime/tf_threads.h): thread::ThreadPool, Env, and a
// callable run on the caller's own pool through thread::ThreadPoolOptions.
#include <atomic>
#include <set>
#include <thread>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace tf_threads_test {

TEST(TfThreads, ThreadPoolRunsEverythingBeforeItIsDestroyed) {
  std::atomic<int> ran{0};
  std::atomic<int> bad_ids{0};
  std::set<std::thread::id> threads;
  std::mutex mu;
  {
    thread::ThreadPool pool(Env::Default(), "test", 3);
    EXPECT_EQ(pool.NumThreads(), 3);
    EXPECT_EQ(pool.CurrentThreadId(), -1);  // the test's thread is not one of the pool's
    for (int i = 0; i < 200; ++i) {
      pool.Schedule([&] {
        const int id = pool.CurrentThreadId();
        if (id < 0 || id >= 3) ++bad_ids;
        std::lock_guard<std::mutex> lock(mu);
        threads.insert(std::this_thread::get_id());
        ++ran;
      });
    }
    pool.ScheduleWithHint([&] { ++ran; }, 0, 10);
  }
  EXPECT_EQ(ran.load(), 201);
  EXPECT_EQ(bad_ids.load(), 0);
  EXPECT_LE(threads.size(), 3u);
  EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
}

TEST(TfThreads, ThreadCountsAreClamped) {
  thread::ThreadPool none(Env::Default(), "none", 0);
  EXPECT_EQ(none.NumThreads(), 1);
  thread::ThreadPool negative(Env::Default(), "negative", -3);
  EXPECT_EQ(negative.NumThreads(), 1);
}

TEST(TfThreads, EnvClock) {
  EXPECT_EQ(Env::Default(), Env::Default());
  const uint64_t before = Env::Default()->NowMicros();
  Env::Default()->SleepForMicroseconds(2000);
  EXPECT_GE(Env::Default()->NowMicros() - before, 2000u);
  Env::Default()->SleepForMicroseconds(-5);  // nothing to wait for
}

// A caller's pool, as TensorFlow's client_session_test writes one: counts what it is given.
class CountingPool : public thread::ThreadPoolInterface {
 public:
  explicit CountingPool(int n) : pool_(Env::Default(), "counting", n) {}
  void Schedule(std::function<void()> fn) override {
    ++scheduled;
    pool_.Schedule(std::move(fn));
  }
  int NumThreads() const override { return pool_.NumThreads(); }
  int CurrentThreadId() const override { return pool_.CurrentThreadId(); }
  std::atomic<int> scheduled{0};

 private:
  thread::ThreadPool pool_;
};

TEST(TfThreads, RunCallableOnTheCallersInterOpPool) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Placeholder(root, DT_INT32, ops::Placeholder::Shape({1, 1}));
  auto b = ops::Placeholder(root, DT_INT32, ops::Placeholder::Shape({1, 1}));
  auto c = ops::BatchMatMul(root, a, b);
  Session session(root);
  CallableOptions options;
  options.feed = {a, b};
  options.fetch = {c};
  Session::CallableHandle handle;
  TF_ASSERT_OK(session.MakeCallable(options, &handle));
  CountingPool inter(2), intra(2);
  thread::ThreadPoolOptions pools;
  pools.inter_op_threadpool = &inter;
  pools.intra_op_threadpool = &intra;
  std::vector<Tensor> out;
  for (int i = 0; i < 3; ++i) {
    TF_ASSERT_OK(session.RunCallable(
        handle, {test::AsTensor<int>({2}, {1, 1}), test::AsTensor<int>({10 + i}, {1, 1})}, &out,
        nullptr, pools));
    test::ExpectTensorEqual<int>(out[0], test::AsTensor<int>({20 + 2 * i}, {1, 1}));
  }
  EXPECT_EQ(inter.scheduled.load(), 3);  // each run went to the caller's pool
  EXPECT_EQ(intra.scheduled.load(), 0);  // rill's kernels do not split work across threads
  // A bad handle or feed is the same Status on a pool as without one.
  EXPECT_TRUE(errors::IsInvalidArgument(session.RunCallable(99, {}, &out, nullptr, pools)));
  EXPECT_TRUE(errors::IsInvalidArgument(session.RunCallable(handle, {}, &out, nullptr, pools)));
}

}  // namespace tf_threads_test
}  // namespace
}  // namespace rill
