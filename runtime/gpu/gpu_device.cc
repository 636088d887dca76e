#include "rill/runtime/gpu/gpu_device.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace rill::gpu {
namespace {

class CudaMemory final : public DeviceMemory {
 public:
  explicit CudaMemory(int ordinal) : ordinal_(ordinal) {}
  void* Alloc(size_t bytes) override {
    void* p = nullptr;
    if (cudaSetDevice(ordinal_) != cudaSuccess || cudaMalloc(&p, bytes) != cudaSuccess) {
      (void)cudaGetLastError();  // clear the sticky-free error so later calls are unaffected
      return nullptr;
    }
    return p;
  }
  void Free(void* p) override { (void)cudaFree(p); }

 private:
  int ordinal_;
};

}  // namespace

std::unique_ptr<DeviceMemory> MakeCudaMemory(int ordinal) {
  return std::make_unique<CudaMemory>(ordinal);
}

namespace {

// Page-locked host memory: copies from and to it run as DMA without a bounce buffer, and
// an upload from it does not make the host wait.
class PinnedMemory final : public DeviceMemory {
 public:
  void* Alloc(size_t bytes) override {
    void* p = nullptr;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    return p;
  }
  void Free(void* p) override { (void)cudaFreeHost(p); }
};

// Two CUDA events around the work one kernel enqueues; read after the stream is synced.
class CudaEventTimer final : public DeviceTimer {
 public:
  explicit CudaEventTimer(cudaStream_t stream) : stream_(stream) {
    ok_ = cudaEventCreate(&start_) == cudaSuccess && cudaEventCreate(&stop_) == cudaSuccess &&
          cudaEventRecord(start_, stream_) == cudaSuccess;
  }
  ~CudaEventTimer() override {
    if (start_) (void)cudaEventDestroy(start_);
    if (stop_) (void)cudaEventDestroy(stop_);
  }
  void Stop() override { ok_ = ok_ && cudaEventRecord(stop_, stream_) == cudaSuccess; }
  absl::StatusOr<int64_t> ElapsedNs() override {
    float ms = 0;
    if (!ok_ || cudaEventElapsedTime(&ms, start_, stop_) != cudaSuccess) {
      (void)cudaGetLastError();
      return errors::Internal("CUDA event timing failed");
    }
    return static_cast<int64_t>(static_cast<double>(ms) * 1e6);
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  bool ok_ = false;
};

}  // namespace

std::unique_ptr<DeviceTimer> GpuDevice::StartTimer() {
  return std::make_unique<CudaEventTimer>(context_.stream);
}

GpuDevice::GpuDevice(int ordinal, GpuContext context)
    : Device(DEVICE_GPU, ordinal, nullptr),
      context_(context),
      allocator_(std::make_unique<CachingAllocator>(absl::StrCat("gpu_", ordinal),
                                                    std::make_unique<CudaMemory>(ordinal))),
      pinned_(std::make_unique<CachingAllocator>(absl::StrCat("gpu_", ordinal, "_pinned_host"),
                                                 std::make_unique<PinnedMemory>(),
                                                 /*on_host=*/true)),
      prefetch_memory_(std::make_unique<CachingAllocator>(
          absl::StrCat("gpu_", ordinal, "_prefetch"), std::make_unique<CudaMemory>(ordinal))) {}

std::optional<DeviceMemoryStats> GpuDevice::memory_stats() const {
  DeviceMemoryStats s{allocator_->GetStats(), pinned_->GetStats(), prefetch_memory_->GetStats()};
  std::lock_guard<std::mutex> lock(prefetch_mu_);
  s.prefetch_hits = prefetch_hits_;
  return s;
}

GpuDevice::~GpuDevice() {
  // Devices live for the process; at exit the driver may already be gone, so only
  // best-effort releases here.
  for (const GpuContext* c : {&context_, &capture_context_}) {
    if (c->cudnn) (void)cudnnDestroy(c->cudnn);
    if (c->cublas) (void)Cublas().Destroy(c->cublas);
  }
  if (capture_workspace_ != nullptr) (void)cudaFree(capture_workspace_);
}

// cuBLAS makes its workspace and loads its kernels on the first product (about 100 ms on
// an H100): one small product of each compute type here keeps that out of a user's first
// Run, in the device's start-up with the handles.
absl::Status WarmUpCublas(const GpuContext& c) {
  constexpr int kN = 64;
  float* buf = nullptr;
  RILL_CUDA_CHECK(cudaMalloc(&buf, 3 * kN * kN * sizeof(float)));
  (void)cudaMemsetAsync(buf, 0, 3 * kN * kN * sizeof(float), c.stream);
  const float one = 1, zero = 0;
  absl::Status st = absl::OkStatus();
  for (cublasComputeType_t type : {CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_32F_FAST_TF32}) {
    if (!st.ok()) break;
    st = CheckStatus(Cublas().GemmEx(c.cublas, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &one, buf,
                                     CUDA_R_32F, kN, buf + kN * kN, CUDA_R_32F, kN, &zero,
                                     buf + 2 * kN * kN, CUDA_R_32F, kN, type, CUBLAS_GEMM_DEFAULT),
                     "cublasGemmEx (warm-up)", __FILE__, __LINE__);
  }
  if (st.ok()) st = CheckStatus(cudaStreamSynchronize(c.stream), "sync", __FILE__, __LINE__);
  (void)cudaFree(buf);
  return st;
}

absl::StatusOr<std::shared_ptr<GpuDevice>> GpuDevice::Create(int ordinal) {
  GpuContext c;
  c.device = ordinal;
  RILL_CUDA_CHECK(cudaSetDevice(ordinal));
  RILL_CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
  RILL_CUDA_CHECK(cudaStreamCreateWithFlags(&c.copy_stream, cudaStreamNonBlocking));
  RILL_ASSIGN_OR_RETURN(const CublasApi* blas, LoadCublas());
  RILL_CUDA_CHECK(blas->Create(&c.cublas));
  RILL_CUDA_CHECK(blas->SetStream(c.cublas, c.stream));
  // Default math: no TF32 unless a kernel asks for it by compute type (SessionOptions).
  RILL_CUDA_CHECK(blas->SetMathMode(c.cublas, CUBLAS_DEFAULT_MATH));
  RILL_CUDA_CHECK(cudnnCreate(&c.cudnn));
  RILL_CUDA_CHECK(cudnnSetStream(c.cudnn, c.stream));
  RILL_RETURN_IF_ERROR(WarmUpCublas(c));
  return std::shared_ptr<GpuDevice>(new GpuDevice(ordinal, c));
}

// Uploads go through a pinned staging buffer: the host copies the source into it (so the
// source may be freed at once; a source already in pinned memory is used as it is, and
// kept) and the DMA runs on the stream without the host waiting; the buffer is released
// by the Sync that ends the step. Without pinned memory to spare,
// the upload reads the pageable source directly and waits for it.
// Only sources in this device's pinned memory (prepared there for the purpose): an upload
// from pageable memory would make the calling thread wait. At most a few are kept; an
// older one nobody asked for is dropped (its copy finishes on the copy stream, into
// memory that only later copies on that same stream reuse).
void GpuDevice::PrefetchFromHost(const Tensor& host) {
  if (!host.IsInitialized() || host.TotalBytes() == 0 || host.allocator() != pinned_.get()) return;
  Tensor device(prefetch_memory_.get(), host.dtype(), host.shape());
  if (!device.IsInitialized()) return;  // no memory to spare: the step copies as usual
  cudaEvent_t done = nullptr;
  if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) != cudaSuccess ||
      cudaMemcpyAsync(device.data(), host.data(), host.TotalBytes(), cudaMemcpyHostToDevice,
                      context_.copy_stream) != cudaSuccess ||
      cudaEventRecord(done, context_.copy_stream) != cudaSuccess) {
    (void)cudaGetLastError();
    if (done != nullptr) (void)cudaEventDestroy(done);
    return;
  }
  std::lock_guard<std::mutex> lock(prefetch_mu_);
  prefetched_.push_back({host, std::move(device), done});
  constexpr size_t kMaxPrefetched = 16;  // Keras prepares up to 7 batches (x and y) ahead
  while (prefetched_.size() > kMaxPrefetched) {
    (void)cudaEventDestroy(prefetched_.front().done);
    prefetched_.pop_front();
  }
}

