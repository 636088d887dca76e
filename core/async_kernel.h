// Kernels whose work finishes later, on another thread (the collectives, whose data moves
// on the communication engine's thread while the executor goes on with other nodes).
#pragma once

#include <functional>

#include "rill/core/kernel.h"

namespace rill {

class AsyncOpKernel : public OpKernel {
 public:
  using OpKernel::OpKernel;
  using DoneCallback = std::function<void(absl::Status)>;

  // Starts the work and returns; `done` is called exactly once, from any thread, when the
  // outputs are complete (or with the error). `ctx` is valid only during this call: the
  // kernel reads its inputs and allocates its outputs here and keeps the Tensors (which
  // share their buffers) for the work that follows. `outputs` are the node's output
  // tensors, valid until `done`: a kernel whose output shape is known only later (an
  // allgather's) sets them there. Consumers run only after `done`.
  virtual void ComputeAsync(OpKernelContext& ctx, Tensor* outputs, DoneCallback done) = 0;

  // Runs ComputeAsync and waits for it (for callers that run one kernel synchronously).
  absl::Status Compute(OpKernelContext& ctx) final;
};

}  // namespace rill
