// Memory that every rank of a job on one host maps: POSIX shared memory, made by rank 0
// and opened by the others. The replica update (replica_update.cc) keeps one copy of a
// weight there for all the host's ranks, so the rows each rank updates need no gather.
#pragma once

#include "absl/status/statusor.h"
#include "rill/core/tensor.h"
#include "rill/runtime/dist/comm.h"

namespace rill::dist {

// A collective: every rank gets a Tensor of `dtype` and `shape` over the same memory
// (zeros at first), or every rank gets an error (Unavailable) when one could not map it:
// ranks on other hosts, /dev/shm full (its pages are reserved up front, so a full
// /dev/shm is this error, never a SIGBUS later). The name is gone from /dev/shm when this
// returns; each rank's mapping lasts until the last Tensor over it lets go.
// A rank that passes `able` false maps nothing and makes every rank's answer that error.
absl::StatusOr<Tensor> MapNodeSegment(Comm& comm, DataType dtype, const TensorShape& shape,
                                      bool able = true);

// Every rank has reached this point: writes to shared memory made before it are seen by
// every rank after it (an allgather of one int, as MPI's barrier).
absl::Status NodeBarrier(Comm& comm);

}  // namespace rill::dist
