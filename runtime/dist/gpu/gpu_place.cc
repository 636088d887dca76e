// The collectives' data in a GPU's memory. The kernel's thread records an event on the
// device's stream (`ready`: the inputs and the output's memory are queued up to there); the
// engine's thread runs the collective on a stream of its own that waits for it, so compute
// queued after the kernel (the rest of the backward pass) overlaps the transfer, and the
// collective ends (Finish) when that stream is done: its consumers, queued after `done`,
// see the data. Two paths:
//  - NCCL (built with NCCL, every rank on a GPU of its own): device to device;
//  - staged: device -> pinned host buffer -> the Comm (MPI) -> device, for ranks that share
//    a GPU (NCCL refuses two ranks on one device) or a build without NCCL.
#include "rill/runtime/dist/gpu_place.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <variant>

#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"
#include "rill/runtime/dist/dist.h"
#include "rill/runtime/dist/world.h"
#if RILL_WITH_NCCL
#include "rill/runtime/dist/gpu/nccl/nccl_comm.h"
#endif

namespace rill::dist {
namespace {

// FNV-1a of the host's name: ranks on one machine state the same value.
uint64_t HostHash() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  uint64_t h = 1469598103934665603ull;
  for (const char* p = name; *p != '\0'; ++p) {
    h ^= static_cast<unsigned char>(*p);
    h *= 1099511628211ull;
  }
  return h;
}

// What the engine's thread keeps per GPU: its stream, an event marking the end of each
// collective, and pinned host buffers for the staged path (grown on demand). Only the
// engine's thread uses them, one collective at a time; they live as long as the process.
struct GpuState {
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  void* pinned[2] = {nullptr, nullptr};
  size_t pinned_bytes[2] = {0, 0};
  void* divisor = nullptr;  // 8 device bytes: the rank count, as the reduced dtype
};

absl::StatusOr<GpuState*> StateOf(int ordinal) {
  static std::mutex mu;
  static std::map<int, GpuState>* states = new std::map<int, GpuState>();
  std::lock_guard<std::mutex> lock(mu);
  auto [it, made] = states->try_emplace(ordinal);
  GpuState& s = it->second;
  if (made || s.stream == nullptr) {
    RILL_CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
    RILL_CUDA_CHECK(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
    RILL_CUDA_CHECK(cudaMalloc(&s.divisor, 8));
  }
  return &s;
}

absl::StatusOr<void*> Pinned(GpuState* s, int which, int64_t bytes) {
  const size_t want = static_cast<size_t>(std::max<int64_t>(bytes, 1));
  if (s->pinned_bytes[which] < want) {
    if (s->pinned[which] != nullptr) RILL_CUDA_CHECK(cudaFreeHost(s->pinned[which]));
    s->pinned[which] = nullptr;
    s->pinned_bytes[which] = 0;
    if (cudaMallocHost(&s->pinned[which], want) != cudaSuccess) {
      (void)cudaGetLastError();
      return errors::ResourceExhausted("cannot allocate ", want,
                                       " bytes of pinned host memory to stage a collective");
    }
    s->pinned_bytes[which] = want;
  }
  return s->pinned[which];
}

// What both paths share: local moves on the collective's stream, and the end.
class GpuPath : public DataPath {
 public:
  GpuPath(Comm& comm, gpu::GpuContext* g, Allocator* allocator, GpuState* s)
      : comm_(comm), g_(g), allocator_(allocator), s_(s) {}
  absl::Status Copy(void* dst, const void* src, int64_t bytes) override {
    RILL_RETURN_IF_ERROR(Fenced());
    if (bytes > 0 && dst != src) {
      RILL_CUDA_CHECK(cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes),
                                      cudaMemcpyDeviceToDevice, s_->stream));
    }
    return absl::OkStatus();
  }
  absl::Status Zero(void* dst, int64_t bytes) override {
    RILL_RETURN_IF_ERROR(Fenced());
    if (bytes > 0) RILL_CUDA_CHECK(cudaMemsetAsync(dst, 0, static_cast<size_t>(bytes), s_->stream));
    return absl::OkStatus();
  }
  // What is allocated here, on the engine's thread (an allgather's output, a temporary),
  // may be memory that work queued on the device's stream after the kernel ran still
  // reads: the next write waits for everything queued there by then (Fenced).
  Allocator* allocator() override {
    fence_ = true;
    return allocator_;
  }
  absl::Status Finish() override {
    RILL_CUDA_CHECK(cudaStreamSynchronize(s_->stream));
    return absl::OkStatus();
  }

