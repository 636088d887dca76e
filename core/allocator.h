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
  int64_t num_allocs = 0;  // every AllocateRaw call, served from a cache or not
  int64_t cache_hits = 0;
  int64_t cache_misses = 0;
  int64_t bytes_cached = 0;
};
CpuAllocatorStats GetCpuAllocatorStats();

class TensorBuffer;

// Owns buffers that are handed out again and again (an execution plan's arena): when the
// last Tensor lets go of one, it goes back to its owner instead of being freed.
class BufferOwner {
 public:
  virtual ~BufferOwner() = default;
  virtual void Return(TensorBuffer* buffer) = 0;
};

class TensorBuffer {
 public:
  // A buffer of `bytes` from `allocator`, refcount 1; nullptr when allocation fails.
  static TensorBuffer* Allocate(Allocator* allocator, size_t bytes);

  // A buffer over `data` (owned by `owner`, which frees it) that starts idle: refcount
  // zero until the owner hands it out with Revive(). `allocator` is where the memory came
  // from (what Tensor::allocator() reports); it is never asked to free it.
  static TensorBuffer* Pooled(Allocator* allocator, void* data, size_t size, BufferOwner* owner);
  // For the owner of a pooled buffer: idle (no Tensor holds it), and handing it out.
  bool IsIdle() const { return refs_.load(std::memory_order_acquire) == 0; }
  void Revive() { refs_.store(1, std::memory_order_release); }

  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void Unref();
  bool RefCountIsOne() const { return refs_.load(std::memory_order_acquire) == 1; }
  bool RefCountIs(int n) const { return refs_.load(std::memory_order_acquire) == n; }

  void* data() const { return data_; }
  size_t size() const { return size_; }
  Allocator* allocator() const { return allocator_; }

 private:
  TensorBuffer(Allocator* a, void* base, void* data, size_t size, BufferOwner* owner = nullptr)
      : refs_(owner == nullptr ? 1 : 0),
        allocator_(a),
        base_(base),
        data_(data),
        size_(size),
        owner_(owner) {}
  std::atomic<int> refs_;
  Allocator* allocator_;
  void* base_;  // what to give back: the header's own block on the host
  void* data_;
  size_t size_;
  BufferOwner* owner_;  // set for a pooled buffer: it goes back there at refcount zero
};

}  // namespace rill
