// GPU kernels of the adaptive optimizer updates (ApplyAdagrad ... ApplyAdaMax): in place on
// the variable's and slots' device buffers, scalars read on the device (no host wait), each
// element through core/apply_row.h's formula, the one the CPU kernels use.
#include "rill/core/apply_util.h"
#include "rill/core/kernel_util.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, ApplyRule R>
class ApplyRuleGpu : public OpKernel {
 public:
  static constexpr ApplyLayout kLayout = LayoutOf(R);
  explicit ApplyRuleGpu(OpKernelConstruction& c) : OpKernel(c), inputs_(c, kLayout) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    VarLocks locks;
    VarValues v;
    RILL_ASSIGN_OR_RETURN(const Tensor* grad, inputs_.Prepare(ctx, &locks, &v));
    ApplyRuleArgs<T> p;
    p.var = v[0]->base<T>();
    for (int k = 1; k < kLayout.refs; ++k) p.slot[k - 1] = v[k]->base<T>();
    for (int i = 0; i < kLayout.scalars; ++i) p.scalar[i] = ctx.input(kLayout.refs + i).base<T>();
    p.grad = grad->base<T>();
    p.n = grad->NumElements();
    p.update_slots = inputs_.update_slots();
    RILL_CUDA_CHECK(LaunchApplyRule<T>(R, p, ContextOf(ctx)->stream));
    ctx.set_output(0, *v[0]);
    return absl::OkStatus();
  }

 private:
  AdaptiveApplyInputs inputs_;
};

#define RILL_REG_GPU_APPLY_RULE(T, NAME, RULE) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_GPU, "T", DataTypeToEnum<T>::value, ApplyRuleGpu<T, RULE>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_APPLY_RULE, "ApplyAdagrad", ApplyRule::kAdagrad)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_APPLY_RULE, "ApplyAdagradV2", ApplyRule::kAdagradV2)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_APPLY_RULE, "ApplyRMSProp", ApplyRule::kRMSProp)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_APPLY_RULE, "ApplyCenteredRMSProp", ApplyRule::kCenteredRMSProp)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_APPLY_RULE, "ApplyAdadelta", ApplyRule::kAdadelta)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_APPLY_RULE, "ApplyAdaMax", ApplyRule::kAdaMax)

}  // namespace
}  // namespace rill::gpu
