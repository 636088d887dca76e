// Several threads on one Session at once: updates of a shared variable from concurrent
// training steps, readers beside them, callables made and released while others run, and
// failing runs beside good ones. CI runs these (and the whole unit suite) under
// ThreadSanitizer as well as ASan; here they assert exact values.
#include <atomic>
#include <thread>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace concurrency_test {

// Every ApplyGradientDescent step subtracts a fed integer: whatever the interleaving, the
// variable ends at minus their sum, and each value a reader fetched is one the variable held
// (a whole multiple of the steps, never a torn mix of two).
TEST(Concurrency, UpdatesFromManyThreadsAreSerializedAndReadsAreWhole) {
  Scope root = Scope::NewRootScope();
  auto w = ops::Variable(root.WithOpName("w"), ops::Fill(root, {256}, 0.0f));
  auto delta = ops::Placeholder(root, DT_FLOAT);
  auto step = ops::ApplyGradientDescent(root, w, 1.0f, ops::Fill(root, {256}, delta));
  auto sum = ops::Sum(root, ops::Identity(root, w), {0});
  Session session(root);
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  constexpr int kWriters = 4, kSteps = 200;
  std::atomic<int> bad{0};
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Tensor> out;
      for (int i = 0; i < kSteps; ++i) {
        Session::FeedType feed{{delta, static_cast<float>(t + 1)}};
        if (!session.Run(feed, std::vector<Output>{}, {step.operation}, &out).ok()) ++bad;
      }
    });
  }
  std::thread reader([&] {
    std::vector<Tensor> out;
    while (!done.load()) {
      if (!session.Run({sum, Output(w)}, &out).ok()) {
        ++bad;
        continue;
      }
      // Each fetch is one value the variable held: equal elements, a whole number of
      // steps (every delta is an integer), never a torn mix of two updates.
      const float* v = out[1].base<float>();
      for (int i = 1; i < 256; ++i) bad += v[i] != v[0];
      bad += v[0] > 0 || v[0] != static_cast<float>(static_cast<int>(v[0]));
      bad += out[0].scalar<float>()() > 0;
    }
  });
  for (auto& th : threads) th.join();
  done = true;
  reader.join();
  EXPECT_EQ(bad.load(), 0);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({Output(w)}, &out).ok());
  const float want = -static_cast<float>(kSteps * (1 + 2 + 3 + 4));
  for (int i = 0; i < 256; ++i) ASSERT_EQ(out[0].base<float>()[i], want) << i;
}

// Callables made, run and released by several threads while others run the same graph
// through Session::Run; failing runs (a bad feed) beside good ones change nothing.
TEST(Concurrency, CallablesAndFailingRunsBesideGoodOnes) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto y = ops::MatMul(root, x, ops::Const(root, {{1.f, 2.f}, {3.f, 4.f}}));
  Session session(root);
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        const float a = static_cast<float>(t * 100 + i);
        std::vector<Tensor> out;
        if (t % 2 == 0) {
          CallableOptions opts;
          opts.feed = {x};
          opts.fetch = {y};
          Session::CallableHandle h;
          if (!session.MakeCallable(opts, &h).ok()) {
            ++bad;
            continue;
          }
          Tensor in(DT_FLOAT, TensorShape({1, 2}));
          in.base<float>()[0] = a;
          in.base<float>()[1] = 1.f;
          if (!session.RunCallable(h, {in}, &out).ok() || out[0].base<float>()[0] != a + 3.f ||
              out[0].base<float>()[1] != 2.f * a + 4.f) {
            ++bad;
          }
          if (!session.ReleaseCallable(h).ok()) ++bad;
        } else {
          // A feed of the wrong shape fails with InvalidArgument; the next run is right.
          absl::Status s = session.Run({{x, Input::Initializer({a, 1.f, 2.f})}}, {y}, {}, &out);
          if (s.code() != absl::StatusCode::kInvalidArgument) ++bad;
          s = session.Run({{x, Input::Initializer({{a, 1.f}})}}, {y}, {}, &out);
          if (!s.ok() || out[0].base<float>()[0] != a + 3.f) ++bad;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

}  // namespace concurrency_test
}  // namespace
}  // namespace rill::testing
