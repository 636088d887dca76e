// Launchers of the CUDA kernels of CropAndResize and its gradients (crop_resize.cu):
// core/crop_resize_row.h's functions, one thread per crop element (per box for the boxes'
// gradient); the image gradient adds atomically, as TensorFlow's GPU kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rill/core/crop_resize_row.h"

namespace rill::gpu {

template <typename T>
cudaError_t LaunchCropAndResize(const CropDims& d, const T* image, const float* boxes,
                                const int32_t* box_ind, float* out, int64_t n, cudaStream_t stream);
// out (n_out elements) zeroed, then each of the n crop elements of grads added in.
template <typename T>
cudaError_t LaunchCropGradImage(const CropDims& d, const float* grads, const float* boxes,
                                const int32_t* box_ind, T* out, int64_t n, int64_t n_out,
                                cudaStream_t stream);
template <typename T>
cudaError_t LaunchCropGradBoxes(const CropDims& d, const float* grads, const T* image,
                                const float* boxes, const int32_t* box_ind, float* out,
                                cudaStream_t stream);

}  // namespace rill::gpu
