#include "rill/kernels/cuda/cublas_api.h"

#include <memory>

#include "rill/core/dso_loader.h"

namespace rill::gpu {
namespace {

#define RILL_CUBLAS_STR_(x) #x
#define RILL_CUBLAS_STR(x) RILL_CUBLAS_STR_(x)  // expands the _v2 macros before quoting

constexpr const char* kLibrary = "libcublas.so." RILL_CUBLAS_STR(CUBLAS_VER_MAJOR);

#define RILL_CUBLAS_FIND(member, function) \
  RILL_RETURN_IF_ERROR(dso::Find(lib, kLibrary, RILL_CUBLAS_STR(function), &api->member))

absl::StatusOr<const CublasApi*> Load() {
  RILL_ASSIGN_OR_RETURN(void* lib, dso::Open(kLibrary));
  auto api = std::make_unique<CublasApi>();
  RILL_CUBLAS_FIND(Create, cublasCreate);
  RILL_CUBLAS_FIND(Destroy, cublasDestroy);
  RILL_CUBLAS_FIND(SetStream, cublasSetStream);
  RILL_CUBLAS_FIND(SetMathMode, cublasSetMathMode);
  RILL_CUBLAS_FIND(SetPointerMode, cublasSetPointerMode);
  RILL_CUBLAS_FIND(SetWorkspace, cublasSetWorkspace);
  RILL_CUBLAS_FIND(GemmEx, cublasGemmEx);
  RILL_CUBLAS_FIND(Dgemm, cublasDgemm);
  RILL_CUBLAS_FIND(GemmStridedBatchedEx, cublasGemmStridedBatchedEx);
  RILL_CUBLAS_FIND(DgemmStridedBatched, cublasDgemmStridedBatched);
  RILL_CUBLAS_FIND(GetStatusName, cublasGetStatusName);
  return api.release();  // for the process's life, as the library
}

const absl::StatusOr<const CublasApi*>& Loaded() {
  static const auto* loaded = new absl::StatusOr<const CublasApi*>(Load());
  return *loaded;
}

}  // namespace

absl::StatusOr<const CublasApi*> LoadCublas() { return Loaded(); }

const CublasApi& Cublas() { return **Loaded(); }

}  // namespace rill::gpu
