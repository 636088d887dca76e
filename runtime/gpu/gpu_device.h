// The CUDA GPU device: one stream, cuBLAS and cuDNN handles made with the device (not in
// the first run), a caching allocator over cudaMalloc that grows on demand, and copies
// to and from the host staged through pinned host memory (a second caching allocator
// over cudaHostAlloc). Every kernel of the device is enqueued on its stream in
// dependency order; the host waits only when a value must come back. A second stream
// uploads the next training batch while the current step runs (PrefetchFromHost). A
// step may end without waiting for the stream (FinishStepAsync): the host then queues
// the next one while the GPU finishes it.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "rill/kernels/cuda/gpu_context.h"
#include "rill/runtime/caching_allocator.h"
#include "rill/runtime/device.h"

namespace rill::gpu {

class GpuDevice final : public Device {
 public:
  // InternalError (naming the failing call) when the stream or a handle cannot be made.
  static absl::StatusOr<std::shared_ptr<GpuDevice>> Create(int ordinal);
  ~GpuDevice() override;

  // While this thread records a step (BeginCapture), its kernels get the recording's
  // stream, handles and memory pool; every other thread gets the device's own.
  Allocator* allocator() const override {
    return Recording() ? capture_pool_.get() : allocator_.get();
  }
  GpuContext* gpu_context() const override {
    return const_cast<GpuContext*>(Recording() ? &capture_context_ : &context_);
  }
  Allocator* host_staging_allocator() const override { return pinned_.get(); }
  void PrefetchFromHost(const Tensor& host) override;
  absl::Status CopyFromHost(const Tensor& src, Tensor* dst) override;
  absl::Status CopyToHost(const Tensor& src, Tensor* dst) override;
  absl::Status CopyToHostAsync(const Tensor& src, Tensor* dst) override;
  absl::Status CopyOnDevice(const Tensor& src, Tensor* dst) override;
  absl::Status Sync() override;
  absl::Status FinishStepAsync() override;
  std::unique_ptr<DeviceTimer> StartTimer() override;

  std::optional<DeviceMemoryStats> memory_stats() const override;

  // CUDA graphs (runtime/gpu/gpu_capture.cc): steps recorded on a stream of their own.
  bool CanCapture() const override { return true; }
  absl::Status BeginCapture() override;
  absl::StatusOr<std::unique_ptr<DeviceGraph>> EndCapture() override;
  absl::Status CopyInto(const Tensor& src, const Tensor& dst) override;
  absl::StatusOr<const uint64_t*> ReplayCounter(std::function<uint64_t()> next) override;

 private:
  bool Recording() const {
    return capturing_.load(std::memory_order_acquire) &&
           capture_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id();
  }
  // The recording's stream and handles, made by the first BeginCapture.
  absl::Status MakeCaptureContext();
  // A recording's pool when it goes: kept while some of its memory is still held.
  void Retire(std::shared_ptr<CachingAllocator> pool);
  // What would make the host wait for the device fails while this thread records.
  absl::Status RefuseWhileRecording(const char* what) const;

  GpuDevice(int ordinal, GpuContext context);
  GpuContext context_;
  std::unique_ptr<CachingAllocator> allocator_;
  // Fetched tensors live here (the host reads them at DMA speed); feeds are staged here.
  std::unique_ptr<CachingAllocator> pinned_;
  // Staging buffers of uploads still in flight; released by the next Sync, or handed to
  // the step that FinishStepAsync queues.
  std::mutex staging_mu_;
  std::vector<Tensor> staging_;
  // Steps ended without waiting, oldest first: an event recorded on the stream at each
  // one's end, and the buffers its queued work still reads (under staging_mu_).
  struct QueuedStep {
    cudaEvent_t done = nullptr;
    std::vector<Tensor> held;
  };
  std::deque<QueuedStep> queued_;
  std::vector<cudaEvent_t> spare_events_;
  // Releases the queued steps that are done; waits for the oldest while more than a few
  // are queued (so the host runs at most that far ahead of the GPU).
  absl::Status ReleaseQueuedSteps();
  // Uploads started ahead on the copy stream, into memory of their own (the compute
  // stream's allocator may hand out blocks that queued kernels still read); each waits
  // for the CopyFromHost of its source. A used one is kept until the next Sync.
  struct Prefetched {
    Tensor host, device;
    cudaEvent_t done = nullptr;
  };
  std::unique_ptr<CachingAllocator> prefetch_memory_;
  mutable std::mutex prefetch_mu_;
  std::deque<Prefetched> prefetched_;
  int64_t prefetch_hits_ = 0;
  // Looks for an upload of `src` started ahead; on a hit the stream waits for it.
  absl::StatusOr<bool> TakePrefetched(const Tensor& src, Tensor* dst);

  // Recording: one at a time (capture_mu_ is held from BeginCapture to EndCapture).
  std::mutex capture_mu_;
  std::atomic<bool> capturing_{false};
  std::atomic<std::thread::id> capture_thread_;
  GpuContext capture_context_;
  void* capture_workspace_ = nullptr;  // cuBLAS's, fixed before any recording
  std::shared_ptr<CachingAllocator> capture_pool_;
  // The recording's counters (ReplayCounter): device memory of its pool, and what each
  // is set to before every launch.
  Tensor capture_counters_;
  std::vector<std::function<uint64_t()>> capture_counter_fns_;
  // Pools of graphs gone whose memory is still held (a variable's buffer made during a
  // recording): kept, so that memory stays valid.
  std::mutex retired_mu_;
  std::vector<std::shared_ptr<CachingAllocator>> retired_pools_;
  friend class CudaStepGraph;
};

// Device memory through cudaMalloc on GPU `ordinal`: the backend of its caching allocators.
std::unique_ptr<DeviceMemory> MakeCudaMemory(int ordinal);

// One small product of each compute type on `c`'s handle and stream, then a sync: cuBLAS
// loads its kernels there instead of in a step (or a recording).
absl::Status WarmUpCublas(const GpuContext& c);

}  // namespace rill::gpu
