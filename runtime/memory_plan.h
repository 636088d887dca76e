// The static memory plan of an execution plan (pass 6, runtime/passes/memory.cc): which
// values share memory, at which offsets of one arena per device. Built once per plan and
// feed shapes, from what the plan's first run with those shapes recorded (the sizes of
// values are only known once their kernels have run); every later run with the same shapes
// takes its outputs from the arena instead of the allocator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "rill/core/tensor_shape.h"

namespace rill {

class Device;
class Tensor;
struct ExecutionPlan;

// What a recording run saw of each value slot.
struct MemoryRecord {
  // Bytes its producer got from allocate_output on its own device; kNotAllocated when the
  // value came otherwise (forwarded, a constant, a variable, made in host memory).
  static constexpr int64_t kNotAllocated = -1;
  static constexpr int64_t kNotProduced = -2;
  std::vector<int64_t> bytes;
  // The slot of an input whose buffer this value shares (forwarded in place, Identity,
  // Reshape), or -1.
  std::vector<int> alias;
  void Reset(int num_slots);
};

// What the planner made of a plan, for users comparing (Session::GetMemoryPlanStats).
struct MemoryPlanStats {
  int64_t arena_bytes = 0;          // all arenas together: the peak of the planned values
  int64_t planned_value_bytes = 0;  // the bytes of every planned value, added up
  int planned_values = 0;           // buffers in an arena (a forwarded chain counts once)
  int unplanned_values = 0;  // fed, fetched, variables, constants, host-memory outputs, or of
                             // a size the first run did not predict
};

struct MemoryLayout {
  struct Arena {
    Device* device = nullptr;
    size_t bytes = 0;
  };
  struct Value {
    int arena = 0;
    size_t offset = 0;
    size_t bytes = 0;  // capacity, a multiple of kTensorAlignment
    int slot = 0;      // the slot whose producer allocates it
    // Values sharing some of its bytes (their lifetimes are ordered with its own): it is
    // handed out only while none of them is held, so a value kept past its planned life (a
    // fetch, a variable that kept it) is never overwritten.
    std::vector<int> overlaps;
  };
  std::vector<Arena> arenas;
  std::vector<Value> values;
  std::vector<int> slot_value;           // per slot: the value its producer allocates into, or -1
  std::vector<TensorShape> feed_shapes;  // the feeds this layout was planned for
  MemoryPlanStats stats;

  bool Fits(const Tensor* const* feeds) const;
};

// Plans above this many nodes keep allocating per run: the lifetimes' reachability matrix
// grows with the square of the node count.
inline constexpr int kMaxMemoryPlannedNodes = 8192;

// Pass 6. `excluded[slot]` nonzero: never plan the value allocated into that slot (it
// escaped its run or outgrew its recorded size before).
std::shared_ptr<const MemoryLayout> PlanMemory(const ExecutionPlan& plan,
                                               const MemoryRecord& record,
                                               const std::vector<char>& excluded,
                                               const Tensor* const* feeds);

}  // namespace rill
