// The memory of one run state for one MemoryLayout: a block per device, and a pooled
// TensorBuffer per planned value over its offset. A value is handed out only when idle
// and when every value sharing its bytes is idle too; otherwise its producer allocates as
// before. Refcounted: the run state holds one reference and every buffer out holds one,
// so memory a Tensor kept past its run (a fetch through an unrecorded alias) outlives
// the state that made it.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "rill/core/kernel.h"
#include "rill/runtime/memory_plan.h"

namespace rill {

class Arena final : public BufferOwner {
 public:
  // nullptr when a device cannot give the block (the run then allocates per value).
  static Arena* Create(std::shared_ptr<const MemoryLayout> layout);
  const MemoryLayout& layout() const { return *layout_; }

  // The buffer planned for `slot`, handed out, when it fits `bytes` and may be used now.
  TensorBuffer* Take(int slot, size_t bytes);
  void Return(TensorBuffer* /*buffer*/) override { Unref(); }
  // Another holder (a recorded step writes this arena's memory on each replay).
  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  // The run state lets go (the arena goes once every buffer is back).
  void Unref();

  // After a run, with its slots cleared: appends the slots of values still held (escaped)
  // or asked for more bytes than planned; returns whether there were any.
  bool Misfits(std::vector<int>* slots);

 private:
  explicit Arena(std::shared_ptr<const MemoryLayout> layout);
  ~Arena() override;

  std::shared_ptr<const MemoryLayout> layout_;
  std::vector<void*> blocks_;                       // per layout arena
  std::vector<TensorBuffer*> buffers_;              // per value
  std::unique_ptr<std::atomic<bool>[]> too_small_;  // per value
  std::atomic<int> refs_{1};
};

// The OutputMemory of one node's run: its output i is the plan's slot first_slot + i.
class NodeOutputMemory final : public OutputMemory {
 public:
  NodeOutputMemory(Arena* arena, int first_slot) : arena_(arena), first_slot_(first_slot) {}
  TensorBuffer* Take(int output, size_t bytes) override {
    return arena_->Take(first_slot_ + output, bytes);
  }

 private:
  Arena* arena_;
  int first_slot_;
};

}  // namespace rill
