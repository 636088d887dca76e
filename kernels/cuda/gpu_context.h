// What a GPU kernel needs of its device: the stream every kernel of that device is
// enqueued on, and the cuBLAS / cuDNN handles made when the device was created. Plus the
// one checking macro every CUDA, cuBLAS and cuDNN call goes through.
#pragma once

#include <cuda_runtime.h>
#include <cudnn.h>

#include <memory>
#include <mutex>

#include "rill/core/kernel.h"
#include "rill/kernels/cuda/cublas_api.h"

namespace rill::gpu {

struct GpuContext {
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaStream_t copy_stream = nullptr;  // uploads started ahead of their step
  cublasHandle_t cublas = nullptr;
  cudnnHandle_t cudnn = nullptr;
  bool allow_tf32 = false;
  // cuBLAS and cuDNN handles must not be used by two host threads at once, and the
  // executor runs independent kernels on several threads: every call on a handle holds
  // this lock (the work is then queued on the one stream in the order the locks were taken).
  std::shared_ptr<std::mutex> library_mu = std::make_shared<std::mutex>();
};

inline GpuContext* ContextOf(const OpKernelContext& ctx) { return ctx.device()->gpu_context(); }

absl::Status CudaError(cudaError_t e, const char* stmt, const char* file, int line);
absl::Status CublasError(cublasStatus_t e, const char* stmt, const char* file, int line);
absl::Status CudnnError(cudnnStatus_t e, const char* stmt, const char* file, int line);
inline absl::Status CheckStatus(cudaError_t e, const char* s, const char* f, int l) {
  return e == cudaSuccess ? absl::OkStatus() : CudaError(e, s, f, l);
}
inline absl::Status CheckStatus(cublasStatus_t e, const char* s, const char* f, int l) {
  return e == CUBLAS_STATUS_SUCCESS ? absl::OkStatus() : CublasError(e, s, f, l);
}
inline absl::Status CheckStatus(cudnnStatus_t e, const char* s, const char* f, int l) {
  return e == CUDNN_STATUS_SUCCESS ? absl::OkStatus() : CudnnError(e, s, f, l);
}

// Returns an Internal Status naming the statement, file and line when a call fails.
#define RILL_CUDA_CHECK(stmt) \
  RILL_RETURN_IF_ERROR(::rill::gpu::CheckStatus((stmt), #stmt, __FILE__, __LINE__))

// A copy on the device of `host`, a value the kernel read or computed on the host (group
// orders, resize taps, offsets), through OpKernelContext::UploadHostValue: staged and
// enqueued on the device's stream, or, while the step is recorded, copied once before the
// recording's first launch. `what` names it in an error.
absl::StatusOr<Tensor> UploadHostInput(const OpKernelContext& ctx, const Tensor& host,
                                       const char* what);

}  // namespace rill::gpu
