// The place of a collective kernel's data on a GPU (runtime/dist/gpu/, built with CUDA).
// Made on the kernel's thread when the kernel runs: it records on the device's stream where
// the kernel's inputs are queued, and the collective's own stream, on the engine's thread,
// starts after that point (so the backward pass queued later still overlaps the transfer).
// The data then moves through NCCL when every rank has a GPU of its own, else staged
// through pinned host memory and MPI.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "rill/core/kernel.h"
#include "rill/core/status.h"
#include "rill/runtime/dist/data_path.h"

namespace rill::dist {

#if RILL_WITH_CUDA
absl::StatusOr<std::shared_ptr<DataPlace>> MakeGpuPlace(OpKernelContext& ctx);
#else
// A build without CUDA has no GPU device, so no kernel asks for this.
inline absl::StatusOr<std::shared_ptr<DataPlace>> MakeGpuPlace(OpKernelContext& ctx) {
  return errors::Internal("collective on ", ctx.device()->name(), ": a build without CUDA");
}
#endif

}  // namespace rill::dist
