// An elementwise program (core/fused_elementwise.h) run on the CPU over inputs that
// broadcast together: _FusedElementwise's kernel, and the convolutions' epilogue where
// oneDNN cannot apply it (kernels/cpu/conv_epilogue.h).
#pragma once

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "rill/core/fused_elementwise.h"
#include "rill/core/tensor.h"

namespace rill::cpu {

// Where each step's values go: the last step's into the output, the others into scratch
// blocks reused once the values they hold are read for the last time, so that a chain's
// blocks stay few enough to stay in L1.
struct SlotPlan {
  std::vector<int> slot;  // per step; -1 for the last
  int num_slots = 0;
};
SlotPlan PlanSlots(const std::vector<ElementwiseStep>& steps, int num_inputs);

template <typename T>
class ElementwiseProgram {
 public:
  ElementwiseProgram(std::vector<ElementwiseStep> steps, int num_inputs)
      : steps_(std::move(steps)), num_inputs_(num_inputs), slots_(PlanSlots(steps_, num_inputs)) {}

  // result (of `shape`, which every input broadcasts to) = the program over input(0) ..
  // input(num_inputs - 1). An input may be the result itself: each element is read before
  // it is written. Steady runs allocate nothing; outputs of 2^16+ elements are split over
  // OpenMP's team where the build has it.
  void Run(absl::FunctionRef<const Tensor&(int)> input, const TensorShape& shape, T* result) const;

 private:
  void RunBlocks(absl::FunctionRef<const Tensor&(int)> input, const TensorShape& shape,
                 int64_t first, int64_t last, T* result) const;

  std::vector<ElementwiseStep> steps_;
  int num_inputs_;
  SlotPlan slots_;
};

extern template class ElementwiseProgram<float>;
extern template class ElementwiseProgram<double>;

}  // namespace rill::cpu
