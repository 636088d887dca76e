// Shared by the optimizer update kernels of every device: the variables behind an apply
// op's reference inputs, locked together, checked and made exclusively owned (copy on
// write) before an in-place update.
#pragma once

#include <mutex>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "rill/core/kernel.h"

namespace rill {

// Held on the stack by an update: no heap allocation for up to 4 variables (Adam has 3).
using VarLocks = absl::InlinedVector<std::unique_lock<std::mutex>, 4>;
using VarValues = absl::InlinedVector<Tensor*, 4>;

class ApplyVars {
 public:
  // The variables of ref inputs 0 .. num_refs-1 of the kernel's node.
  ApplyVars(OpKernelConstruction& c, int num_refs);
  // Locks every variable (in a fixed order), checks each is initialised and has the
  // gradient's shape, and copies any value a reader still holds. Returns with the locks
  // held in *locks; values in *values (one per ref input).
  absl::Status Prepare(OpKernelContext& ctx, const TensorShape& grad_shape, VarLocks* locks,
                       VarValues* values);

 private:
  std::vector<Var*> vars_;
  std::vector<Var*> lock_order_;  // distinct, sorted: every update locks in this order
};

// A scalar input's value, as T, with InvalidArgument naming it when it is not a scalar.
// Host tensors only.
absl::Status ScalarShapeCheck(const OpKernelContext& ctx, std::initializer_list<int> inputs);

}  // namespace rill