absl::StatusOr<bool> GpuDevice::TakePrefetched(const Tensor& src, Tensor* dst) {
  Prefetched p;
  {
    std::lock_guard<std::mutex> lock(prefetch_mu_);
    auto it = std::find_if(prefetched_.begin(), prefetched_.end(), [&](const Prefetched& e) {
      return e.host.SharesBufferWith(src) && e.host.data() == src.data() &&
             e.host.dtype() == src.dtype() && e.host.shape() == src.shape();
    });
    if (it == prefetched_.end()) return false;
    p = std::move(*it);
    prefetched_.erase(it);
    ++prefetch_hits_;
  }
  const cudaError_t e = cudaStreamWaitEvent(context_.stream, p.done, 0);
  (void)cudaEventDestroy(p.done);
  RILL_CUDA_CHECK(e);
  *dst = p.device;
  // Neither is reused before the step's work is done: the pinned source may still be in
  // DMA when the step ends without waiting.
  std::lock_guard<std::mutex> lock(staging_mu_);
  staging_.push_back(std::move(p.device));
  staging_.push_back(std::move(p.host));
  return true;
}

absl::Status GpuDevice::CopyFromHost(const Tensor& src, Tensor* dst) {
  RILL_RETURN_IF_ERROR(RefuseWhileRecording("an upload from the host"));
  RILL_ASSIGN_OR_RETURN(const bool prefetched, TakePrefetched(src, dst));
  if (prefetched) return absl::OkStatus();
  RILL_ASSIGN_OR_RETURN(*dst, Tensor::Create(src.dtype(), src.shape(), allocator()));
  if (src.TotalBytes() == 0) return absl::OkStatus();
  // A source already in pinned memory (a batch prepared there) is its own staging buffer.
  Tensor staging =
      src.allocator() == pinned_.get() ? src : Tensor(pinned_.get(), src.dtype(), src.shape());
  if (staging.IsInitialized()) {
    if (staging.data() != src.data()) std::memcpy(staging.data(), src.data(), src.TotalBytes());
    RILL_CUDA_CHECK(cudaMemcpyAsync(dst->data(), staging.data(), src.TotalBytes(),
                                    cudaMemcpyHostToDevice, context_.stream));
    std::lock_guard<std::mutex> lock(staging_mu_);
    staging_.push_back(std::move(staging));
    return absl::OkStatus();
  }
  RILL_CUDA_CHECK(cudaMemcpyAsync(dst->data(), src.data(), src.TotalBytes(), cudaMemcpyHostToDevice,
                                  context_.stream));
  RILL_CUDA_CHECK(cudaStreamSynchronize(context_.stream));
  return absl::OkStatus();
}

