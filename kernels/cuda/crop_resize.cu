// CUDA kernels of CropAndResize and its gradients: each element core/crop_resize_row.h's
// function (the CPU kernels' own).
#include "rill/kernels/cuda/crop_resize_launch.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void CropKernel(CropDims d, const T* image, const float* boxes, const int32_t* ind,
                           float* out, int64_t n) {
  RILL_GRID_LOOP(i, n) { out[i] = CropAndResizeAt(d, image, boxes, ind, i); }
}

template <typename T>
__global__ void CropGradImageKernel(CropDims d, const float* g, const float* boxes,
                                    const int32_t* ind, T* out, int64_t n) {
  RILL_GRID_LOOP(i, n) {
    const CropTaps t = CropTapsAt(d, boxes, ind, i);
    for (int k = 0; k < t.count; ++k) atomicAdd(out + t.at[k], static_cast<T>(t.w[k] * g[i]));
  }
}

template <typename T>
__global__ void CropGradBoxesKernel(CropDims d, const float* g, const T* image, const float* boxes,
                                    const int32_t* ind, float* out) {
  RILL_GRID_LOOP(b, d.boxes) { CropBoxGrad(d, image, boxes, ind, g, b, out + 4 * b); }
}

}  // namespace

template <typename T>
cudaError_t LaunchCropAndResize(const CropDims& d, const T* image, const float* boxes,
                                const int32_t* box_ind, float* out, int64_t n,
                                cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  CropKernel<T><<<Blocks(n), 256, 0, stream>>>(d, image, boxes, box_ind, out, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchCropGradImage(const CropDims& d, const float* grads, const float* boxes,
                                const int32_t* box_ind, T* out, int64_t n, int64_t n_out,
                                cudaStream_t stream) {
  if (n_out == 0) return cudaSuccess;
  cudaError_t e = cudaMemsetAsync(out, 0, n_out * sizeof(T), stream);
  if (e != cudaSuccess || n == 0) return e;
  CropGradImageKernel<T><<<Blocks(n), 256, 0, stream>>>(d, grads, boxes, box_ind, out, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchCropGradBoxes(const CropDims& d, const float* grads, const T* image,
                                const float* boxes, const int32_t* box_ind, float* out,
                                cudaStream_t stream) {
  if (d.boxes == 0) return cudaSuccess;
  CropGradBoxesKernel<T><<<Blocks(d.boxes), 256, 0, stream>>>(d, grads, image, boxes, box_ind, out);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_CROP(T)                                                              \
  template cudaError_t LaunchCropAndResize<T>(const CropDims&, const T*, const float*,        \
                                              const int32_t*, float*, int64_t, cudaStream_t); \
  template cudaError_t LaunchCropGradBoxes<T>(const CropDims&, const float*, const T*,        \
                                              const float*, const int32_t*, float*, cudaStream_t);
RILL_INSTANTIATE_CROP(float)
RILL_INSTANTIATE_CROP(double)
RILL_INSTANTIATE_CROP(int32_t)
RILL_INSTANTIATE_CROP(int64_t)
RILL_INSTANTIATE_CROP(uint8_t)
template cudaError_t LaunchCropGradImage<float>(const CropDims&, const float*, const float*,
                                                const int32_t*, float*, int64_t, int64_t,
                                                cudaStream_t);
template cudaError_t LaunchCropGradImage<double>(const CropDims&, const float*, const float*,
                                                 const int32_t*, double*, int64_t, int64_t,
                                                 cudaStream_t);

}  // namespace rill::gpu
