// MPI's world as a Comm. rill works on its own duplicate of MPI_COMM_WORLD, with errors
// returned rather than fatal, so a program's own MPI calls never interleave with rill's and
// a failed call becomes a Status. MPI counts are ints: longer buffers go in pieces (sums in
// pieces of kAllReducePieceBytes, comm.h).
// MPI's C API only (Open MPI and MPICH otherwise pull in their deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"
#include "rill/core/status.h"
#include "rill/runtime/dist/comm.h"
#include "rill/runtime/dist/mpi/p2p_sum.h"

namespace rill::dist {
namespace {

absl::Status Check(int rc, const char* call) { return CheckMpi(rc, call); }

// Asks Linux to end this thread's naps on time: by default a sleep may end up to 50 us late
// (timer slack), and on the 2-core machine a nap of 10 us took 95 us (median of 200), of
// 80 us 164; with a slack of 1 us, 45 and 119 (docs/benchmarks.md).
void NapPrecisely() {
#ifdef __linux__
  static thread_local const bool set = prctl(PR_SET_TIMERSLACK, 1000UL) == 0;
  (void)set;
#endif
}

// Waits for a nonblocking call without spinning while a rank is late. MPI's blocking calls
// poll at full speed as they wait, and mpirun binds each of a few ranks to one core: a
// rank's communication thread then takes half of that core from its own backward pass for
// as long as the slowest rank is behind (traced on 2 ranks: the layer that ran beside the
// first bucket's wait took 29-44 ms instead of 20). Here the thread polls for 20 us (ranks
// that arrive together), then sleeps between polls, up to 250 us: the most a late arrival
// is noticed late. For a rank that never arrives, the engine's watchdog fails the
// collective after its timeout (engine.h), as it did a blocked call, and its Abandon()
// makes this thread leave (the request stays pending: MPI forbids freeing a collective's).
absl::Status WaitAsleep(MPI_Request* req, const char* call, const std::atomic<bool>& abandoned) {
  using std::chrono::microseconds;
  const auto spin_until = std::chrono::steady_clock::now() + microseconds(20);
  microseconds nap(10);
  for (;;) {
    int done = 0;
    RILL_RETURN_IF_ERROR(Check(MPI_Test(req, &done, MPI_STATUS_IGNORE), call));
    if (done) return absl::OkStatus();
    if (abandoned.load(std::memory_order_acquire)) {
      return errors::Aborted(call, " abandoned: the collective timed out");
    }
    if (std::chrono::steady_clock::now() < spin_until) continue;
    NapPrecisely();
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, microseconds(250));
  }
}

class MpiComm : public Comm {
 public:
  MpiComm(MPI_Comm world, MPI_Comm node, bool owns_mpi)
      : world_(world), node_(node), owns_mpi_(owns_mpi) {
    MPI_Comm_rank(world_, &rank_);
    MPI_Comm_size(world_, &size_);
    MPI_Comm_rank(node_, &local_rank_);
    MPI_Comm_size(node_, &local_size_);
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    std::string v(version, std::max(len, 0));
    backend_ = "MPI (" + v.substr(0, v.find_first_of(",\n")) + ")";
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }
  std::string backend() const override { return backend_; }

  absl::Status AllGather(const void* send, int64_t bytes, void* recv) override {
    if (bytes > INT_MAX) return errors::InvalidArgument("allgather of ", bytes, " bytes a rank");
    // Every collective starts with this call (the ranks' statements, collectives.cc): the
    // one where ranks wait for each other, so it waits asleep. Through buffers of its own:
    // when the wait is abandoned, a late rank may still complete the call, and MPI then
    // writes into them, so they are never freed.
    const size_t one = static_cast<size_t>(bytes);
    statements_.resize(one * (size_ + 1));
    std::memcpy(statements_.data(), send, one);
    MPI_Request req;
    RILL_RETURN_IF_ERROR(Check(
        MPI_Iallgather(statements_.data(), static_cast<int>(bytes), MPI_BYTE,
                       statements_.data() + one, static_cast<int>(bytes), MPI_BYTE, world_, &req),
        "MPI_Iallgather"));
    absl::Status st = WaitAsleep(&req, "MPI_Iallgather", abandoned_);
    if (absl::IsAborted(st)) {
      static auto* kept = new std::vector<std::vector<char>>;  // never freed, on purpose
      kept->push_back(std::move(statements_));                 // the same memory, still reachable
      return st;
    }
    if (st.ok()) std::memcpy(recv, statements_.data() + one, one * size_);
    return st;
  }

