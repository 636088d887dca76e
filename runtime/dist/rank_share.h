// _RankShare's kernel, x divided by the number of ranks, on any device: `Divide` is the
// device's part (runtime/dist/rank_share.cc on the CPU, runtime/dist/gpu/rank_share_gpu.cc
// on a GPU). Constant folding runs the CPU kernel once, when the plan is built, on
// DistributedOptimizer's gradient seed, so a step runs neither; the GPU kernel keeps the
// folded constant on the GPU, beside the gradient that reads it.
#pragma once

#include "rill/core/kernel.h"
#include "rill/runtime/dist/world.h"

namespace rill::dist {

// Divide(ctx, x, y, ranks) -> absl::Status writes x / ranks into y (which may be x).
template <typename Divide>
class RankShareKernel : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(Engine * engine, EngineForKernel());
    const Tensor& x = ctx.input(0);
    Tensor* y = nullptr;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, x.shape(), &y));
    return Divide()(ctx, x, *y, engine->comm().size());
  }
};

}  // namespace rill::dist
