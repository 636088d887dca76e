// Switch and Merge kernels. Neither touches the data: Switch passes its input on to one
// output and leaves the other unset, which the executor marks dead (runtime/deadness.cc);
// Merge passes on its first live input (the executor gives it dead inputs unset). So
// Switch's kernel serves every device, its predicate read on the host.
#include "rill/core/kernel.h"
#include "rill/core/status.h"

namespace rill {
namespace {

class SwitchOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& pred = ctx.input(1);
    if (pred.dims() != 0) {
      return errors::InvalidArgument("pred must be a scalar, got shape ",
                                     pred.shape().DebugString());
    }
    ctx.set_output(pred.scalar<bool>()() ? 1 : 0, ctx.input(0));
    return absl::OkStatus();
  }
};

class MergeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    for (int i = 0; i < ctx.num_inputs(); ++i) {
      if (!ctx.input(i).IsInitialized()) continue;  // dead
      ctx.set_output(0, ctx.input(i));
      Tensor* index;
      RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape(), &index));
      index->scalar<int32_t>()() = i;
      return absl::OkStatus();
    }
    // The executor runs a Merge whose every input is dead as dead, without this kernel.
    return errors::Internal("Merge ran with no live input");
  }
};

}  // namespace

RILL_REGISTER_KERNEL("Switch", DEVICE_CPU, "", DT_INVALID, SwitchOp);
RILL_REGISTER_KERNEL_HOST_INPUTS("Switch", DEVICE_GPU, "", DT_INVALID, {1}, SwitchOp);
RILL_REGISTER_KERNEL("Merge", DEVICE_CPU, "", DT_INVALID, MergeOp);

}  // namespace rill
