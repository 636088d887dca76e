// CUDA kernels of RGBToHSV, HSVToRGB and their gradients: one thread per pixel,
// core/colorspace_row.h's formulas (the CPU kernels' own).
#include "rill/core/colorspace_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <ColorKind K, typename T>
__global__ void ColorKernel(const T* x, const T* dy, T* out, int64_t pixels) {
  RILL_GRID_LOOP(p, pixels) { ColorPixel<K, T>(x, dy, out, p); }
}

}  // namespace

template <ColorKind K, typename T>
cudaError_t LaunchColor(const T* x, const T* dy, T* out, int64_t pixels, cudaStream_t stream) {
  if (pixels == 0) return cudaSuccess;
  ColorKernel<K, T><<<Blocks(pixels), 256, 0, stream>>>(x, dy, out, pixels);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_COLOR(K)                                                             \
  template cudaError_t LaunchColor<K, float>(const float*, const float*, float*, int64_t,     \
                                             cudaStream_t);                                   \
  template cudaError_t LaunchColor<K, double>(const double*, const double*, double*, int64_t, \
                                              cudaStream_t);
RILL_INSTANTIATE_COLOR(ColorKind::kRgbToHsv)
RILL_INSTANTIATE_COLOR(ColorKind::kHsvToRgb)
RILL_INSTANTIATE_COLOR(ColorKind::kRgbToHsvGrad)
RILL_INSTANTIATE_COLOR(ColorKind::kHsvToRgbGrad)
#undef RILL_INSTANTIATE_COLOR

}  // namespace rill::gpu
