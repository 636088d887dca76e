#include "rill/runtime/dist/engine.h"

#include <atomic>

#include "absl/strings/str_cat.h"
#include "rill/core/status.h"

namespace rill::dist {

struct Engine::Request {
  std::string what;
  Work work;
  Done done;
  std::atomic<bool> finished{false};
  // Calls `done` the first time only: the watchdog and a late return race for it. What
  // `done` holds (an executor's run state) goes with it, even while a stuck call still
  // holds the request.
  void Finish(const absl::Status& st) {
    if (finished.exchange(true)) return;
    Done call = std::move(done);
    call(st);
  }
};

Engine::Engine(std::unique_ptr<Comm> comm, absl::Duration timeout)
    : comm_(std::move(comm)), timeout_(timeout) {
  thread_ = std::thread([this] { Loop(); });
  watchdog_ = std::thread([this] { Watch(); });
}

Engine::~Engine() { Stop().IgnoreError(); }

void Engine::Submit(std::string what, Work work, Done done) {
  auto r = std::make_shared<Request>();
  r->what = std::move(what);
  r->work = std::move(work);
  r->done = std::move(done);
  absl::Status fail;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!broken_.ok()) {
      fail = broken_;
    } else if (stopping_) {
      fail = errors::FailedPrecondition(r->what, ": dist::Shutdown() has stopped the engine");
    } else {
      queue_.push_back(r);
    }
  }
  if (!fail.ok()) {
    r->Finish(fail);
    return;
  }
  work_cv_.notify_one();
}

void Engine::Loop() {
  for (;;) {
    std::shared_ptr<Request> r;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [&] { return !queue_.empty() || stopping_ || !broken_.ok(); });
      if (!broken_.ok() || queue_.empty()) return;  // stopping with nothing left, or broken
      r = std::move(queue_.front());
      queue_.pop_front();
      in_flight_ = r;
      started_ = absl::Now();
    }
    watch_cv_.notify_one();
    absl::Status st = r->work(*comm_);
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_flight_.reset();
    }
    watch_cv_.notify_one();
    r->Finish(st);
  }
}

void Engine::Watch() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (stopping_ && in_flight_ == nullptr && queue_.empty()) return;
    if (!broken_.ok()) return;
    if (in_flight_ == nullptr) {
      watch_cv_.wait(lock);
      continue;
    }
    const absl::Time deadline = started_ + timeout_;
    if (absl::Now() < deadline) {
      watch_cv_.wait_until(lock, absl::ToChronoTime(deadline));
      continue;
    }
    const std::string what = in_flight_->what;
    lock.unlock();
    Break(errors::DeadlineExceeded(
        what, ": not complete after ", absl::FormatDuration(timeout_), " on rank ", comm_->rank(),
        " of ", comm_->size(),
        ": a peer rank has died, stalled or runs a different graph (dist::InitOptions::timeout, "
        "RILL_COLLECTIVE_TIMEOUT)"));
    return;
  }
}

void Engine::Break(absl::Status why) {
  std::deque<std::shared_ptr<Request>> failed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!broken_.ok()) return;
    broken_ = why;
    if (in_flight_ != nullptr) failed.push_back(in_flight_);
    for (auto& r : queue_) failed.push_back(std::move(r));
    queue_.clear();
  }
  work_cv_.notify_all();
  for (auto& r : failed) r->Finish(why);
}

absl::Status Engine::broken() const {
  std::lock_guard<std::mutex> lock(mu_);
  return broken_;
}

absl::Status Engine::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_) return broken_;
    stopped_ = stopping_ = true;
  }
  work_cv_.notify_all();
  watch_cv_.notify_all();
  // The watchdog returns once the queue drains or the engine breaks; after it, the
  // communication thread is either done or stuck in a call that can never return.
  watchdog_.join();
  absl::Status st = broken();
  if (st.ok()) {
    thread_.join();
  } else {
    thread_.detach();
  }
  return st;
}

absl::Status Engine::Finalize() {
  RILL_RETURN_IF_ERROR(Stop());
  return comm_->Finalize();
}

}  // namespace rill::dist
