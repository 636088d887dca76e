// rill's sum over ranks, made of MPI point-to-point calls that are waited for by polling:
// unlike a blocking MPI_Allreduce, the wait can be given up (Comm::Abandon), so the engine's
// thread no longer stays in a dead rank's sum for good. MPI's own nonblocking sum
// (MPI_Iallreduce) cannot stand in: on Open MPI 4.1 it took 336-351 us for 1 MiB on 2 ranks
// against 165-189 us blocking (2-core AMD EPYC, 2026-11-29, docs/benchmarks.md).
#pragma once

#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "rill/core/types.h"

namespace rill::dist {

// An MPI call's error as a Status naming the call.
absl::Status CheckMpi(int rc, const char* call);

// Polls the n calls until all are done, without sleeping: it waits for data to move once
// every rank has stated the collective (collectives.cc), so the others are in it too, and
// MPI moves a large message only while it is polled. Aborted (naming `call`) once
// `abandoned` is set; the calls stay pending. The sum's wait, and the broadcast's
// (comm_mpi.cc).
absl::Status WaitPolling(MPI_Request* reqs, int n, const char* call,
                         const std::atomic<bool>& abandoned);

class PointToPointSum {
 public:
  // recv = the sum (or, with `mean`, the sum / size, integers truncated) over the ranks of
  // `comm` of their send (send == recv: in place), in pieces
  // of kAllReducePieceBytes, each round a ring (reduce-scatter, then allgather, as NCCL's and
  // Open MPI's rings): each of a piece's N slices is summed by one rank and passed on, so
  // every rank holds the same bits. On 2 ranks this matched Open MPI's MPI_Allreduce within
  // 0-5% for 1 MiB and 36 MiB, where swapping whole pieces and adding was 25-35% slower at
  // 36 MiB (docs/benchmarks.md). Aborted once `abandoned`
  // is set: the calls under way stay pending, and the buffer they receive into is kept
  // (MPI may still write it), as are the caller's (engine.cc keeps the collective's work).
  absl::Status Run(MPI_Comm comm, const void* send, void* recv, int64_t count, DataType dtype,
                   bool mean, const std::atomic<bool>& abandoned);

 private:
  // out = the sum (or mean) of every rank's `in` over n elements, round the ring of ranks.
  absl::Status Ring(MPI_Comm comm, int rank, int size, const char* in, char* out, int64_t n,
                    DataType dtype, bool mean, const std::atomic<bool>& abandoned);
  // Sends send_bytes to `to` while it receives recv_bytes from `from`.
  absl::Status Exchange(MPI_Comm comm, int to, const void* send, int64_t send_bytes, int from,
                        void* into, int64_t recv_bytes, const std::atomic<bool>& abandoned);

  std::vector<char> scratch_;  // a slice from the left rank, before it is added
};

}  // namespace rill::dist
