// The process's NCCL communicator (a build with NCCL): one over every rank of the job, for
// one GPU of this process. It is made the first time a collective takes the NCCL path;
// every rank takes that path at the same collective (the choice is made from every rank's
// statement), so every rank makes it there, together. Its unique id goes from rank 0 to
// the others through the job's Comm (MPI), the bootstrap NCCL's documentation describes.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "rill/core/types.h"
#include "rill/runtime/dist/comm.h"

namespace rill::dist {

class NcclComm;

// Whether libnccl.so.2 was found and loaded (on first use; rill does not link it).
bool NcclLoaded();
// Whether NCCL can move data on GPU `ordinal` of this process: loaded, and no communicator
// yet or the process's communicator is on that GPU (one GPU a process).
bool NcclCanServe(int ordinal);
// The process's communicator, made on first use (with cudaSetDevice(ordinal) done).
absl::StatusOr<NcclComm*> GetNcclComm(Comm& comm, int ordinal);

// Queued on `stream`; NCCL's own counts are size_t, so no piecing.
absl::Status NcclAllReduceSum(NcclComm* c, const void* send, void* recv, int64_t count,
                              DataType dtype, cudaStream_t stream);
absl::Status NcclBroadcast(NcclComm* c, void* buf, int64_t bytes, int root, cudaStream_t stream);
// Each rank's bytes, by one broadcast per rank in one group (NCCL's allgather needs equal
// counts).
absl::Status NcclAllGatherV(NcclComm* c, const void* send, const std::vector<int64_t>& bytes,
                            void* recv, cudaStream_t stream);
// Waits for `done` (recorded on the communicator's stream) until `deadline`, watching
// NCCL's asynchronous errors; past the deadline, or on an error, the communicator is
// aborted (so the GPU is not left waiting for a dead peer) and every later use fails.
absl::Status NcclWait(NcclComm* c, cudaEvent_t done, absl::Time deadline, const char* what);

}  // namespace rill::dist
