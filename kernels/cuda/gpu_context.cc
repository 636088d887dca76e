#include "rill/kernels/cuda/gpu_context.h"

namespace rill::gpu {

absl::Status CudaError(cudaError_t e, const char* stmt, const char* file, int line) {
  if (e == cudaErrorMemoryAllocation) {
    return errors::ResourceExhausted("CUDA out of memory in ", stmt, " at ", file, ":", line);
  }
  return errors::Internal("CUDA error ", cudaGetErrorName(e), " (", cudaGetErrorString(e), ") in ",
                          stmt, " at ", file, ":", line);
}

absl::Status CublasError(cublasStatus_t e, const char* stmt, const char* file, int line) {
  // Only a loaded cuBLAS returns its errors.
  return errors::Internal("cuBLAS error ", Cublas().GetStatusName(e), " in ", stmt, " at ", file,
                          ":", line);
}

absl::Status CudnnError(cudnnStatus_t e, const char* stmt, const char* file, int line) {
  return errors::Internal("cuDNN error ", cudnnGetErrorString(e), " in ", stmt, " at ", file, ":",
                          line);
}

absl::StatusOr<Tensor> UploadHostInput(const OpKernelContext& ctx, const Tensor& host,
                                       const char* what) {
  absl::StatusOr<Tensor> on_device = ctx.UploadHostValue(host);
  if (!on_device.ok()) return errors::Annotate(on_device.status(), absl::StrCat(what, ": "));
  return on_device;
}

}  // namespace rill::gpu
