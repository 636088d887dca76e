#include "rill/core/allocator.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace rill {
namespace {

constexpr size_t RoundUp(size_t n, size_t a) { return (n + a - 1) / a * a; }

constexpr size_t kCacheMinBytes = size_t{64} << 10;
// Small blocks: glibc's aligned allocation is its slow path (it over-allocates and splits),
// and a graph of cheap ops allocates one small output per node. Each thread keeps a few
// released blocks per 64-byte size class up to 4 KiB and hands them out again.
constexpr size_t kSmallMaxBytes = 4096;
constexpr size_t kSmallClasses = kSmallMaxBytes / kTensorAlignment;
constexpr size_t kSmallPerClass = 64;

struct SmallCache {
  void* blocks[kSmallClasses][kSmallPerClass];
  int count[kSmallClasses] = {};
  ~SmallCache() {
    for (size_t c = 0; c < kSmallClasses; ++c)
      for (int i = 0; i < count[c]; ++i) std::free(blocks[c][i]);
  }
};
thread_local SmallCache small_cache;
constexpr size_t kCacheMaxTotal = size_t{1} << 30;
constexpr size_t kPage = 4096;

class CpuAllocator final : public Allocator {
 public:
  std::string Name() const override { return "cpu"; }

  void* AllocateRaw(size_t alignment, size_t bytes) override {
    // 1 TiB and more is beyond these machines; the sanitizers' allocators refuse it too.
    if (bytes >= (size_t{1} << 40)) return nullptr;
    num_allocs_.fetch_add(1, std::memory_order_relaxed);
    if (bytes <= kSmallMaxBytes && alignment <= kTensorAlignment) {
      const size_t cls = (bytes == 0 ? 0 : (bytes - 1) / kTensorAlignment);
      SmallCache& cache = small_cache;
      if (cache.count[cls] > 0) return cache.blocks[cls][--cache.count[cls]];
      return std::aligned_alloc(kTensorAlignment, (cls + 1) * kTensorAlignment);
    }
    if (bytes < kCacheMinBytes || alignment > kPage) {
      return std::aligned_alloc(alignment, RoundUp(bytes == 0 ? 1 : bytes, alignment));
    }
    const size_t size = RoundUp(bytes, kPage);
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = free_.find(size);
      if (it != free_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        cached_ -= size;
        ++stats_.cache_hits;
        return p;
      }
      ++stats_.cache_misses;
    }
    return std::aligned_alloc(kPage, size);
  }

  void DeallocateRaw(void* ptr, size_t bytes) override {
    if (bytes <= kSmallMaxBytes) {
      const size_t cls = (bytes == 0 ? 0 : (bytes - 1) / kTensorAlignment);
      SmallCache& cache = small_cache;
      if (cache.count[cls] < static_cast<int>(kSmallPerClass)) {
        cache.blocks[cls][cache.count[cls]++] = ptr;
      } else {
        std::free(ptr);
      }
      return;
    }
    if (bytes < kCacheMinBytes) {
      std::free(ptr);
      return;
    }
    const size_t size = RoundUp(bytes, kPage);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (cached_ + size <= kCacheMaxTotal) {
        free_[size].push_back(ptr);
        cached_ += size;
        return;
      }
    }
    std::free(ptr);
  }

  CpuAllocatorStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    CpuAllocatorStats s = stats_;
    s.bytes_cached = static_cast<int64_t>(cached_);
    s.num_allocs = num_allocs_.load(std::memory_order_relaxed);
    return s;
  }

 private:
  std::mutex mu_;
  absl::flat_hash_map<size_t, std::vector<void*>> free_;
  size_t cached_ = 0;
  CpuAllocatorStats stats_;
  std::atomic<int64_t> num_allocs_{0};
};

// The header is padded to one alignment unit so the data after it stays aligned.
constexpr size_t kHeaderBytes = kTensorAlignment;
static_assert(sizeof(TensorBuffer) <= kHeaderBytes);

CpuAllocator* TheCpuAllocator() {
  static CpuAllocator* a = new CpuAllocator;
  return a;
}

}  // namespace

Allocator* cpu_allocator() { return TheCpuAllocator(); }
CpuAllocatorStats GetCpuAllocatorStats() { return TheCpuAllocator()->stats(); }

TensorBuffer* TensorBuffer::Allocate(Allocator* allocator, size_t bytes) {
  if (allocator->OnHost()) {
    // One block: header, then data, both aligned.
    if (bytes > (size_t{1} << 46)) return nullptr;
    void* base = allocator->AllocateRaw(kTensorAlignment, kHeaderBytes + bytes);
    if (base == nullptr) return nullptr;
    void* data = static_cast<char*>(base) + kHeaderBytes;
    return new (base) TensorBuffer(allocator, base, data, bytes);
  }
  void* data = allocator->AllocateRaw(kTensorAlignment, bytes);
  if (data == nullptr) return nullptr;
  return new TensorBuffer(allocator, nullptr, data, bytes);
}

TensorBuffer* TensorBuffer::Pooled(Allocator* allocator, void* data, size_t size,
                                   BufferOwner* owner) {
  return new TensorBuffer(allocator, nullptr, data, size, owner);
}

void TensorBuffer::Unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (owner_ != nullptr) {
    owner_->Return(this);
    return;
  }
  Allocator* a = allocator_;
  if (base_ != nullptr) {
    void* base = base_;
    size_t bytes = kHeaderBytes + size_;
    this->~TensorBuffer();
    a->DeallocateRaw(base, bytes);
  } else {
    a->DeallocateRaw(data_, size_);
    delete this;
  }
}

}  // namespace rill
