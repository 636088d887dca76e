// The CUDA GPU device: one stream, cuBLAS and cuDNN handles made with the device (not in
// the first run), a caching allocator over cudaMalloc that grows on demand, and copies
// to and from the host staged through pinned host memory (a second caching allocator
// over cudaHostAlloc). Every kernel of the device is enqueued on its stream in
// dependency order; the host waits only when a value must come back. A second stream
// uploads the next training batch while the current step runs (PrefetchFromHost). A
// step may end without waiting for the stream (FinishStepAsync): the host then queues
// the next one while the GPU finishes it.
#pragma once

#include <deque>
#include <mutex>
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

  Allocator* allocator() const override { return allocator_.get(); }
  GpuContext* gpu_context() const override { return const_cast<GpuContext*>(&context_); }
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

 private:
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
};

}  // namespace rill::gpu
