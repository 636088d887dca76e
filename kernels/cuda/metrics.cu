// CUDA kernels of Keras's accuracy (_Accuracy) and of the gradient of a full Mean
// (_MeanAllGrad).
#include "rill/core/accuracy_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

constexpr int kAccuracyThreads = 512;

// One block: each thread counts a strided share of the examples, then a tree adds the
// counts (integers, so the result is exact and the same every run).
template <typename T, typename L>
__global__ void AccuracyKernel(AccuracyKind kind, const T* output, const L* labels,
                               int64_t examples, int64_t classes, float* result) {
  __shared__ int64_t counts[kAccuracyThreads];
  int64_t hits = 0;
  for (int64_t i = threadIdx.x; i < examples; i += kAccuracyThreads)
    hits += AccuracyHit(kind, output, labels, i, classes);
  counts[threadIdx.x] = hits;
  __syncthreads();
  for (int half = kAccuracyThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) counts[threadIdx.x] += counts[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = static_cast<float>(counts[0]) / static_cast<float>(examples);
}

template <typename T>
__global__ void MeanAllGradKernel(const T* dy, T count, T* y, int64_t n) {
  const T v = *dy / count;
  RILL_GRID_LOOP(i, n) { y[i] = v; }
}

}  // namespace

template <typename T, typename L>
cudaError_t LaunchAccuracy(int kind, const T* output, const L* labels, int64_t examples,
                           int64_t classes, float* result, cudaStream_t stream) {
  AccuracyKernel<T, L><<<1, kAccuracyThreads, 0, stream>>>(static_cast<AccuracyKind>(kind), output,
                                                           labels, examples, classes, result);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchMeanAllGrad(const T* dy, T count, T* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MeanAllGradKernel<T><<<Blocks(n), 256, 0, stream>>>(dy, count, y, n);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_ACCURACY(T)                                                               \
  template cudaError_t LaunchAccuracy<T, float>(int, const T*, const float*, int64_t, int64_t,     \
                                                float*, cudaStream_t);                             \
  template cudaError_t LaunchAccuracy<T, double>(int, const T*, const double*, int64_t, int64_t,   \
                                                 float*, cudaStream_t);                            \
  template cudaError_t LaunchAccuracy<T, int32_t>(int, const T*, const int32_t*, int64_t, int64_t, \
                                                  float*, cudaStream_t);                           \
  template cudaError_t LaunchAccuracy<T, int64_t>(int, const T*, const int64_t*, int64_t, int64_t, \
                                                  float*, cudaStream_t);                           \
  template cudaError_t LaunchMeanAllGrad<T>(const T*, T, T*, int64_t, cudaStream_t);
RILL_INSTANTIATE_ACCURACY(float)
RILL_INSTANTIATE_ACCURACY(double)

}  // namespace rill::gpu
