// CUDA kernels of the image resizes and their gradients: each element core/resize_row.h's
// function (the CPU kernels' own).
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"
#include "rill/kernels/cuda/resize_launch.h"

namespace rill::gpu {
namespace {

template <typename T, typename U>
__global__ void ResizeKernel(bool nearest, ResizeDims d, const int64_t* ti, const double* tw,
                             const T* x, U* y, int64_t n) {
  RILL_GRID_LOOP(i, n) {
    y[i] = nearest ? static_cast<U>(x[ResizeNearestSource(d, ti, i)])
                   : static_cast<U>(ResizeAt(d, ti, tw, x, i));
  }
}

template <typename G, typename T>
__global__ void ResizeGradKernel(ResizeDims d, const int64_t* ti, const double* tw, const G* dy,
                                 T* dx, int64_t n) {
  RILL_GRID_LOOP(i, n) { dx[i] = static_cast<T>(ResizeGradAt(d, ti, tw, dy, i)); }
}

}  // namespace

template <typename T, typename U>
cudaError_t LaunchResize(bool nearest, const ResizeDims& d, const int64_t* ti, const double* tw,
                         const T* x, U* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  ResizeKernel<T, U><<<Blocks(n), 256, 0, stream>>>(nearest, d, ti, tw, x, y, n);
  return cudaGetLastError();
}

template <typename G, typename T>
cudaError_t LaunchResizeGrad(const ResizeDims& d, const int64_t* ti, const double* tw, const G* dy,
                             T* dx, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  ResizeGradKernel<G, T><<<Blocks(n), 256, 0, stream>>>(d, ti, tw, dy, dx, n);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_RESIZE(T, U)                                                             \
  template cudaError_t LaunchResize<T, U>(bool, const ResizeDims&, const int64_t*, const double*, \
                                          const T*, U*, int64_t, cudaStream_t);
RILL_INSTANTIATE_RESIZE(float, float)
RILL_INSTANTIATE_RESIZE(double, double)
RILL_INSTANTIATE_RESIZE(int32_t, int32_t)
RILL_INSTANTIATE_RESIZE(int64_t, int64_t)
RILL_INSTANTIATE_RESIZE(uint8_t, uint8_t)
RILL_INSTANTIATE_RESIZE(double, float)
RILL_INSTANTIATE_RESIZE(int32_t, float)
RILL_INSTANTIATE_RESIZE(int64_t, float)
RILL_INSTANTIATE_RESIZE(uint8_t, float)
#define RILL_INSTANTIATE_RESIZE_GRAD(G, T)                                                      \
  template cudaError_t LaunchResizeGrad<G, T>(const ResizeDims&, const int64_t*, const double*, \
                                              const G*, T*, int64_t, cudaStream_t);
RILL_INSTANTIATE_RESIZE_GRAD(float, float)
RILL_INSTANTIATE_RESIZE_GRAD(float, double)
RILL_INSTANTIATE_RESIZE_GRAD(double, double)

}  // namespace rill::gpu