// Downloads land in pinned host memory when there is some (the fetched tensor keeps it
// until released), else in ordinary host memory.
absl::Status GpuDevice::CopyToHost(const Tensor& src, Tensor* dst) {
  RILL_RETURN_IF_ERROR(RefuseWhileRecording("a download to the host"));
  Tensor pinned(pinned_.get(), src.dtype(), src.shape());
  if (pinned.IsInitialized()) {
    *dst = std::move(pinned);
  } else {
    RILL_ASSIGN_OR_RETURN(*dst, Tensor::Create(src.dtype(), src.shape()));
  }
  if (src.TotalBytes() == 0) return absl::OkStatus();
  RILL_CUDA_CHECK(cudaMemcpyAsync(dst->data(), src.data(), src.TotalBytes(), cudaMemcpyDeviceToHost,
                                  context_.stream));
  RILL_CUDA_CHECK(cudaStreamSynchronize(context_.stream));
  return absl::OkStatus();
}

// Into pinned memory only (a pageable destination would make the DMA synchronous anyway).
absl::Status GpuDevice::CopyToHostAsync(const Tensor& src, Tensor* dst) {
  RILL_RETURN_IF_ERROR(RefuseWhileRecording("a download to the host"));
  Tensor pinned(pinned_.get(), src.dtype(), src.shape());
  if (!pinned.IsInitialized()) return CopyToHost(src, dst);
  *dst = std::move(pinned);
  if (src.TotalBytes() == 0) return absl::OkStatus();
  RILL_CUDA_CHECK(cudaMemcpyAsync(dst->data(), src.data(), src.TotalBytes(), cudaMemcpyDeviceToHost,
                                  context_.stream));
  return absl::OkStatus();
}

