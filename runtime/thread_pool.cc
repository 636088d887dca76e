#include "rill/runtime/thread_pool.h"

#include <system_error>

#include "rill/core/status.h"

namespace rill {

absl::StatusOr<std::unique_ptr<ThreadPool>> ThreadPool::Create(int num_threads) {
  if (num_threads < 1 || num_threads > kMaxPoolThreads) {
    return errors::InvalidArgument("a thread pool needs 1..", kMaxPoolThreads, " threads, got ",
                                   num_threads);
  }
  auto pool = std::unique_ptr<ThreadPool>(new ThreadPool(0));
  try {
    for (int i = 0; i < num_threads; ++i) {
      pool->threads_.emplace_back([p = pool.get()] { p->WorkerLoop(); });
    }
  } catch (const std::system_error& e) {
    // The destructor stops and joins the threads already started.
    return errors::ResourceExhausted("could not start ", num_threads, " threads (", e.what(),
                                     ") after ", pool->threads_.size());
  }
  return pool;
}

ThreadPool::ThreadPool(int num_threads) {
  for (int i = 0; i < num_threads; ++i) threads_.emplace_back([this] { WorkerLoop(); });
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
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(fn));
  }
  cv_.notify_one();
}

void ThreadPool::WorkerLoop() {
  for (;;) {
    std::function<void()> fn;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to do
      fn = std::move(queue_.front());
      queue_.pop_front();
    }
    fn();
  }
}

}  // namespace rill
