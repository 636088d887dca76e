#include "rill/core/allocator.h"

#include <cstdlib>
#include <new>

namespace rill {
namespace {

size_t RoundUp(size_t n, size_t a) { return (n + a - 1) / a * a; }

class CpuAllocator final : public Allocator {
 public:
  std::string Name() const override { return "cpu"; }
  void* AllocateRaw(size_t alignment, size_t bytes) override {
    if (bytes > (size_t{1} << 46)) return nullptr;  // beyond any machine; avoid overflow
    return std::aligned_alloc(alignment, RoundUp(bytes == 0 ? 1 : bytes, alignment));
  }
  void DeallocateRaw(void* ptr) override { std::free(ptr); }
};

// The header is padded to one alignment unit so the data after it stays aligned.
constexpr size_t kHeaderBytes = kTensorAlignment;
static_assert(sizeof(TensorBuffer) <= kHeaderBytes);

}  // namespace

Allocator* cpu_allocator() {
  static CpuAllocator* a = new CpuAllocator;
  return a;
}

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

void TensorBuffer::Unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  Allocator* a = allocator_;
  if (base_ != nullptr) {
    void* base = base_;
    this->~TensorBuffer();
    a->DeallocateRaw(base);
  } else {
    a->DeallocateRaw(data_);
    delete this;
  }
}

}  // namespace rill
