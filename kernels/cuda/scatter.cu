// The TensorScatter ops' combination on the GPU: one thread per element of each slice that
// rows land on, applying that slice's rows in indices' order (core/scatter_row.h), so
// repeated tuples need no atomics and every run gives the same result.
#include "rill/core/scatter_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <ScatterKind K, typename T>
__global__ void TensorScatterKernel(const T* updates, const int64_t* order, const int64_t* starts,
                                    const int64_t* targets, int64_t groups, int64_t inner, T* out) {
  RILL_GRID_LOOP(e, groups * inner) {
    ScatterGroupElement<K, T>(updates, order, starts, targets, inner, e / inner, e % inner, out);
  }
}

template <ScatterKind K, typename T>
cudaError_t Launch(const T* updates, const int64_t* order, const int64_t* starts,
                   const int64_t* targets, int64_t groups, int64_t inner, T* out,
                   cudaStream_t stream) {
  TensorScatterKernel<K, T><<<Blocks(groups * inner), 256, 0, stream>>>(
      updates, order, starts, targets, groups, inner, out);
  return cudaGetLastError();
}

}  // namespace

template <typename T>
cudaError_t LaunchTensorScatter(ScatterKind kind, const T* updates, const int64_t* order,
                                const int64_t* starts, const int64_t* targets, int64_t groups,
                                int64_t inner, T* out, cudaStream_t stream) {
  if (groups * inner == 0) return cudaSuccess;
  switch (kind) {
    case ScatterKind::kUpdate:
      return Launch<ScatterKind::kUpdate>(updates, order, starts, targets, groups, inner, out,
                                          stream);
    case ScatterKind::kAdd:
      return Launch<ScatterKind::kAdd>(updates, order, starts, targets, groups, inner, out, stream);
    case ScatterKind::kSub:
      return Launch<ScatterKind::kSub>(updates, order, starts, targets, groups, inner, out, stream);
    case ScatterKind::kMin:
      return Launch<ScatterKind::kMin>(updates, order, starts, targets, groups, inner, out, stream);
    case ScatterKind::kMax:
      return Launch<ScatterKind::kMax>(updates, order, starts, targets, groups, inner, out, stream);
    case ScatterKind::kMul:
      return Launch<ScatterKind::kMul>(updates, order, starts, targets, groups, inner, out, stream);
    case ScatterKind::kDiv:
      return Launch<ScatterKind::kDiv>(updates, order, starts, targets, groups, inner, out, stream);
  }
  return cudaErrorInvalidValue;
}

#define RILL_INSTANTIATE_TENSOR_SCATTER(T)                                                      \
  template cudaError_t LaunchTensorScatter<T>(ScatterKind, const T*, const int64_t*,            \
                                              const int64_t*, const int64_t*, int64_t, int64_t, \
                                              T*, cudaStream_t);
RILL_INSTANTIATE_TENSOR_SCATTER(float)
RILL_INSTANTIATE_TENSOR_SCATTER(double)
RILL_INSTANTIATE_TENSOR_SCATTER(int64_t)

}  // namespace rill::gpu
