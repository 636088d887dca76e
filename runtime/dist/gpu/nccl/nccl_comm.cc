#include "rill/runtime/dist/gpu/nccl/nccl_comm.h"

#include <nccl.h>

#include <atomic>
#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "rill/core/dso_loader.h"
#include "rill/core/status.h"

namespace rill::dist {

class NcclComm {
 public:
  ncclComm_t comm = nullptr;
  int ordinal = 0;
  std::atomic<bool> aborted{false};
};

namespace {

// NCCL is loaded when first needed, not linked: a program that never moves GPU tensors
// between ranks does not map its 200 MB, and a machine without it still runs everything
// (the collectives then stage GPU tensors through the host).
struct NcclApi {
  decltype(&ncclGetErrorString) GetErrorString = nullptr;
  decltype(&ncclGetUniqueId) GetUniqueId = nullptr;
  decltype(&ncclCommInitRank) CommInitRank = nullptr;
  decltype(&ncclCommUserRank) CommUserRank = nullptr;
  decltype(&ncclCommGetAsyncError) CommGetAsyncError = nullptr;
  decltype(&ncclCommAbort) CommAbort = nullptr;
  decltype(&ncclAllReduce) AllReduce = nullptr;
  decltype(&ncclBroadcast) Broadcast = nullptr;
  decltype(&ncclGroupStart) GroupStart = nullptr;
  decltype(&ncclGroupEnd) GroupEnd = nullptr;
};

constexpr const char* kLibrary = "libnccl.so.2";

absl::StatusOr<const NcclApi*> Load() {
  RILL_ASSIGN_OR_RETURN(void* lib, dso::Open(kLibrary));
  auto a = std::make_unique<NcclApi>();
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclGetErrorString", &a->GetErrorString));
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclGetUniqueId", &a->GetUniqueId));
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclCommInitRank", &a->CommInitRank));
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclCommUserRank", &a->CommUserRank));
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclCommGetAsyncError", &a->CommGetAsyncError));
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclCommAbort", &a->CommAbort));
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclAllReduce", &a->AllReduce));
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclBroadcast", &a->Broadcast));
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclGroupStart", &a->GroupStart));
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, "ncclGroupEnd", &a->GroupEnd));
  return a.release();  // kept for the process's life, as the library
}

// The loaded library's functions, or null when libnccl.so.2 (or one of them) is missing.
const NcclApi* Api() {
  static const NcclApi* api = []() -> const NcclApi* {
    absl::StatusOr<const NcclApi*> loaded = Load();
    return loaded.ok() ? *loaded : nullptr;
  }();
  return api;
}

absl::Status Check(ncclResult_t rc, const char* call) {
  if (rc == ncclSuccess) return absl::OkStatus();
  return errors::Internal(call, " failed: ", Api()->GetErrorString(rc),
                          " (NCCL_DEBUG=WARN says more)");
}

#define RILL_NCCL_CHECK(call) RILL_RETURN_IF_ERROR(Check((call), #call))

absl::StatusOr<ncclDataType_t> NcclType(DataType dt) {
  switch (dt) {
    case DT_FLOAT:
      return ncclFloat32;
    case DT_DOUBLE:
      return ncclFloat64;
    case DT_INT32:
      return ncclInt32;
    case DT_INT64:
      return ncclInt64;
    case DT_UINT8:
      return ncclUint8;
    case DT_INT8:
      return ncclInt8;
    case DT_UINT32:
      return ncclUint32;
    case DT_UINT64:
      return ncclUint64;
    default:  // int16 and uint16: NCCL has no such type (the host path sums them)
      return errors::InvalidArgument("no NCCL sum for ", DataTypeString(dt));
  }
}

std::mutex& CommMutex() {
  static std::mutex mu;
  return mu;
}
// Never destroyed: a collective may be queued until the process exits, and destroying a
// communicator at static destruction races with the CUDA runtime's own teardown.
NcclComm* g_comm = nullptr;

absl::Status Usable(NcclComm* c) {
  if (!c->aborted.load()) return absl::OkStatus();
  return errors::FailedPrecondition(
      "the NCCL communicator was aborted after an earlier collective failed or timed out");
}

}  // namespace

bool NcclLoaded() { return Api() != nullptr; }

bool NcclCanServe(int ordinal) {
  if (!NcclLoaded()) return false;
  std::lock_guard<std::mutex> lock(CommMutex());
  return g_comm == nullptr || g_comm->ordinal == ordinal;
}