 protected:
  // Called before every write: after an allocation here, the collective's stream also
  // waits for what the device's stream holds now.
  absl::Status Fenced() {
    if (!fence_) return absl::OkStatus();
    fence_ = false;
    RILL_CUDA_CHECK(cudaEventRecord(s_->done, g_->stream));
    RILL_CUDA_CHECK(cudaStreamWaitEvent(s_->stream, s_->done, 0));
    return absl::OkStatus();
  }
  Comm& comm_;
  gpu::GpuContext* g_;
  Allocator* allocator_;
  GpuState* s_;
  bool fence_ = false;
};

class StagedPath final : public GpuPath {
 public:
  using GpuPath::GpuPath;
  absl::Status AllReduce(const void* send, void* recv, int64_t count, DataType dtype,
                         bool mean) override {
    const int64_t bytes = count * DataTypeSize(dtype);
    RILL_ASSIGN_OR_RETURN(void* host, Down(send, bytes, 0));
    RILL_RETURN_IF_ERROR(HostAllReduce(comm_, host, host, count, dtype, mean));
    return Up(recv, host, bytes);
  }
  absl::Status Broadcast(void* buf, int64_t bytes, int root) override {
    RILL_ASSIGN_OR_RETURN(void* host, Down(buf, bytes, 0));
    RILL_RETURN_IF_ERROR(comm_.Broadcast(host, bytes, root));
    return Up(buf, host, bytes);
  }
  absl::Status AllGatherV(const void* send, const std::vector<int64_t>& bytes,
                          void* recv) override {
    int64_t total = 0;
    for (int64_t b : bytes) total += b;
    RILL_ASSIGN_OR_RETURN(void* host_in, Down(send, bytes[comm_.rank()], 0));
    RILL_ASSIGN_OR_RETURN(void* host_out, Pinned(s_, 1, total));
    RILL_RETURN_IF_ERROR(comm_.AllGatherV(host_in, bytes, host_out));
    return Up(recv, host_out, total);
  }

 private:
  // The device bytes in pinned buffer `which`, waited for (the Comm reads them next).
  absl::StatusOr<void*> Down(const void* device, int64_t bytes, int which) {
    RILL_ASSIGN_OR_RETURN(void* host, Pinned(s_, which, bytes));
    if (bytes > 0) {
      RILL_CUDA_CHECK(cudaMemcpyAsync(host, device, static_cast<size_t>(bytes),
                                      cudaMemcpyDeviceToHost, s_->stream));
    }
    RILL_CUDA_CHECK(cudaStreamSynchronize(s_->stream));
    return host;
  }
  absl::Status Up(void* device, const void* host, int64_t bytes) {
    RILL_RETURN_IF_ERROR(Fenced());
    if (bytes > 0) {
      RILL_CUDA_CHECK(cudaMemcpyAsync(device, host, static_cast<size_t>(bytes),
                                      cudaMemcpyHostToDevice, s_->stream));
    }
    return absl::OkStatus();
  }
};

#if RILL_WITH_NCCL
// out /= size on the collective's stream, as the host divides (integers truncated).
template <typename T>
absl::Status DivideOnDevice(GpuState* s, void* data, int64_t count, int size) {
  const T value = static_cast<T>(size);
  RILL_CUDA_CHECK(
      cudaMemcpyAsync(s->divisor, &value, sizeof(T), cudaMemcpyHostToDevice, s->stream));
  BroadcastPlan plan;
  plan.rank = 1;
  plan.dims[0] = count;
  plan.a_strides[0] = 1;
  plan.b_strides[0] = 0;
  T* p = static_cast<T*>(data);
  RILL_CUDA_CHECK(gpu::LaunchBinary<T>(gpu::BinaryKind::kDiv, p, static_cast<const T*>(s->divisor),
                                       p, count, plan, s->stream));
  return absl::OkStatus();
}

