#include "rill/core/apply_util.h"

#include <algorithm>

namespace rill {

ApplyVars::ApplyVars(OpKernelConstruction& c, int num_refs) {
  for (int i = 0; i < num_refs; ++i) {
    const Node& v = *c.node().input(i).node;
    vars_.push_back(
        c.resources()->LookupOrCreateVar(v.name(), v.output_type(0), v.output_shape(0)));
  }
  lock_order_ = vars_;
  std::sort(lock_order_.begin(), lock_order_.end());
  lock_order_.erase(std::unique(lock_order_.begin(), lock_order_.end()), lock_order_.end());
}

absl::Status ApplyVars::Prepare(OpKernelContext& ctx, const TensorShape& grad_shape,
                                VarLocks* locks, VarValues* values, const Tensor* own) {
  for (Var* v : lock_order_) locks->emplace_back(v->mu());
  for (Var* v : vars_) {
    Tensor& cur = v->value();
    if (!cur.IsInitialized()) {
      return errors::FailedPrecondition("Attempting to use uninitialized value ", v->name(), " in ",
                                        ctx.node().DebugName());
    }
    if (cur.shape() != grad_shape) {
      return errors::InvalidArgument(ctx.node().DebugName(), " on ", ctx.device()->name(),
                                     ": variable '", v->name(), "' has shape ",
                                     cur.shape().DebugString(), " but the gradient has shape ",
                                     grad_shape.DebugString());
    }
    const bool mine = own != nullptr && cur.SharesBufferWith(*own);
    if (mine ? !cur.RefCountIs(2) : !cur.RefCountIsOne()) {  // a reader holds the old value
      Tensor copy;
      RILL_RETURN_IF_ERROR(ctx.device()->CopyOnDevice(cur, &copy));
      cur = std::move(copy);
    }
    values->push_back(&cur);
  }
  return absl::OkStatus();
}

absl::Status ScalarShapeCheck(const OpKernelContext& ctx, absl::Span<const int> inputs) {
  for (int i : inputs) {
    if (ctx.input(i).dims() != 0) {
      return errors::InvalidArgument(
          ctx.node().DebugName(), ": input '", ctx.node().op_def().inputs[i].name,
          "' must be a scalar, got shape ", ctx.input(i).shape().DebugString());
    }
  }
  return absl::OkStatus();
}

AdaptiveApplyInputs::AdaptiveApplyInputs(OpKernelConstruction& c, ApplyLayout layout)
    : layout_(layout),
      vars_(c, layout.refs),
      update_slots_(!c.node().attrs().count("update_slots") ||
                    c.node().attr<bool>("update_slots")) {
  for (int i = 0; i < layout.scalars; ++i) scalars_.push_back(layout.refs + i);
}

absl::StatusOr<const Tensor*> AdaptiveApplyInputs::Prepare(OpKernelContext& ctx, VarLocks* locks,
                                                           VarValues* values) {
  RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, scalars_));
  const Tensor& grad = ctx.input(layout_.refs + layout_.scalars);
  RILL_RETURN_IF_ERROR(vars_.Prepare(ctx, grad.shape(), locks, values));
  return &grad;
}

}  // namespace rill
