#include "rill/runtime/caching_allocator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace rill {

size_t CachingAllocator::RoundSize(size_t bytes) {
  constexpr size_t kSmall = 512, kLarge = size_t{2} << 20;
  if (bytes == 0) bytes = 1;
  size_t unit = bytes < (size_t{1} << 20) ? kSmall : kLarge;
  return (bytes + unit - 1) / unit * unit;
}

CachingAllocator::CachingAllocator(std::string name, std::unique_ptr<DeviceMemory> backend,
                                   bool on_host)
    : name_(std::move(name)), backend_(std::move(backend)), on_host_(on_host) {}

CachingAllocator::~CachingAllocator() {
  std::lock_guard<std::mutex> lock(mu_);
  ReleaseCachedLocked();
  // Live blocks belong to tensors that outlive the allocator only at process exit.
}

void* CachingAllocator::AllocateRaw(size_t alignment, size_t bytes) {
  if (bytes > (size_t{1} << 46) || alignment > 512) return nullptr;
  const size_t size = RoundSize(bytes);
  std::lock_guard<std::mutex> lock(mu_);
  ++stats_.num_allocs;
  void* ptr = nullptr;
  size_t got = size;
  auto it = free_.lower_bound(size);
  if (it != free_.end() && it->first <= 2 * size) {
    got = it->first;
    ptr = it->second;
    free_.erase(it);
    ++stats_.num_cache_hits;
  } else {
    ptr = backend_->Alloc(size);
    if (ptr == nullptr && !free_.empty()) {
      ReleaseCachedLocked();  // fragmentation: give the cache back and try once more
      ptr = backend_->Alloc(size);
    }
    if (ptr == nullptr) {
      ++stats_.num_ooms;
      return nullptr;
    }
    ++stats_.num_backend_allocs;
    stats_.bytes_reserved += static_cast<int64_t>(size);
  }
  live_[ptr] = got;
  stats_.bytes_in_use += static_cast<int64_t>(got);
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
  return ptr;
}

void CachingAllocator::DeallocateRaw(void* ptr, size_t /*bytes*/) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(ptr);
  if (it == live_.end()) return;  // not ours: ignore rather than corrupt the cache
  stats_.bytes_in_use -= static_cast<int64_t>(it->second);
  free_.emplace(it->second, ptr);
  live_.erase(it);
}

CachingAllocatorStats CachingAllocator::GetStats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

void CachingAllocator::ReleaseCached() {
  std::lock_guard<std::mutex> lock(mu_);
  ReleaseCachedLocked();
}

void CachingAllocator::ReleaseCachedLocked() {
  for (auto& [size, ptr] : free_) {
    backend_->Free(ptr);
    stats_.bytes_reserved -= static_cast<int64_t>(size);
  }
  free_.clear();
}

std::string CachingAllocatorStats::DebugString() const {
  return absl::StrCat("in use ", bytes_in_use, " B (peak ", peak_bytes_in_use, "), reserved ",
                      bytes_reserved, " B, ", num_allocs, " allocations (", num_cache_hits,
                      " from cache, ", num_backend_allocs, " from the device), ", num_ooms,
                      " out-of-memory");
}

}  // namespace rill
