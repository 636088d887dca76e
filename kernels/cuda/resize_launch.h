// Launchers of the CUDA kernels of the image resizes and their gradients (resize.cu): one
// thread per element, core/resize_row.h's functions over tables in device memory.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rill/core/resize_row.h"

namespace rill::gpu {

// n output elements: a copy of the nearest input element (`nearest`) or the weighted sum.
template <typename T, typename U>
cudaError_t LaunchResize(bool nearest, const ResizeDims& d, const int64_t* ti, const double* tw,
                         const T* x, U* y, int64_t n, cudaStream_t stream);
// n input elements of the gradient.
template <typename G, typename T>
cudaError_t LaunchResizeGrad(const ResizeDims& d, const int64_t* ti, const double* tw, const G* dy,
                             T* dx, int64_t n, cudaStream_t stream);

}  // namespace rill::gpu
