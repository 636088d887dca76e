#include "rill/runtime/arena.h"

#include "rill/runtime/device.h"

namespace rill {

Arena* Arena::Create(std::shared_ptr<const MemoryLayout> layout) {
  Arena* a = new Arena(std::move(layout));
  const MemoryLayout& l = *a->layout_;
  for (size_t i = 0; i < l.arenas.size(); ++i) {
    a->blocks_[i] =
        l.arenas[i].device->allocator()->AllocateRaw(kTensorAlignment, l.arenas[i].bytes);
    if (a->blocks_[i] == nullptr) {
      a->Unref();
      return nullptr;
    }
  }
  for (size_t v = 0; v < l.values.size(); ++v) {
    const MemoryLayout::Value& value = l.values[v];
    Allocator* alloc = l.arenas[value.arena].device->allocator();
    a->buffers_[v] = TensorBuffer::Pooled(
        alloc, static_cast<char*>(a->blocks_[value.arena]) + value.offset, value.bytes, a);
  }
  return a;
}

Arena::Arena(std::shared_ptr<const MemoryLayout> layout)
    : layout_(std::move(layout)),
      blocks_(layout_->arenas.size(), nullptr),
      buffers_(layout_->values.size(), nullptr),
      too_small_(new std::atomic<bool>[layout_->values.size()]) {
  for (size_t v = 0; v < layout_->values.size(); ++v) too_small_[v].store(false);
}

Arena::~Arena() {
  for (TensorBuffer* b : buffers_) delete b;
  for (size_t i = 0; i < blocks_.size(); ++i) {
    if (blocks_[i] != nullptr) {
      layout_->arenas[i].device->allocator()->DeallocateRaw(blocks_[i], layout_->arenas[i].bytes);
    }
  }
}

void Arena::Unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

TensorBuffer* Arena::Take(int slot, size_t bytes) {
  const int v = layout_->slot_value[slot];
  if (v < 0) return nullptr;
  const MemoryLayout::Value& value = layout_->values[v];
  if (bytes > value.bytes) {
    too_small_[v].store(true, std::memory_order_relaxed);
    return nullptr;
  }
  if (!buffers_[v]->IsIdle()) return nullptr;
  for (int o : value.overlaps) {
    if (!buffers_[o]->IsIdle()) return nullptr;
  }
  refs_.fetch_add(1, std::memory_order_relaxed);
  buffers_[v]->Revive();
  return buffers_[v];
}

bool Arena::Misfits(std::vector<int>* slots) {
  bool any = false;
  for (size_t v = 0; v < buffers_.size(); ++v) {
    if (!buffers_[v]->IsIdle() || too_small_[v].load(std::memory_order_relaxed)) {
      slots->push_back(layout_->values[v].slot);
      any = true;
    }
  }
  return any;
}

}  // namespace rill
