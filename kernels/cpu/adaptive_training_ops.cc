// CPU kernels of the adaptive optimizer updates (ApplyAdagrad ... ApplyAdaMax): in place on
// the variable and its slots (copy on write when a reader still holds an old value), each
// element through core/apply_row.h's formula, the one the GPU kernels use.
#include "rill/core/apply_row.h"
#include "rill/core/apply_util.h"
#include "rill/core/kernel_util.h"

namespace rill::cpu {
namespace {

template <typename T, ApplyRule R>
class ApplyRuleOp : public OpKernel {
 public:
  static constexpr ApplyLayout kLayout = LayoutOf(R);
  explicit ApplyRuleOp(OpKernelConstruction& c) : OpKernel(c), inputs_(c, kLayout) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    VarLocks locks;
    VarValues v;
    RILL_ASSIGN_OR_RETURN(const Tensor* grad, inputs_.Prepare(ctx, &locks, &v));
    T a[kMaxApplyScalars];
    for (int i = 0; i < kLayout.scalars; ++i) a[i] = ctx.input(kLayout.refs + i).base<T>()[0];
    T* var = v[0]->base<T>();
    T* slots[kMaxApplySlots] = {};
    for (int k = 1; k < kLayout.refs; ++k) slots[k - 1] = v[k]->base<T>();
    const T* g = grad->base<T>();
    const bool update_slots = inputs_.update_slots();
    for (int64_t i = 0, n = grad->NumElements(); i < n; ++i) {
      T* at[kMaxApplySlots];
      for (int k = 0; k < kMaxApplySlots; ++k) at[k] = slots[k] == nullptr ? nullptr : slots[k] + i;
      ApplyElement<R, T>(a, update_slots, g[i], var + i, at);
    }
    ctx.set_output(0, *v[0]);
    return absl::OkStatus();
  }

 private:
  AdaptiveApplyInputs inputs_;
};

#define RILL_REG_APPLY_RULE(T, NAME, RULE) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_CPU, "T", DataTypeToEnum<T>::value, ApplyRuleOp<T, RULE>);
RILL_FOR_FLOAT_TYPES(RILL_REG_APPLY_RULE, "ApplyAdagrad", ApplyRule::kAdagrad)
RILL_FOR_FLOAT_TYPES(RILL_REG_APPLY_RULE, "ApplyAdagradV2", ApplyRule::kAdagradV2)
RILL_FOR_FLOAT_TYPES(RILL_REG_APPLY_RULE, "ApplyRMSProp", ApplyRule::kRMSProp)
RILL_FOR_FLOAT_TYPES(RILL_REG_APPLY_RULE, "ApplyCenteredRMSProp", ApplyRule::kCenteredRMSProp)
RILL_FOR_FLOAT_TYPES(RILL_REG_APPLY_RULE, "ApplyAdadelta", ApplyRule::kAdadelta)
RILL_FOR_FLOAT_TYPES(RILL_REG_APPLY_RULE, "ApplyAdaMax", ApplyRule::kAdaMax)

}  // namespace
}  // namespace rill::cpu
