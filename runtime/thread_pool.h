// One persistent pool of worker threads per Session for expensive kernels.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"

namespace rill {

// More threads than this is a mistake, not a configuration (each costs a stack).
inline constexpr int kMaxPoolThreads = 1024;

// A Session's pool size when its options leave it to rill: one thread fewer than `cores`
// (at least one), because the thread that calls Run runs nodes too. A worker per core
// besides it let one more expensive kernel run than there are cores, each with oneDNN's
// OpenMP team over all of them: on 2 cores the CIFAR MLP and MNIST CNN steps were 4%
// slower (docs/benchmarks.md, 2026-11-26).
int DefaultPoolThreads(unsigned cores);

// The cores this thread may run on: its CPU affinity mask's count (what `taskset`, a
// container's cpuset or `mpirun`'s binding leave it), else the machine's, else 0 when
// neither is known. TensorFlow sizes its pools the same way (NumSchedulableCPUs): a rank
// that mpirun binds to one core of 16 would otherwise start 15 workers on that core.
unsigned SchedulableCores();

class ThreadPool {
 public:
  // InvalidArgument outside 1..kMaxPoolThreads; ResourceExhausted when the system cannot
  // start that many threads (the ones started are stopped again).
  static absl::StatusOr<std::unique_ptr<ThreadPool>> Create(int num_threads);
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Schedule(std::function<void()> fn);
  // fn(obj, arg) on a worker. Allocates nothing once the queue has grown to the most
  // tasks ever waiting at once (the executor's steady state).
  using TaskFn = void (*)(const std::shared_ptr<void>& obj, int arg);
  void Schedule(TaskFn fn, std::shared_ptr<void> obj, int arg);
  int num_threads() const { return static_cast<int>(threads_.size()); }
  // The calling thread's index in this pool (0..num_threads()-1), or -1 when it is not
  // one of this pool's threads.
  int CurrentThreadId() const;

 private:
  struct Task {
    TaskFn fn = nullptr;
    std::shared_ptr<void> obj;
    int arg = 0;
  };
  void WorkerLoop(int index);
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Task> ring_;  // a circular queue: size_ tasks from head_; grows by doubling
  size_t head_ = 0, size_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace rill
