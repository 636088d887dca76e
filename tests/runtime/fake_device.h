// A fake accelerator for placer, copy and allocator tests on machines without a GPU. Its
// memory is host memory behind a CachingAllocator, marked as not on the host, so every
// crossing must go through CopyFromHost/CopyToHost, which are counted. The CPU kernels of
// a few ops are registered for it (they can read its memory, being host code).
#pragma once

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "rill/runtime/caching_allocator.h"
#include "rill/runtime/device.h"

namespace rill::testing {

inline constexpr char kFakeGpu[] = "FAKE_GPU";

class FakeMemory : public DeviceMemory {
 public:
  explicit FakeMemory(size_t limit) : limit_(limit) {}
  void* Alloc(size_t bytes) override {
    if (used_ + bytes > limit_) return nullptr;
    used_ += bytes;
    void* p = std::aligned_alloc(512, bytes);
    sizes_[p] = bytes;
    return p;
  }
  void Free(void* p) override {
    used_ -= sizes_[p];
    sizes_.erase(p);
    std::free(p);
  }

 private:
  size_t limit_, used_ = 0;
  absl::flat_hash_map<void*, size_t> sizes_;
};

class FakeGpuDevice : public Device {
 public:
  FakeGpuDevice(int id, size_t memory_limit)
      : Device(kFakeGpu, id, nullptr),
        alloc_("fake_gpu", std::make_unique<FakeMemory>(memory_limit)) {}
  Allocator* allocator() const override { return const_cast<CachingAllocator*>(&alloc_); }
  absl::Status CopyFromHost(const Tensor& src, Tensor* dst) override {
    RILL_ASSIGN_OR_RETURN(*dst, Tensor::Create(src.dtype(), src.shape(), allocator()));
    std::memcpy(dst->data(), src.data(), src.TotalBytes());
    ++to_device;
    return absl::OkStatus();
  }
  absl::Status CopyToHost(const Tensor& src, Tensor* dst) override {
    RILL_ASSIGN_OR_RETURN(*dst, Tensor::Create(src.dtype(), src.shape()));
    std::memcpy(dst->data(), src.data(), src.TotalBytes());
    ++to_host;
    return absl::OkStatus();
  }
  absl::Status CopyToHostAsync(const Tensor& src, Tensor* dst) override {
    ++to_host_until_sync;
    return CopyToHost(src, dst);
  }
  CachingAllocator& caching_allocator() { return alloc_; }

  // to_host_until_sync: those of to_host that were allowed to finish by the step's Sync.
  std::atomic<int> to_device{0}, to_host{0}, to_host_until_sync{0};

 private:
  CachingAllocator alloc_;
};

// Registers the float (or dtype-agnostic) CPU kernels of `ops` for the fake device, once.
void RegisterFakeGpuKernels();

// A device set of the fake accelerator (highest priority) and this process's CPU.
DeviceSet FakeGpuDevices(std::shared_ptr<FakeGpuDevice> gpu);

}  // namespace rill::testing