// On the calling thread's stream: a kernel's copy is part of a step it records.
absl::Status GpuDevice::CopyOnDevice(const Tensor& src, Tensor* dst) {
  RILL_ASSIGN_OR_RETURN(*dst, Tensor::Create(src.dtype(), src.shape(), allocator()));
  return CopyInto(src, *dst);
}

absl::Status GpuDevice::Sync() {
  RILL_RETURN_IF_ERROR(RefuseWhileRecording("waiting for the device"));
  std::vector<Tensor> done;  // enqueued before this sync, so complete after it
  std::deque<QueuedStep> queued;
  {
    std::lock_guard<std::mutex> lock(staging_mu_);
    done.swap(staging_);
    queued.swap(queued_);
  }
  const cudaError_t e = cudaStreamSynchronize(context_.stream);
  if (!queued.empty()) {  // only after queued steps: a plain step's Sync locks once
    std::lock_guard<std::mutex> lock(staging_mu_);
    for (QueuedStep& q : queued) spare_events_.push_back(q.done);
  }
  RILL_CUDA_CHECK(e);
  return absl::OkStatus();
}

// The step's staged buffers go with an event recorded after its work; if the event
// cannot be recorded, the step waits as Sync does.
absl::Status GpuDevice::FinishStepAsync() {
  RILL_RETURN_IF_ERROR(RefuseWhileRecording("ending a step"));
  QueuedStep step;
  {
    std::lock_guard<std::mutex> lock(staging_mu_);
    step.held.swap(staging_);
    if (!spare_events_.empty()) {
      step.done = spare_events_.back();
      spare_events_.pop_back();
    }
  }
  cudaError_t e = cudaSuccess;
  if (step.done == nullptr) e = cudaEventCreateWithFlags(&step.done, cudaEventDisableTiming);
  if (e == cudaSuccess) e = cudaEventRecord(step.done, context_.stream);
  if (e != cudaSuccess) {
    if (step.done != nullptr) (void)cudaEventDestroy(step.done);
    {
      std::lock_guard<std::mutex> lock(staging_mu_);
      for (Tensor& t : step.held) staging_.push_back(std::move(t));
    }
    return Sync();
  }
  {
    std::lock_guard<std::mutex> lock(staging_mu_);
    queued_.push_back(std::move(step));
  }
  return ReleaseQueuedSteps();
}

absl::Status GpuDevice::ReleaseQueuedSteps() {
  constexpr size_t kMaxQueuedSteps = 2;
  for (;;) {
    QueuedStep oldest;
    {
      std::lock_guard<std::mutex> lock(staging_mu_);
      if (queued_.empty()) return absl::OkStatus();
      if (cudaEventQuery(queued_.front().done) == cudaErrorNotReady &&
          queued_.size() <= kMaxQueuedSteps) {
        return absl::OkStatus();
      }
      oldest = std::move(queued_.front());
      queued_.pop_front();
    }
    // At once when the step is done; else the host waits here for the oldest step.
    const cudaError_t e = cudaEventSynchronize(oldest.done);
    {
      std::lock_guard<std::mutex> lock(staging_mu_);
      spare_events_.push_back(oldest.done);
    }
    if (e != cudaSuccess) {
      return CudaError(e, "cudaEventSynchronize (the end of a step queued earlier)", __FILE__,
                       __LINE__);
    }
  }
}

namespace {

// Every GPU of the process, made once. Without a driver cudaGetDeviceCount fails
// ("driver version is insufficient"): any error there means no GPU.
const std::vector<std::shared_ptr<GpuDevice>>& AllGpus() {
  static const auto* gpus = [] {
    auto* v = new std::vector<std::shared_ptr<GpuDevice>>;
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();
      return v;
    }
    for (int i = 0; i < n; ++i) {
      auto d = GpuDevice::Create(i);
      if (d.ok()) {
        v->push_back(*d);
      } else {
        std::fprintf(stderr, "rill: GPU %d unusable, skipped: %s\n", i,
                     d.status().ToString().c_str());
      }
    }
    return v;
  }();
  return *gpus;
}

const bool kRegistered = [] {
  RegisterDeviceFactory([](DeviceSet* set) {
    for (const auto& g : AllGpus()) set->Add(g);
  });
  return true;
}();

}  // namespace
}  // namespace rill::gpu
