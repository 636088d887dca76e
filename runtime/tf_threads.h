// TensorFlow's thread pool names for ported programs: Env::Default(), thread::ThreadPool
// (TensorFlow's tensorflow/core/platform/threadpool.h), thread::ThreadPoolInterface and
// thread::ThreadPoolOptions, which Session::RunCallable takes to run a callable on the
// caller's own pool.
//   thread::ThreadPool pool(Env::Default(), "trainer", 4);
//   pool.Schedule([&] { TF_CHECK_OK(session.Run({y}, &out)); });
//   // ~ThreadPool waits for every scheduled function to finish.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace rill {

class ThreadPool;

// The process's environment, as much of TensorFlow's Env as a ported program uses beside
// thread pools: the clock and sleeping. Env::Default() is the one instance.
class Env {
 public:
  static Env* Default();
  uint64_t NowMicros() const;
  void SleepForMicroseconds(int64_t micros) const;

 private:
  Env() = default;
};

namespace thread {

// What a caller's own pool implements (TensorFlow's thread::ThreadPoolInterface, which is
// Eigen's): runs functions on its threads.
class ThreadPoolInterface {
 public:
  virtual ~ThreadPoolInterface() = default;
  virtual void Schedule(std::function<void()> fn) = 0;
  // TensorFlow passes a hint of the work's range; rill's pools ignore it, as may yours.
  virtual void ScheduleWithHint(std::function<void()> fn, int start, int end) {
    (void)start;
    (void)end;
    Schedule(std::move(fn));
  }
  virtual void Cancel() {}
  virtual int NumThreads() const = 0;
  // This thread's index in the pool, or -1 when it is not one of the pool's threads.
  virtual int CurrentThreadId() const = 0;
};

// Pools for one RunCallable. inter_op_threadpool: the run executes on one of its threads
// while the caller waits (so the pool needs a free thread, not the caller's). rill's
// kernels do not split their work across threads, so intra_op_threadpool is not used.
struct ThreadPoolOptions {
  ThreadPoolInterface* inter_op_threadpool = nullptr;
  ThreadPoolInterface* intra_op_threadpool = nullptr;
};

// num_threads workers (clamped to 1..1024); when the system cannot start them, scheduled
// functions run on the scheduling thread instead, so no work is lost. The destructor
// waits for every scheduled function to finish.
class ThreadPool : public ThreadPoolInterface {
 public:
  ThreadPool(Env* env, const std::string& name, int num_threads);
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Schedule(std::function<void()> fn) override;
  int NumThreads() const override;
  int CurrentThreadId() const override;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::unique_ptr<::rill::ThreadPool> pool_;  // null: run inline
};

}  // namespace thread
}  // namespace rill
