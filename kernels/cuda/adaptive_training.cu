// The adaptive optimizer updates on the GPU: one thread per element through
// core/apply_row.h's formula (the CPU kernels' own); each thread reads the device scalars.
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <ApplyRule R, typename T>
__global__ void ApplyRuleKernel(ApplyRuleArgs<T> p) {
  constexpr ApplyLayout kLayout = LayoutOf(R);
  T a[kMaxApplyScalars];
  for (int k = 0; k < kLayout.scalars; ++k) a[k] = *p.scalar[k];
  RILL_GRID_LOOP(i, p.n) {
    T* at[kMaxApplySlots];
    for (int k = 0; k < kMaxApplySlots; ++k) at[k] = p.slot[k] == nullptr ? nullptr : p.slot[k] + i;
    ApplyElement<R, T>(a, p.update_slots, p.grad[i], p.var + i, at);
  }
}

template <ApplyRule R, typename T>
cudaError_t Launch(const ApplyRuleArgs<T>& p, cudaStream_t stream) {
  ApplyRuleKernel<R, T><<<Blocks(p.n), 256, 0, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace

template <typename T>
cudaError_t LaunchApplyRule(ApplyRule rule, const ApplyRuleArgs<T>& p, cudaStream_t stream) {
  if (p.n == 0) return cudaSuccess;
  switch (rule) {
    case ApplyRule::kAdagrad:
      return Launch<ApplyRule::kAdagrad>(p, stream);
    case ApplyRule::kAdagradV2:
      return Launch<ApplyRule::kAdagradV2>(p, stream);
    case ApplyRule::kRMSProp:
      return Launch<ApplyRule::kRMSProp>(p, stream);
    case ApplyRule::kCenteredRMSProp:
      return Launch<ApplyRule::kCenteredRMSProp>(p, stream);
    case ApplyRule::kAdadelta:
      return Launch<ApplyRule::kAdadelta>(p, stream);
    case ApplyRule::kAdaMax:
      return Launch<ApplyRule::kAdaMax>(p, stream);
  }
  return cudaErrorInvalidValue;
}

template cudaError_t LaunchApplyRule<float>(ApplyRule, const ApplyRuleArgs<float>&, cudaStream_t);
template cudaError_t LaunchApplyRule<double>(ApplyRule, const ApplyRuleArgs<double>&, cudaStream_t);

}  // namespace rill::gpu
