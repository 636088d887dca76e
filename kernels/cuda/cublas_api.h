// The cuBLAS functions rill calls, loaded from the library when the first GPU device is
// made instead of linked. Linked, cuBLAS (with cuBLASLt, which it needs: 600 MB) ran its
// static initializers in every process that loaded rill, GPU or none: about 0.27 s of
// each program's start (perf, 2026-11-27), and a machine without the library could not
// start a CUDA build of rill at all. Loaded, a program that makes no GPU device never
// maps it, and a missing library makes the GPU unusable with a message that says why
// (the CPU still runs everything).
#pragma once

#include <cublas_v2.h>

#include "absl/status/statusor.h"

namespace rill::gpu {

// cublas_v2.h maps some names to their _v2 symbols by macro (the pointers' types follow),
// and overloads the Ex products for C++ with inline wrappers taking the older compute-type
// enum: these are the exported ones (checked against the header, never called directly).
using CublasGemmEx =
    decltype(static_cast<cublasStatus_t (*)(
                 cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                 const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                 cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t)>(&cublasGemmEx));
using CublasGemmStridedBatchedEx =
    decltype(static_cast<cublasStatus_t (*)(
                 cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                 const void*, cudaDataType, int, long long, const void*, cudaDataType, int,
                 long long, const void*, void*, cudaDataType, int, long long, int,
                 cublasComputeType_t, cublasGemmAlgo_t)>(&cublasGemmStridedBatchedEx));

struct CublasApi {
  decltype(&cublasCreate) Create = nullptr;
  decltype(&cublasDestroy) Destroy = nullptr;
  decltype(&cublasSetStream) SetStream = nullptr;
  decltype(&cublasSetMathMode) SetMathMode = nullptr;
  decltype(&cublasSetPointerMode) SetPointerMode = nullptr;
  decltype(&cublasSetWorkspace) SetWorkspace = nullptr;
  CublasGemmEx GemmEx = nullptr;
  decltype(&cublasDgemm) Dgemm = nullptr;
  CublasGemmStridedBatchedEx GemmStridedBatchedEx = nullptr;
  decltype(&cublasDgemmStridedBatched) DgemmStridedBatched = nullptr;
  decltype(&cublasGetStatusName) GetStatusName = nullptr;
};

// Loads the library once per process (libcublas.so.<the major version rill was built
// with>, found as the dynamic loader finds any library) and returns its functions, or
// FailedPrecondition naming the library and what the loader said.
absl::StatusOr<const CublasApi*> LoadCublas();

// The functions, for code running on a GPU device: every device loaded them to make its
// handles, so only a caller with a cuBLAS handle may use this.
const CublasApi& Cublas();

}  // namespace rill::gpu
