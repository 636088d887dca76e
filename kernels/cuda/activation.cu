// Relu6, Elu, Selu, LeakyRelu and their gradient ops on the GPU: each element through the
// formula the CPU kernels use (core/point_activation.h).
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <PointActivation kAct, typename T>
__global__ void ActivationKernel(const T* x, T* y, T alpha, int64_t n) {
  RILL_GRID_LOOP(i, n) { y[i] = ApplyPointActivation<kAct, T>(x[i], alpha); }
}

template <PointActivation kAct, typename T>
__global__ void ActivationGradKernel(const T* g, const T* a, T* out, T alpha, int64_t n) {
  RILL_GRID_LOOP(i, n) { out[i] = PointActivationBackprop<kAct, T>(g[i], a[i], alpha); }
}

}  // namespace

template <PointActivation kAct, typename T>
cudaError_t LaunchPointActivation(const T* x, T* y, T alpha, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  ActivationKernel<kAct, T><<<Blocks(n), 256, 0, stream>>>(x, y, alpha, n);
  return cudaGetLastError();
}

template <PointActivation kAct, typename T>
cudaError_t LaunchPointActivationGrad(const T* g, const T* a, T* out, T alpha, int64_t n,
                                      cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  ActivationGradKernel<kAct, T><<<Blocks(n), 256, 0, stream>>>(g, a, out, alpha, n);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_ACTIVATION(KIND, T)                                                     \
  template cudaError_t LaunchPointActivation<PointActivation::KIND, T>(const T*, T*, T, int64_t, \
                                                                       cudaStream_t);            \
  template cudaError_t LaunchPointActivationGrad<PointActivation::KIND, T>(                      \
      const T*, const T*, T*, T, int64_t, cudaStream_t);
#define RILL_INSTANTIATE_ACTIVATIONS(T)  \
  RILL_INSTANTIATE_ACTIVATION(kRelu6, T) \
  RILL_INSTANTIATE_ACTIVATION(kElu, T)   \
  RILL_INSTANTIATE_ACTIVATION(kSelu, T)  \
  RILL_INSTANTIATE_ACTIVATION(kLeakyRelu, T)
RILL_INSTANTIATE_ACTIVATIONS(float)
RILL_INSTANTIATE_ACTIVATIONS(double)

}  // namespace rill::gpu