  // Point-to-point calls polled (p2p_sum.h), so an abandoned sum returns.
  absl::Status AllReduce(const void* send, void* recv, int64_t count, DataType dt,
                         bool mean) override {
    return sum_.Run(world_, send, recv, count, dt, mean, abandoned_);
  }

  // Nonblocking calls polled, so that a wait for a dead rank can be abandoned. Open MPI's
  // MPI_Ibcast polled took as long as MPI_Bcast (2 and 3 ranks, 1 and 36 MiB, within 3%;
  // docs/benchmarks.md).
  absl::Status Broadcast(void* buf, int64_t bytes, int root) override {
    for (int64_t done = 0; done < bytes;) {
      const int n = static_cast<int>(std::min<int64_t>(bytes - done, INT_MAX));
      MPI_Request req;
      RILL_RETURN_IF_ERROR(
          Check(MPI_Ibcast(static_cast<char*>(buf) + done, n, MPI_BYTE, root, world_, &req),
                "MPI_Ibcast"));
      RILL_RETURN_IF_ERROR(WaitPolling(&req, 1, "MPI_Ibcast", abandoned_));
      done += n;
    }
    return absl::OkStatus();
  }

  absl::Status AllGatherV(const void* send, const std::vector<int64_t>& bytes,
                          void* recv) override {
    std::vector<int> counts(size_), displs(size_);
    int64_t total = 0;
    for (int r = 0; r < size_; ++r) {
      if (total + bytes[r] > INT_MAX) {
        return errors::InvalidArgument("allgather of more than ", INT_MAX,
                                       " bytes in all (MPI's counts are ints)");
      }
      counts[r] = static_cast<int>(bytes[r]);
      displs[r] = static_cast<int>(total);
      total += bytes[r];
    }
    // Blocking, unlike the other waits: on 2 ranks MPI_Iallgatherv polled (and a ring of
    // point-to-point calls) took 26-62% longer than this call (1 and 16 MiB a rank;
    // docs/benchmarks.md), and the watchdog fails the collective at the timeout anyway: only
    // the engine's thread of a job already broken stays behind.
    // MPI forbids a send buffer inside recv: that is its MPI_IN_PLACE.
    const bool in_place = send == static_cast<const char*>(recv) + displs[rank_];
    return Check(MPI_Allgatherv(in_place ? MPI_IN_PLACE : send, counts[rank_], MPI_BYTE, recv,
                                counts.data(), displs.data(), MPI_BYTE, world_),
                 "MPI_Allgatherv");
  }

  void Abandon() override { abandoned_.store(true, std::memory_order_release); }

  absl::Status Finalize() override {
    MPI_Comm_free(&node_);
    MPI_Comm_free(&world_);
    if (!owns_mpi_) return absl::OkStatus();
    return Check(MPI_Finalize(), "MPI_Finalize");
  }

 private:
  MPI_Comm world_, node_;
  bool owns_mpi_;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  std::string backend_;
  std::vector<char> statements_;  // the statements' allgather: mine, then every rank's
  PointToPointSum sum_;
  std::atomic<bool> abandoned_{false};
};

}  // namespace

bool ProgramStartedMpi() {
  int started = 0, finished = 0;
  MPI_Initialized(&started);
  MPI_Finalized(&finished);
  return started && !finished;
}

absl::StatusOr<std::unique_ptr<Comm>> MakeMpiComm() {
  int started = 0;
  MPI_Initialized(&started);
  if (!started) {
    int provided = 0;
    // The engine's thread makes rill's calls while the program's main thread may make its
    // own (a benchmark's raw MPI_Allreduce): ask for full thread support.
    RILL_RETURN_IF_ERROR(Check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided),
                               "MPI_Init_thread"));
    if (provided < MPI_THREAD_SERIALIZED) {
      return errors::FailedPrecondition("the MPI library gives thread support level ", provided,
                                        "; rill's communication thread needs "
                                        "MPI_THREAD_SERIALIZED or more");
    }
  }
  MPI_Comm world, node;
  RILL_RETURN_IF_ERROR(Check(MPI_Comm_dup(MPI_COMM_WORLD, &world), "MPI_Comm_dup"));
  RILL_RETURN_IF_ERROR(
      Check(MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler"));
  RILL_RETURN_IF_ERROR(
      Check(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type"));
  return std::unique_ptr<Comm>(std::make_unique<MpiComm>(world, node, !started));
}

}  // namespace rill::dist
