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
  Tensor t(ctx.device()->allocator(), host.dtype(), host.shape());
  if (!t.IsInitialized()) {
    return errors::ResourceExhausted("out of GPU memory for ", host.TotalBytes(), " bytes of ",
                                     what);
  }
  if (host.TotalBytes() > 0) {
    RILL_CUDA_CHECK(cudaMemcpyAsync(t.data(), host.data(), host.TotalBytes(),
                                    cudaMemcpyHostToDevice, ContextOf(ctx)->stream));
  }
  return t;
}

}  // namespace rill::gpu
