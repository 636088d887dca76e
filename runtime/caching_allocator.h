// A caching allocator for device memory: asks its backend (cudaMalloc on a GPU; or
// cudaHostAlloc for the pinned host memory that stages a GPU's copies) only
// when no cached block fits, so memory grows on demand and is never grabbed up front.
// Freed blocks are kept by size and reused (best fit, at most twice the request). When
// the backend refuses, the cache is given back and the request tried once more; a second
// refusal returns nullptr, which allocate_output turns into ResourceExhausted naming the
// node, shape and bytes. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "rill/core/allocator.h"

namespace rill {

class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  virtual void* Alloc(size_t bytes) = 0;  // nullptr when out of memory
  virtual void Free(void* ptr) = 0;
};

struct CachingAllocatorStats {
  int64_t bytes_in_use = 0;  // handed out and not yet returned
  int64_t peak_bytes_in_use = 0;
  int64_t bytes_reserved = 0;  // obtained from the backend (in use + cached)
  int64_t num_allocs = 0;
  int64_t num_cache_hits = 0;
  int64_t num_backend_allocs = 0;
  int64_t num_ooms = 0;
  std::string DebugString() const;
};

class CachingAllocator final : public Allocator {
 public:
  // `on_host`: the backend's memory is addressable from the host (pinned host memory).
  CachingAllocator(std::string name, std::unique_ptr<DeviceMemory> backend, bool on_host = false);
  ~CachingAllocator() override;

  std::string Name() const override { return name_; }
  void* AllocateRaw(size_t alignment, size_t bytes) override;
  void DeallocateRaw(void* ptr, size_t bytes) override;
  bool OnHost() const override { return on_host_; }

  CachingAllocatorStats GetStats() const;
  // Gives every cached (free) block back to the backend.
  void ReleaseCached();

  // Block sizes: 512-byte multiples below 1 MiB, 2 MiB multiples above.
  static size_t RoundSize(size_t bytes);

 private:
  void ReleaseCachedLocked();

  const std::string name_;
  std::unique_ptr<DeviceMemory> backend_;
  const bool on_host_;
  mutable std::mutex mu_;
  std::multimap<size_t, void*> free_;        // size -> cached block
  absl::flat_hash_map<void*, size_t> live_;  // block -> its size
  CachingAllocatorStats stats_;
};

}  // namespace rill