absl::StatusOr<NcclComm*> GetNcclComm(Comm& comm, int ordinal) {
  if (!NcclLoaded()) return errors::FailedPrecondition("libnccl.so.2 could not be loaded");
  std::lock_guard<std::mutex> lock(CommMutex());
  if (g_comm != nullptr) {
    if (g_comm->ordinal != ordinal) {
      return errors::Internal("the NCCL communicator is on GPU ", g_comm->ordinal, ", not ",
                              ordinal);
    }
    return g_comm;
  }
  ncclUniqueId id;
  if (comm.rank() == 0) RILL_NCCL_CHECK(Api()->GetUniqueId(&id));
  RILL_RETURN_IF_ERROR(comm.Broadcast(&id, sizeof(id), 0));
  auto made = std::make_unique<NcclComm>();
  made->ordinal = ordinal;
  RILL_NCCL_CHECK(Api()->CommInitRank(&made->comm, comm.size(), id, comm.rank()));
  g_comm = made.release();
  return g_comm;
}

absl::Status NcclAllReduceSum(NcclComm* c, const void* send, void* recv, int64_t count,
                              DataType dtype, cudaStream_t stream) {
  RILL_RETURN_IF_ERROR(Usable(c));
  RILL_ASSIGN_OR_RETURN(ncclDataType_t type, NcclType(dtype));
  if (count == 0) return absl::OkStatus();
  RILL_NCCL_CHECK(
      Api()->AllReduce(send, recv, static_cast<size_t>(count), type, ncclSum, c->comm, stream));
  return absl::OkStatus();
}

absl::Status NcclBroadcast(NcclComm* c, void* buf, int64_t bytes, int root, cudaStream_t stream) {
  RILL_RETURN_IF_ERROR(Usable(c));
  if (bytes == 0) return absl::OkStatus();
  RILL_NCCL_CHECK(
      Api()->Broadcast(buf, buf, static_cast<size_t>(bytes), ncclUint8, root, c->comm, stream));
  return absl::OkStatus();
}

absl::Status NcclAllGatherV(NcclComm* c, const void* send, const std::vector<int64_t>& bytes,
                            void* recv, cudaStream_t stream) {
  RILL_RETURN_IF_ERROR(Usable(c));
  int rank = 0;
  RILL_NCCL_CHECK(Api()->CommUserRank(c->comm, &rank));
  RILL_NCCL_CHECK(Api()->GroupStart());
  absl::Status st;
  int64_t offset = 0;
  for (size_t r = 0; r < bytes.size() && st.ok(); ++r) {
    char* into = static_cast<char*>(recv) + offset;
    offset += bytes[r];
    // Every rank knows every count (from the statements), so all skip the same empty ones.
    if (bytes[r] == 0) continue;
    const void* from = static_cast<int>(r) == rank ? send : into;
    st = Check(Api()->Broadcast(from, into, static_cast<size_t>(bytes[r]), ncclUint8,
                                static_cast<int>(r), c->comm, stream),
               "ncclBroadcast");
  }
  // The group is closed whatever happened inside it.
  const absl::Status end = Check(Api()->GroupEnd(), "ncclGroupEnd");
  return st.ok() ? end : st;
}

absl::Status NcclWait(NcclComm* c, cudaEvent_t done, absl::Time deadline, const char* what) {
  for (int polls = 0;; ++polls) {
    const cudaError_t q = cudaEventQuery(done);
    if (q == cudaSuccess) return absl::OkStatus();
    if (q != cudaErrorNotReady) {
      return errors::Internal(what, ": waiting for NCCL: ", cudaGetErrorString(q));
    }
    ncclResult_t async = ncclSuccess;
    absl::Status st = Check(Api()->CommGetAsyncError(c->comm, &async), "ncclCommGetAsyncError");
    if (st.ok() && async != ncclSuccess && async != ncclInProgress) {
      st = Check(async, "an NCCL collective");
    }
    if (st.ok() && absl::Now() > deadline) {
      st = errors::DeadlineExceeded(what, ": NCCL did not complete before the collective timeout");
    }
    if (!st.ok()) {
      // Aborting frees the GPU from kernels that wait for a dead peer; the communicator
      // cannot be used again.
      if (!c->aborted.exchange(true)) Api()->CommAbort(c->comm);
      return st;
    }
    // Short collectives finish within the first polls; longer ones are not worth a core.
    if (polls > 200) absl::SleepFor(absl::Microseconds(50));
  }
}

}  // namespace rill::dist
