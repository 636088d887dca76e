// The cuBLAS loader (kernels/cuda/cublas_api.h) wherever rill was built with CUDA, GPU or
// none: the library it was built against loads and has every function rill calls.
#include "rill/kernels/cuda/cublas_api.h"

#include <string>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace cublas_api_test {

TEST(CublasLoader, FindsEveryFunctionOnce) {
  absl::StatusOr<const gpu::CublasApi*> api = gpu::LoadCublas();
  ASSERT_TRUE(api.ok()) << api.status();
  const gpu::CublasApi& a = **api;
  for (const void* f :
       {reinterpret_cast<const void*>(a.Create), reinterpret_cast<const void*>(a.Destroy),
        reinterpret_cast<const void*>(a.SetStream), reinterpret_cast<const void*>(a.SetMathMode),
        reinterpret_cast<const void*>(a.SetPointerMode),
        reinterpret_cast<const void*>(a.SetWorkspace), reinterpret_cast<const void*>(a.GemmEx),
        reinterpret_cast<const void*>(a.Dgemm),
        reinterpret_cast<const void*>(a.GemmStridedBatchedEx),
        reinterpret_cast<const void*>(a.DgemmStridedBatched),
        reinterpret_cast<const void*>(a.GetStatusName)}) {
    EXPECT_NE(f, nullptr);
  }
  // A call that needs no GPU: the library answers.
  EXPECT_EQ(std::string(a.GetStatusName(CUBLAS_STATUS_NOT_INITIALIZED)),
            "CUBLAS_STATUS_NOT_INITIALIZED");
  absl::StatusOr<const gpu::CublasApi*> again = gpu::LoadCublas();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *api);
  EXPECT_EQ(&gpu::Cublas(), *api);
}

}  // namespace cublas_api_test
}  // namespace
}  // namespace rill::testing
