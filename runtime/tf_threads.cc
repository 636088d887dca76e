#include "rill/runtime/tf_threads.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "rill/runtime/thread_pool.h"

namespace rill {

Env* Env::Default() {
  static Env* env = new Env();
  return env;
}

uint64_t Env::NowMicros() const {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

void Env::SleepForMicroseconds(int64_t micros) const {
  if (micros > 0) std::this_thread::sleep_for(std::chrono::microseconds(micros));
}

namespace thread {

ThreadPool::ThreadPool(Env* env, const std::string& name, int num_threads) : name_(name) {
  (void)env;  // threads come from std::thread, whichever Env is passed
  absl::StatusOr<std::unique_ptr<::rill::ThreadPool>> pool =
      ::rill::ThreadPool::Create(std::clamp(num_threads, 1, kMaxPoolThreads));
  if (pool.ok()) pool_ = *std::move(pool);
}

ThreadPool::~ThreadPool() = default;  // ::rill::ThreadPool's destructor drains its queue

void ThreadPool::Schedule(std::function<void()> fn) {
  if (pool_ == nullptr) {
    fn();
    return;
  }
  pool_->Schedule(std::move(fn));
}

int ThreadPool::NumThreads() const { return pool_ == nullptr ? 0 : pool_->num_threads(); }

int ThreadPool::CurrentThreadId() const { return pool_ == nullptr ? -1 : pool_->CurrentThreadId(); }

}  // namespace thread
}  // namespace rill
