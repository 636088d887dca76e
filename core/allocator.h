// Memory. An Allocator hands out raw blocks for one device; TensorBuffer is the
// refcounted block a Tensor points at. CPU blocks are 64-byte aligned.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace rill {

inline constexpr size_t kTensorAlignment = 64;

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual std::string Name() const = 0;
  // nullptr when the request cannot be met; never throws or aborts.
  virtual void* AllocateRaw(size_t alignment, size_t bytes) = 0;
  // `bytes` is what was asked of AllocateRaw for this block.
  virtual void DeallocateRaw(void* ptr, size_t bytes) = 0;
  // True when the memory is addressable from the host (CPU, pinned host).
  virtual bool OnHost() const { return true; }
};

// The process-wide CPU allocator: 64-byte aligned, thread-safe. Blocks of 64 KiB and more
// are kept on free lists by size when released (up to 1 GiB in all), so a Session that
// runs the same plan again gets warm, already-mapped memory instead of fresh pages.
Allocator* cpu_allocator();

struct CpuAllocatorStats {
  int64_t cache_hits = 0;
  int64_t cache_misses = 0;
  int64_t bytes_cached = 0;
};
CpuAllocatorStats GetCpuAllocatorStats();

class TensorBuffer {
 public:
  // A buffer of `bytes` from `allocator`, refcount 1; nullptr when allocation fails.
  static TensorBuffer* Allocate(Allocator* allocator, size_t bytes);

  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void Unref();
  bool RefCountIsOne() const { return refs_.load(std::memory_order_acquire) == 1; }

  void* data() const { return data_; }
  size_t size() const { return size_; }
  Allocator* allocator() const { return allocator_; }

 private:
  TensorBuffer(Allocator* a, void* base, void* data, size_t size)
      : allocator_(a), base_(base), data_(data), size_(size) {}
  std::atomic<int> refs_{1};
  Allocator* allocator_;
  void* base_;  // what to give back: the header's own block on the host
  void* data_;
  size_t size_;
};

}  // namespace rill
