// Data-parallel training over processes, as Horovod users know it. Start the same program
// on N processes with `mpirun -np N prog`; each calls dist::Init() once, builds the same
// graph and runs it; the collective ops (rill/ops/collective_ops.h) and DistributedOptimizer
// (rill/ops/distributed_optimizer.h) meet across the ranks.
//   RILL_RETURN_IF_ERROR(dist::Init());
//   if (dist::Rank() == 0) std::printf("training on %d ranks\n", dist::Size());
// A process not started by mpirun is a job of one rank: the same program runs unchanged,
// its collectives returning their input. (Started by mpirun, a build without MPI fails
// Init with Unimplemented rather than train N unconnected copies.)
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace rill::dist {

struct InitOptions {
  // A collective that has not completed within this time fails with DeadlineExceeded
  // naming the collective, node and rank (a peer died, stalled or runs another graph);
  // after that every collective of this process fails at once. The environment variable
  // RILL_COLLECTIVE_TIMEOUT (seconds) overrides it.
  absl::Duration timeout = absl::Minutes(3);
  // GPU tensors move through NCCL where every rank can use it (a build with NCCL, a GPU a
  // rank); false: always staged through pinned host memory and MPI (Horovod's
  // HOROVOD_GPU_OPERATIONS=MPI). The environment variable RILL_GPU_COLLECTIVES (NCCL or
  // MPI) overrides it.
  bool nccl = true;
};

// Starts MPI (when launched by mpirun; MPI already started by the program is used as it is)
// and the communication thread. Later calls return OK and change nothing.
absl::Status Init(const InitOptions& options = {});
bool IsInitialized();
// This process's rank, the number of ranks, and its rank and count among the ranks on this
// machine (a rank's GPU); 0, 1, 0, 1 before Init.
int Rank();
int Size();
int LocalRank();
int LocalSize();
// "MPI" (with the library's version) or "local" for a job of one process without MPI.
std::string Backend();
// How this process's collectives have moved their data so far: host memory through the
// Comm (MPI), GPU memory staged through pinned host memory and MPI (ranks sharing a GPU, or
// a build without NCCL), or GPU memory through NCCL (every rank on a GPU of its own).
struct PathCounts {
  int64_t host = 0;
  int64_t staged = 0;
  int64_t nccl = 0;
  // Of the host ones, replica updates made as row slices from gathered factors
  // (DistributedOptimizerOptions::replicated_variables).
  int64_t replica_rows = 0;
  // Replica updates whose ranks, all on one host, share one copy of the weight (its rows
  // written in place, no gather): not counted in replica_rows.
  int64_t replica_shared = 0;
};
PathCounts CollectivePaths();
// Whether this build moves GPU tensors with NCCL (built with CUDA and NCCL found).
bool NcclBuilt();
// Whether this process's GPU collectives take NCCL where every rank can: NcclBuilt(),
// InitOptions::nccl (or RILL_GPU_COLLECTIVES) after Init, and libnccl.so.2 found at run
// time (it is loaded when first needed, not linked).
bool NcclEnabled();
// The collective timeout in effect.
absl::Duration Timeout();
// Waits for queued collectives, stops the communication thread and finalizes MPI (when
// Init started it). Run at exit by itself; returns the error that broke the engine, if
// one did (then MPI is not finalized: a peer is gone, so finalizing would hang).
absl::Status Shutdown();

}  // namespace rill::dist
