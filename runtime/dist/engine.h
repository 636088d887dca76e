// The communication engine: one thread that runs every collective of this process, one at
// a time, in the order they are submitted (the plan fixes that order the same on every
// rank, so no negotiation between ranks is needed), and a watchdog that fails a collective
// still running after the timeout. Kernels submit work and return; the executor goes on
// with other nodes while the data moves (the overlap of communication with the backward
// pass).
#pragma once

#include <functional>
#include <memory>
#include <string>

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

  const Comm& comm() const;
  absl::Duration timeout() const;
  // OK, or the error that broke the engine.
  absl::Status broken() const;
  // Finishes the queued work and stops the threads (a thread stuck in a broken collective
  // is left behind: it can never return). Returns broken().
  absl::Status Stop();
  // Ends the library's use (MPI_Finalize) after Stop(), unless the engine is broken.
  absl::Status Finalize();

 private:
  // Everything the engine's threads use, shared with them: a thread stuck in a broken
  // collective keeps it alive after the Engine is gone.
  class Core;
  std::shared_ptr<Core> core_;
};

}  // namespace rill::dist
