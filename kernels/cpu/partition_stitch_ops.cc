// DynamicPartition, DynamicStitch and ParallelDynamicStitch on every device: the host
// computes them (core/partition_stitch.h), since their output sizes are data; on a GPU
// their inputs and outputs live in host memory, as Where's and Unique's.
#include "rill/core/partition_stitch.h"

namespace rill::cpu {
namespace {

class DynamicPartitionOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return ComputeDynamicPartition(ctx); }
};

class DynamicStitchOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override { return ComputeDynamicStitch(ctx); }
};

RILL_REGISTER_KERNEL("DynamicPartition", DEVICE_CPU, "", DT_INVALID, DynamicPartitionOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("DynamicPartition", DEVICE_GPU, "", DT_INVALID, ({0, 1}),
                                  DynamicPartitionOp);
RILL_REGISTER_KERNEL("DynamicStitch", DEVICE_CPU, "", DT_INVALID, DynamicStitchOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("DynamicStitch", DEVICE_GPU, "", DT_INVALID, {kAllHostInputs},
                                  DynamicStitchOp);
RILL_REGISTER_KERNEL("ParallelDynamicStitch", DEVICE_CPU, "", DT_INVALID, DynamicStitchOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("ParallelDynamicStitch", DEVICE_GPU, "", DT_INVALID,
                                  {kAllHostInputs}, DynamicStitchOp);

}  // namespace
}  // namespace rill::cpu
