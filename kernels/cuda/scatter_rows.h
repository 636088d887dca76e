// How the GPU applies scattered rows (the TensorScatter ops, the variable scatters): the
// rows grouped by target slice on the host (core/gather_nd.h), the groups uploaded, then
// scatter.cu's one thread per slice element applies that slice's rows in indices' order.
#pragma once

#include "rill/core/gather_nd.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {

// `flat` holds each row's slice number (host int64 [rows]); rows of `inner` elements.
template <typename T>
absl::Status ScatterRowsGpu(OpKernelContext& ctx, ScatterKind kind, const Tensor& flat,
                            int64_t inner, const T* updates, T* out) {
  if (flat.NumElements() * inner == 0) return absl::OkStatus();
  const ScatterGroups groups = GroupRowsBySlice(flat);
  RILL_ASSIGN_OR_RETURN(Tensor order, UploadHostInput(ctx, groups.order, "indices"));
  RILL_ASSIGN_OR_RETURN(Tensor starts, UploadHostInput(ctx, groups.starts, "indices"));
  RILL_ASSIGN_OR_RETURN(Tensor targets, UploadHostInput(ctx, groups.targets, "indices"));
  RILL_CUDA_CHECK(LaunchTensorScatter<T>(kind, updates, order.base<int64_t>(),
                                         starts.base<int64_t>(), targets.base<int64_t>(),
                                         groups.groups, inner, out, ContextOf(ctx)->stream));
  return absl::OkStatus();
}

}  // namespace rill::gpu
