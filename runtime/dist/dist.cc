// The process's engine: made by Init, stopped by Shutdown (or at exit).
#include "rill/runtime/dist/dist.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string_view>

#include "absl/strings/numbers.h"
#include "rill/core/status.h"
#include "rill/runtime/dist/data_path.h"
#include "rill/runtime/dist/engine.h"
#if RILL_WITH_NCCL
#include "rill/runtime/dist/gpu/nccl/nccl_comm.h"
#endif
#include "rill/runtime/dist/world.h"

namespace rill::dist {
namespace {

std::mutex& InitMutex() {
  static std::mutex mu;
  return mu;
}

// Never destroyed: at exit a broken engine's thread may still be inside MPI.
std::atomic<Engine*> g_engine{nullptr};
bool g_shut_down = false;

absl::StatusOr<absl::Duration> TimeoutFrom(const InitOptions& options) {
  absl::Duration timeout = options.timeout;
  if (const char* env = std::getenv("RILL_COLLECTIVE_TIMEOUT")) {
    double seconds = 0;
    if (!absl::SimpleAtod(env, &seconds) || !(seconds > 0) || seconds > 1e7) {
      return errors::InvalidArgument(
          "RILL_COLLECTIVE_TIMEOUT must be a number of seconds > 0, "
          "got '",
          env, "'");
    }
    timeout = absl::Seconds(seconds);
  }
  if (timeout <= absl::ZeroDuration()) {
    return errors::InvalidArgument("dist::InitOptions::timeout must be > 0, got ",
                                   absl::FormatDuration(timeout));
  }
  return timeout;
}

absl::StatusOr<bool> NcclFrom(const InitOptions& options) {
  const char* env = std::getenv("RILL_GPU_COLLECTIVES");
  if (env == nullptr) return options.nccl;
  if (std::string_view(env) == "NCCL") return true;
  if (std::string_view(env) == "MPI") return false;
  return errors::InvalidArgument("RILL_GPU_COLLECTIVES must be NCCL or MPI, got '", env, "'");
}

std::atomic<bool> g_nccl{true};

void ShutdownAtExit() { Shutdown().IgnoreError(); }

std::atomic<int64_t> g_paths[5];

}  // namespace

Engine* GetEngine() { return g_engine.load(std::memory_order_acquire); }

absl::StatusOr<Engine*> EngineForKernel() {
  Engine* engine = GetEngine();
  if (engine == nullptr) {
    return errors::FailedPrecondition(
        "the collectives need the job's ranks: call dist::Init() before running them");
  }
  return engine;
}

absl::Status Init(const InitOptions& options) {
  std::lock_guard<std::mutex> lock(InitMutex());
  if (g_engine.load() != nullptr) return absl::OkStatus();
  if (g_shut_down) {
    return errors::FailedPrecondition("dist::Init after dist::Shutdown: MPI cannot start twice");
  }
  RILL_ASSIGN_OR_RETURN(absl::Duration timeout, TimeoutFrom(options));
  RILL_ASSIGN_OR_RETURN(const bool nccl, NcclFrom(options));
  g_nccl.store(nccl);
  std::unique_ptr<Comm> comm;
  if (LaunchedAsRank() || ProgramStartedMpi()) {
    RILL_ASSIGN_OR_RETURN(comm, MakeMpiComm());
  } else {
    comm = MakeLocalComm();
  }
  g_engine.store(new Engine(std::move(comm), timeout), std::memory_order_release);
  std::atexit(ShutdownAtExit);
  return absl::OkStatus();
}

bool IsInitialized() { return GetEngine() != nullptr; }
int Rank() { return GetEngine() ? GetEngine()->comm().rank() : 0; }
int Size() { return GetEngine() ? GetEngine()->comm().size() : 1; }
int LocalRank() { return GetEngine() ? GetEngine()->comm().local_rank() : 0; }
int LocalSize() { return GetEngine() ? GetEngine()->comm().local_size() : 1; }
std::string Backend() {
  return GetEngine() ? GetEngine()->comm().backend() : "none (not initialized)";
}

void CountPath(int path) { g_paths[path].fetch_add(1, std::memory_order_relaxed); }

PathCounts CollectivePaths() {
  PathCounts c;
  c.host = g_paths[0].load(std::memory_order_relaxed);
  c.staged = g_paths[1].load(std::memory_order_relaxed);
  c.nccl = g_paths[2].load(std::memory_order_relaxed);
  c.replica_rows = g_paths[3].load(std::memory_order_relaxed);
  c.replica_shared = g_paths[4].load(std::memory_order_relaxed);
  return c;
}

bool NcclBuilt() {
#if RILL_WITH_NCCL
  return true;
#else
  return false;
#endif
}

bool NcclEnabled() {
#if RILL_WITH_NCCL
  return g_nccl.load() && NcclLoaded();
#else
  return false;
#endif
}

absl::Duration Timeout() { return GetEngine() ? GetEngine()->timeout() : InitOptions{}.timeout; }

absl::Status Shutdown() {
  std::lock_guard<std::mutex> lock(InitMutex());
  Engine* e = g_engine.load();
  if (e == nullptr || g_shut_down) return e == nullptr ? absl::OkStatus() : e->broken();
  g_shut_down = true;
  return e->Finalize();
}

}  // namespace rill::dist
