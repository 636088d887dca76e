// The communication engine: one thread that runs every collective of this process, one at
// a time, in the order they are submitted (the plan fixes that order the same on every
// rank, so no negotiation between ranks is needed), and a watchdog that fails a collective
// still running after the timeout. Kernels submit work and return; the executor goes on
// with other nodes while the data moves (the overlap of communication with the backward
// pass).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "rill/runtime/dist/comm.h"

namespace rill::dist {

class Engine {
 public:
  using Work = std::function<absl::Status(Comm&)>;
  using Done = std::function<void(absl::Status)>;

  Engine(std::unique_ptr<Comm> comm, absl::Duration timeout);
  ~Engine();  // Stop()s

  // Runs `work` on the engine's thread after every earlier submission; `done` is called once
  // with its status, or with DeadlineExceeded naming `what` when it has not finished within
  // the timeout. After a timeout the engine is broken: queued and later work fails at once.
  void Submit(std::string what, Work work, Done done);

  const Comm& comm() const { return *comm_; }
  absl::Duration timeout() const { return timeout_; }
  // OK, or the error that broke the engine.
  absl::Status broken() const;
  // Finishes the queued work and stops the threads (a thread stuck in a broken collective
  // is left behind: it can never return). Returns broken().
  absl::Status Stop();
  // Ends the library's use (MPI_Finalize) after Stop(), unless the engine is broken.
  absl::Status Finalize();

 private:
  struct Request;
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

}  // namespace rill::dist
