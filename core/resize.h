// The tap tables of the image resizes (core/resize_row.h) and the kernels' argument checks,
// shared by the CPU and GPU kernels. The tables follow TensorFlow's kernels: the scale
// (in - 1) / (out - 1) with align_corners, else in / out; output position o maps to
// o * scale, or (o + 0.5) * scale - 0.5 with half_pixel_centers ((o + 0.5) * scale for
// nearest), computed in float as TensorFlow does, so the same input pixels are read;
// bicubic uses TensorFlow's cubic kernel (a = -0.75, or Keys' a = -0.5 with taps outside
// the image dropped and the rest renormalized when half_pixel_centers) at the fraction
// rounded to 1/1024, as its coefficient table does; area (ResizeArea) averages the input
// cells output cell o covers, [o * scale, (o + 1) * scale), each weighted by the part of it
// covered, its taps as many as the widest cover (the rest weighted 0).
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/resize_row.h"

namespace rill {

enum class ResizeMethod { kNearest, kBilinear, kBicubic, kArea };

struct ResizeTables {
  ResizeDims dims;
  Tensor index;   // int64, host memory
  Tensor weight;  // double, host memory
};

absl::StatusOr<ResizeTables> MakeResizeTables(ResizeMethod method, bool align_corners,
                                              bool half_pixel_centers, int64_t batch, int64_t in_h,
                                              int64_t in_w, int64_t out_h, int64_t out_w,
                                              int64_t channels);

// Resize*(images, size (host int32 [2])): checks, tables, and the output allocated.
absl::StatusOr<ResizeTables> PrepareResize(OpKernelContext& ctx, ResizeMethod method, Tensor** out);
// ResizeBilinearGrad / ResizeBicubicGrad(grads, original_image) and
// ResizeNearestNeighborGrad(grads, size (host int32 [2])): the input's gradient allocated.
absl::StatusOr<ResizeTables> PrepareResizeGrad(OpKernelContext& ctx, ResizeMethod method,
                                               Tensor** out);

}  // namespace rill
