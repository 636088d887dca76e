#include "rill/runtime/thread_pool.h"

#include <sched.h>

#include <algorithm>
#include <system_error>

#include "rill/core/status.h"

namespace rill {

namespace {
// The pool and index of the worker running on this thread (null, -1 elsewhere).
thread_local const ThreadPool* current_pool = nullptr;
thread_local int current_index = -1;
}  // namespace

int DefaultPoolThreads(unsigned cores) {
  return static_cast<int>(std::clamp<unsigned>(cores, 2, kMaxPoolThreads + 1) - 1);
}

unsigned SchedulableCores() {
  // A mask sized for the machine's CPUs: the fixed cpu_set_t holds 1024 and fails beyond.
  const unsigned machine = std::thread::hardware_concurrency();
  const int bits = static_cast<int>(std::max(machine, 1024u));
  cpu_set_t* mask = CPU_ALLOC(bits);
  if (mask == nullptr) return machine;
  const size_t size = CPU_ALLOC_SIZE(bits);
  CPU_ZERO_S(size, mask);
  const int count = sched_getaffinity(0, size, mask) == 0 ? CPU_COUNT_S(size, mask) : 0;
  CPU_FREE(mask);
  return count > 0 ? static_cast<unsigned>(count) : machine;
}

absl::StatusOr<std::unique_ptr<ThreadPool>> ThreadPool::Create(int num_threads) {
  if (num_threads < 1 || num_threads > kMaxPoolThreads) {
    return errors::InvalidArgument("a thread pool needs 1..", kMaxPoolThreads, " threads, got ",
                                   num_threads);
  }
  auto pool = std::unique_ptr<ThreadPool>(new ThreadPool(0));
  try {
    for (int i = 0; i < num_threads; ++i) {
      pool->threads_.emplace_back([p = pool.get(), i] { p->WorkerLoop(i); });
    }
  } catch (const std::system_error& e) {
    // The destructor stops and joins the threads already started.
    return errors::ResourceExhausted("could not start ", num_threads, " threads (", e.what(),
                                     ") after ", pool->threads_.size());
  }
  return pool;
}

ThreadPool::ThreadPool(int num_threads) {
  for (int i = 0; i < num_threads; ++i) threads_.emplace_back([this, i] { WorkerLoop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void ThreadPool::Schedule(std::function<void()> fn) {
  Schedule([](const std::shared_ptr<void>& f,
              int) { (*static_cast<std::function<void()>*>(f.get()))(); },
           std::make_shared<std::function<void()>>(std::move(fn)), 0);
}

void ThreadPool::Schedule(TaskFn fn, std::shared_ptr<void> obj, int arg) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (size_ == ring_.size()) {  // full: unroll into a ring twice as large
      std::vector<Task> grown(std::max<size_t>(16, 2 * ring_.size()));
      for (size_t i = 0; i < size_; ++i) grown[i] = std::move(ring_[(head_ + i) % ring_.size()]);
      ring_ = std::move(grown);
      head_ = 0;
    }
    ring_[(head_ + size_) % ring_.size()] = {fn, std::move(obj), arg};
    ++size_;
  }
  cv_.notify_one();
}

int ThreadPool::CurrentThreadId() const { return current_pool == this ? current_index : -1; }

void ThreadPool::WorkerLoop(int index) {
  current_pool = this;
  current_index = index;
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || size_ != 0; });
      if (size_ == 0) return;  // stopping, and nothing left to do
      task = std::move(ring_[head_]);
      head_ = (head_ + 1) % ring_.size();
      --size_;
    }
    task.fn(task.obj, task.arg);
  }
}

}  // namespace rill
