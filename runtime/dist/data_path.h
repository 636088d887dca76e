// How a collective's data moves between the ranks. Every rank first states what it is about
// to do (collectives.cc), always through the job's Comm in host memory; the data then goes
// through a DataPath: host memory through the Comm itself (HostPlace below), or a GPU's
// memory (runtime/dist/gpu/): NCCL on a stream of its own when every rank's data is on a GPU
// NCCL can reach, else staged through pinned host memory and the Comm.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/core/allocator.h"
#include "rill/core/types.h"
#include "rill/runtime/dist/comm.h"

namespace rill::dist {

// The data movement of one collective over buffers of one memory (the host's or a GPU's).
class DataPath {
 public:
  virtual ~DataPath() = default;
  // recv = the elementwise sum over ranks of send, or that sum / size (integers truncated);
  // send == recv: in place.
  virtual absl::Status AllReduce(const void* send, void* recv, int64_t count, DataType dtype,
                                 bool mean) = 0;
  // buf = root's buf on every rank.
  virtual absl::Status Broadcast(void* buf, int64_t bytes, int root) = 0;
  // recv = every rank's send, concatenated in rank order; rank r sends bytes[r]. send may
  // be this rank's own place in recv (in place).
  virtual absl::Status AllGatherV(const void* send, const std::vector<int64_t>& bytes,
                                  void* recv) = 0;
  // Local moves within this memory.
  virtual absl::Status Copy(void* dst, const void* src, int64_t bytes) = 0;
  virtual absl::Status Zero(void* dst, int64_t bytes) = 0;
  // Where values made by the collective (an allgather's output, temporaries) live.
  virtual Allocator* allocator() = 0;
  // Returns once everything queued is in place (a GPU path waits for its stream).
  virtual absl::Status Finish() = 0;
};

// What a rank says of its data before a collective: whether NCCL can reach it, and on which
// GPU of which machine (two ranks on one GPU cannot both join an NCCL communicator).
struct NcclReach {
  bool able = false;
  uint64_t node = 0;  // a hash of the host's name
  int32_t gpu = -1;   // the device ordinal
};

// Where this rank's data lives. Choose picks the path once every rank has stated its reach:
// `nccl` is true when every rank can use NCCL, each on a GPU of its own (the same answer on
// every rank, so all of them take the same path).
class DataPlace {
 public:
  virtual ~DataPlace() = default;
  virtual NcclReach reach() const { return {}; }
  virtual absl::StatusOr<DataPath*> Choose(Comm& comm, bool nccl) = 0;
};

// Counts a collective's data path for dist::CollectivePaths: 0 host memory, 1 GPU memory
// staged through the host, 2 NCCL, 3 a replica update by rows, 4 one in shared memory
// (collectives.h).
void CountPath(int path);

// recv = the sum (or mean) over ranks of send, in host memory, through `comm`.
absl::Status HostAllReduce(Comm& comm, const void* send, void* recv, int64_t count, DataType dtype,
                           bool mean);

// Host memory, moved by the Comm.
class HostPlace final : public DataPlace, private DataPath {
 public:
  absl::StatusOr<DataPath*> Choose(Comm& comm, bool /*nccl*/) override {
    comm_ = &comm;
    CountPath(0);
    return static_cast<DataPath*>(this);
  }

 private:
  absl::Status AllReduce(const void* send, void* recv, int64_t count, DataType dtype,
                         bool mean) override {
    return HostAllReduce(*comm_, send, recv, count, dtype, mean);
  }
  absl::Status Broadcast(void* buf, int64_t bytes, int root) override {
    return comm_->Broadcast(buf, bytes, root);
  }
  absl::Status AllGatherV(const void* send, const std::vector<int64_t>& bytes,
                          void* recv) override {
    return comm_->AllGatherV(send, bytes, recv);
  }
  absl::Status Copy(void* dst, const void* src, int64_t bytes) override;
  absl::Status Zero(void* dst, int64_t bytes) override;
  Allocator* allocator() override { return cpu_allocator(); }
  absl::Status Finish() override { return absl::OkStatus(); }

  Comm* comm_ = nullptr;
};

}  // namespace rill::dist