class NcclPath final : public GpuPath {
 public:
  NcclPath(Comm& comm, gpu::GpuContext* g, Allocator* allocator, GpuState* s, NcclComm* nccl)
      : GpuPath(comm, g, allocator, s), nccl_(nccl) {}
  absl::Status AllReduce(const void* send, void* recv, int64_t count, DataType dtype,
                         bool mean) override {
    RILL_RETURN_IF_ERROR(Fenced());
    RILL_RETURN_IF_ERROR(NcclAllReduceSum(nccl_, send, recv, count, dtype, s_->stream));
    if (!mean || comm_.size() == 1 || count == 0) return absl::OkStatus();
    switch (dtype) {
      case DT_FLOAT:
        return DivideOnDevice<float>(s_, recv, count, comm_.size());
      case DT_DOUBLE:
        return DivideOnDevice<double>(s_, recv, count, comm_.size());
      case DT_INT32:
        return DivideOnDevice<int32_t>(s_, recv, count, comm_.size());
      case DT_INT64:
        return DivideOnDevice<int64_t>(s_, recv, count, comm_.size());
      case DT_UINT8:
        return DivideOnDevice<uint8_t>(s_, recv, count, comm_.size());
      default:
        return errors::InvalidArgument("no mean of ", DataTypeString(dtype));
    }
  }
  absl::Status Broadcast(void* buf, int64_t bytes, int root) override {
    RILL_RETURN_IF_ERROR(Fenced());
    return NcclBroadcast(nccl_, buf, bytes, root, s_->stream);
  }
  absl::Status AllGatherV(const void* send, const std::vector<int64_t>& bytes,
                          void* recv) override {
    RILL_RETURN_IF_ERROR(Fenced());
    return NcclAllGatherV(nccl_, send, bytes, recv, s_->stream);
  }
  // Waits with the collective timeout, aborting NCCL past it (a dead peer would otherwise
  // leave its kernels spinning on the GPU).
  absl::Status Finish() override {
    RILL_CUDA_CHECK(cudaEventRecord(s_->done, s_->stream));
    Engine* engine = GetEngine();
    const absl::Time deadline =
        absl::Now() + (engine != nullptr ? engine->timeout() : absl::Minutes(3));
    return NcclWait(nccl_, s_->done, deadline, "a collective");
  }

 private:
  NcclComm* nccl_;
};
#endif

class GpuPlace final : public DataPlace {
 public:
  GpuPlace(gpu::GpuContext* g, Allocator* allocator, cudaEvent_t ready)
      : g_(g), allocator_(allocator), ready_(ready) {}
  ~GpuPlace() override { cudaEventDestroy(ready_); }

  NcclReach reach() const override {
    NcclReach r;
#if RILL_WITH_NCCL
    r.able = NcclEnabled() && NcclCanServe(g_->device);
#endif
    static const uint64_t host = HostHash();  // once: a system call
    r.node = host;
    r.gpu = g_->device;
    return r;
  }

  absl::StatusOr<DataPath*> Choose(Comm& comm, bool nccl) override {
    RILL_CUDA_CHECK(cudaSetDevice(g_->device));
    RILL_ASSIGN_OR_RETURN(GpuState * s, StateOf(g_->device));
    RILL_CUDA_CHECK(cudaStreamWaitEvent(s->stream, ready_, 0));
#if RILL_WITH_NCCL
    if (nccl) {
      RILL_ASSIGN_OR_RETURN(NcclComm * c, GetNcclComm(comm, g_->device));
      CountPath(2);
      return &path_.emplace<NcclPath>(comm, g_, allocator_, s, c);
    }
#else
    (void)nccl;  // never true: this rank stated that NCCL cannot reach its data
#endif
    CountPath(1);
    return &path_.emplace<StagedPath>(comm, g_, allocator_, s);
  }

 private:
  gpu::GpuContext* g_;
  Allocator* allocator_;
  cudaEvent_t ready_;
#if RILL_WITH_NCCL
  std::variant<std::monostate, StagedPath, NcclPath> path_;
#else
  std::variant<std::monostate, StagedPath> path_;
#endif
};

}  // namespace

absl::StatusOr<std::shared_ptr<DataPlace>> MakeGpuPlace(OpKernelContext& ctx) {
  gpu::GpuContext* g = gpu::ContextOf(ctx);
  RILL_CUDA_CHECK(cudaSetDevice(g->device));  // the event belongs to the stream's device
  cudaEvent_t ready = nullptr;
  RILL_CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
  const cudaError_t rc = cudaEventRecord(ready, g->stream);
  if (rc != cudaSuccess) {
    cudaEventDestroy(ready);
    RILL_CUDA_CHECK(rc);
  }
  return std::make_shared<GpuPlace>(g, ctx.device()->allocator(), ready);
}

}  // namespace rill::dist
