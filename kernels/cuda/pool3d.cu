// CUDA kernels of MaxPool3D, AvgPool3D and their gradients: one thread per element, each
// core/pool3d_row.h's function (the CPU kernels' own).
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, bool kMax>
__global__ void Pool3DKernel(Pool3DDims d, const T* x, T* y, int64_t n) {
  RILL_GRID_LOOP(i, n) { y[i] = Pool3DAt<T, kMax>(d, x, i); }
}

template <typename T>
__global__ void Argmax3DKernel(Pool3DDims d, const T* x, int64_t* argmax, int64_t n) {
  RILL_GRID_LOOP(i, n) { argmax[i] = MaxPool3DArgmaxAt(d, x, i); }
}

template <typename T>
__global__ void MaxPool3DGradKernel(Pool3DDims d, const int64_t* argmax, const T* dy, T* dx,
                                    int64_t n) {
  RILL_GRID_LOOP(i, n) { dx[i] = MaxPool3DGradAt(d, argmax, dy, i); }
}

template <typename T>
__global__ void AvgPool3DGradKernel(Pool3DDims d, const T* dy, T* dx, int64_t n) {
  RILL_GRID_LOOP(i, n) { dx[i] = AvgPool3DGradAt(d, dy, i); }
}

}  // namespace

template <typename T>
cudaError_t LaunchPool3D(bool max, const Pool3DDims& d, const T* x, T* y, int64_t n,
                         cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (max) {
    Pool3DKernel<T, true><<<Blocks(n), 256, 0, stream>>>(d, x, y, n);
  } else {
    Pool3DKernel<T, false><<<Blocks(n), 256, 0, stream>>>(d, x, y, n);
  }
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchMaxPool3DGrad(const Pool3DDims& d, const T* x, const T* dy, int64_t* argmax,
                                T* dx, int64_t n_out, int64_t n_in, cudaStream_t stream) {
  if (n_in == 0) return cudaSuccess;
  if (n_out > 0) Argmax3DKernel<T><<<Blocks(n_out), 256, 0, stream>>>(d, x, argmax, n_out);
  MaxPool3DGradKernel<T><<<Blocks(n_in), 256, 0, stream>>>(d, argmax, dy, dx, n_in);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchAvgPool3DGrad(const Pool3DDims& d, const T* dy, T* dx, int64_t n_in,
                                cudaStream_t stream) {
  if (n_in == 0) return cudaSuccess;
  AvgPool3DGradKernel<T><<<Blocks(n_in), 256, 0, stream>>>(d, dy, dx, n_in);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_POOL3D(T)                                                                 \
  template cudaError_t LaunchPool3D<T>(bool, const Pool3DDims&, const T*, T*, int64_t,             \
                                       cudaStream_t);                                              \
  template cudaError_t LaunchMaxPool3DGrad<T>(const Pool3DDims&, const T*, const T*, int64_t*, T*, \
                                              int64_t, int64_t, cudaStream_t);                     \
  template cudaError_t LaunchAvgPool3DGrad<T>(const Pool3DDims&, const T*, T*, int64_t,            \
                                              cudaStream_t);
RILL_INSTANTIATE_POOL3D(float)
RILL_INSTANTIATE_POOL3D(double)

}  // namespace rill::gpu
