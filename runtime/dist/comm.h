// What the collectives need of a communication library: one group of ranks and blocking
// collectives over raw buffers, called only from the engine's thread (runtime/dist/
// engine.h). Two implementations: MPI (runtime/dist/mpi/, built when MPI is found) and a
// job of one process (comm_local.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/core/types.h"

namespace rill::dist {

class Comm {
 public:
  virtual ~Comm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual int local_rank() const = 0;
  virtual int local_size() const = 0;
  virtual std::string backend() const = 0;

  // recv[r * bytes ...] = rank r's `bytes` bytes, for every rank. Each collective starts
  // with one (the ranks' statements): MPI's waits for late ranks asleep, not polling.
  virtual absl::Status AllGather(const void* send, int64_t bytes, void* recv) = 0;
  // recv = the elementwise sum of every rank's send, or with `mean` the sum / size
  // (integers truncated), send == recv: in place. MPI's implementation sums pieces of at
  // most kAllReducePieceBytes round a ring of point-to-point calls (mpi/p2p_sum.h), a wait
  // that Abandon ends, and divides each slice as its sum completes.
  virtual absl::Status AllReduce(const void* send, void* recv, int64_t count, DataType dtype,
                                 bool mean) = 0;
  // buf = root's buf on every rank.
  virtual absl::Status Broadcast(void* buf, int64_t bytes, int root) = 0;
  // recv = every rank's send, concatenated in rank order; rank r sends bytes[r]. send may
  // be this rank's own place in recv (in place).
  virtual absl::Status AllGatherV(const void* send, const std::vector<int64_t>& bytes,
                                  void* recv) = 0;
  // Ends the library's use by this process (MPI_Finalize when this process started MPI).
  virtual absl::Status Finalize() = 0;
  // Called by the engine when a collective has not completed within its timeout (the job
  // is broken): a wait for other ranks under way, and any later one, returns Aborted, so
  // the engine's thread leaves instead of polling for a rank that may be gone (MPI's
  // waits that poll nonblocking calls: the statements', a sum's, a broadcast's). An
  // allgather's transfer (a blocking call) cannot be recalled.
  virtual void Abandon() {}
};

// The largest sum rill makes at once; a longer sum goes in pieces this size, one after
// another (measured with MPI_Allreduce, which rill's sums then called). On Open MPI 4.1's
// shared-memory transport one 36 MiB float32 sum took 21-26 ms on 2 ranks and 96 ms on 3, the same
// sum in 4 MiB pieces 9-10 ms and 41 ms (2-core AMD EPYC, 2026-11-28, docs/benchmarks.md): a piece
// is still in the cache when its sum goes back, and the algorithm Open MPI picks for 2 ranks runs
// at half speed from 32 MiB up. NCCL's pipeline buffers are 4 MiB too; on a network, a call's
// latency (tens of microseconds) stays small against a piece's transfer.
inline constexpr int64_t kAllReducePieceBytes = int64_t{4} << 20;

// A job of one process: every collective is a copy.
std::unique_ptr<Comm> MakeLocalComm();
// Whether a launcher (mpirun, srun) started this process as one rank of a job.
bool LaunchedAsRank();
// Whether the program has started MPI itself (then rill uses that MPI: false without MPI).
bool ProgramStartedMpi();
// MPI's world (Unimplemented in a build without MPI).
absl::StatusOr<std::unique_ptr<Comm>> MakeMpiComm();

}  // namespace rill::dist
