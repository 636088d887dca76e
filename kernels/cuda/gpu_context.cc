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
  return errors::Internal("cuBLAS error ", static_cast<int>(e), " in ", stmt, " at ", file, ":",
                          line);
}

absl::Status CudnnError(cudnnStatus_t e, const char* stmt, const char* file, int line) {
  return errors::Internal("cuDNN error ", cudnnGetErrorString(e), " in ", stmt, " at ", file, ":",
                          line);
}

}  // namespace rill::gpu
