// A job of one process, and how a process learns whether it is one rank of a larger job.
#include <cstdlib>
#include <cstring>

#include "rill/core/status.h"
#include "rill/runtime/dist/comm.h"

namespace rill::dist {
namespace {

class LocalComm : public Comm {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  int local_size() const override { return 1; }
  std::string backend() const override { return "local (one process)"; }

  absl::Status AllGather(const void* send, int64_t bytes, void* recv) override {
    Copy(send, recv, bytes);
    return absl::OkStatus();
  }
  // A mean over one rank is its own term.
  absl::Status AllReduce(const void* send, void* recv, int64_t count, DataType dt,
                         bool /*mean*/) override {
    Copy(send, recv, count * DataTypeSize(dt));
    return absl::OkStatus();
  }
  absl::Status Broadcast(void*, int64_t, int) override { return absl::OkStatus(); }
  absl::Status AllGatherV(const void* send, const std::vector<int64_t>& bytes,
                          void* recv) override {
    Copy(send, recv, bytes[0]);
    return absl::OkStatus();
  }
  absl::Status Finalize() override { return absl::OkStatus(); }

 private:
  static void Copy(const void* from, void* to, int64_t bytes) {
    if (from != to && bytes > 0) std::memcpy(to, from, static_cast<size_t>(bytes));
  }
};

}  // namespace

std::unique_ptr<Comm> MakeLocalComm() { return std::make_unique<LocalComm>(); }

bool LaunchedAsRank() {
  // Open MPI's mpirun, and PMI/PMIx launchers (MPICH's hydra, Slurm's srun).
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(var) != nullptr) return true;
  }
  return false;
}

#if !RILL_WITH_MPI
bool ProgramStartedMpi() { return false; }

absl::StatusOr<std::unique_ptr<Comm>> MakeMpiComm() {
  return errors::Unimplemented(
      "this process was started as one rank of a job (mpirun), but this build of rill has no "
      "MPI: configure with -DRILL_MPI=ON (Debian: libopenmpi-dev) to train on several ranks");
}
#endif

}  // namespace rill::dist
