#include "rill/runtime/dist/engine.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rill/core/status.h"

namespace rill::dist {

namespace {

struct Request {
  using Done = Engine::Done;
  using Work = Engine::Work;
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

}  // namespace

class Engine::Core {
 public:
  Core(std::unique_ptr<Comm> comm, absl::Duration timeout)
      : comm_(std::move(comm)), timeout_(timeout) {}
  static void Start(const std::shared_ptr<Core>& core) {
    core->thread_ = std::thread([core] { core->Loop(); });
    core->watchdog_ = std::thread([core] { core->Watch(); });
  }
  void Submit(std::string what, Work work, Done done);
  absl::Status broken() const;
  absl::Status Stop();
  Comm& comm() { return *comm_; }
  absl::Duration timeout() const { return timeout_; }

 private:
  void Loop();
  void Watch();
  void Break(absl::Status why);

  std::unique_ptr<Comm> comm_;
  const absl::Duration timeout_;
  mutable std::mutex mu_;
  std::condition_variable work_cv_, watch_cv_;
  std::deque<std::shared_ptr<Request>> queue_;
  std::shared_ptr<Request> in_flight_;
  absl::Time started_;
  absl::Status broken_;
  bool stopping_ = false, stopped_ = false;
  std::thread thread_, watchdog_;
};

Engine::Engine(std::unique_ptr<Comm> comm, absl::Duration timeout)
    : core_(std::make_shared<Core>(std::move(comm), timeout)) {
  Core::Start(core_);
}

Engine::~Engine() { Stop().IgnoreError(); }

void Engine::Submit(std::string what, Work work, Done done) {
  core_->Submit(std::move(what), std::move(work), std::move(done));
}
const Comm& Engine::comm() const { return core_->comm(); }
absl::Duration Engine::timeout() const { return core_->timeout(); }
absl::Status Engine::broken() const { return core_->broken(); }
absl::Status Engine::Stop() { return core_->Stop(); }

absl::Status Engine::Finalize() {
  RILL_RETURN_IF_ERROR(Stop());
  return core_->comm().Finalize();
}

void Engine::Core::Submit(std::string what, Work work, Done done) {
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

void Engine::Core::Loop() {
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
    // The watchdog is not woken: it looks again by itself before this deadline (Watch).
    absl::Status st = r->work(*comm_);
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_flight_.reset();
      if (!broken_.ok()) {
        // Given up after the timeout (Comm::Abandon): calls to other ranks may still be
        // pending on what the work holds (its tensors, a GPU path's staging memory), and a
        // late rank may yet complete them, so it is never freed.
        static auto* kept = new std::vector<std::shared_ptr<Request>>;
        kept->push_back(r);
      }
      if (stopping_ && queue_.empty()) watch_cv_.notify_one();  // Stop waits for the watchdog
    }
    r->Finish(st);
  }
}

// Sleeps a timeout at a time, or until the collective in flight is due, so the
// communication thread never has to wake it: a collective started while it sleeps is due
// after it wakes (started later, same timeout).
void Engine::Core::Watch() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (stopping_ && in_flight_ == nullptr && queue_.empty()) return;
    if (!broken_.ok()) return;
    const absl::Time now = absl::Now();
    if (in_flight_ == nullptr || now < started_ + timeout_) {
      const absl::Time wake = in_flight_ == nullptr ? now + timeout_ : started_ + timeout_;
      if (wake == absl::InfiniteFuture()) {
        watch_cv_.wait(lock);
      } else {
        watch_cv_.wait_until(lock, absl::ToChronoTime(wake));
      }
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

void Engine::Core::Break(absl::Status why) {
  std::deque<std::shared_ptr<Request>> failed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!broken_.ok()) return;
    broken_ = why;
    if (in_flight_ != nullptr) failed.push_back(in_flight_);
    for (auto& r : queue_) failed.push_back(std::move(r));
    queue_.clear();
  }
  comm_->Abandon();  // the communication thread leaves the wait it is in, if it can
  work_cv_.notify_all();
  for (auto& r : failed) r->Finish(why);
}

absl::Status Engine::Core::broken() const {
  std::lock_guard<std::mutex> lock(mu_);
  return broken_;
}

absl::Status Engine::Core::Stop() {
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

}  // namespace rill::dist
