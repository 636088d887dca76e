// Shared by the optimizer update kernels of every device: the variables behind an apply
// op's reference inputs, locked together, checked and made exclusively owned (copy on
// write) before an in-place update.
#pragma once

#include <mutex>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rill/core/apply_row.h"
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
  // held in *locks; values in *values (one per ref input). A value that shares its buffer
  // with `own` (the caller's own reference, kept so that every other writer copies) is
  // unshared while those two are its only holders.
  absl::Status Prepare(OpKernelContext& ctx, const TensorShape& grad_shape, VarLocks* locks,
                       VarValues* values, const Tensor* own = nullptr);
  // The variable of ref input i (the session's; it outlives the kernel).
  Var* var(int i) const { return vars_[i]; }

 private:
  std::vector<Var*> vars_;
  std::vector<Var*> lock_order_;  // distinct, sorted: every update locks in this order
};

// The start the adaptive updates (core/apply_row.h) share on every device: the scalars
// checked, the variable and slots prepared as ApplyVars does, the gradient returned.
class AdaptiveApplyInputs {
 public:
  AdaptiveApplyInputs(OpKernelConstruction& c, ApplyLayout layout);
  absl::StatusOr<const Tensor*> Prepare(OpKernelContext& ctx, VarLocks* locks, VarValues* values);
  bool update_slots() const { return update_slots_; }  // Adagrad's attr; true elsewhere

 private:
  ApplyLayout layout_;
  ApplyVars vars_;
  std::vector<int> scalars_;
  bool update_slots_;
};

// A scalar input's value, as T, with InvalidArgument naming it when it is not a scalar.
// Host tensors only.
absl::Status ScalarShapeCheck(const OpKernelContext& ctx, absl::Span<const int> inputs);

}  // namespace rill
