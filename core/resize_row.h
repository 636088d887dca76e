// The elements of the image resizes (ResizeNearestNeighbor, ResizeBilinear, ResizeBicubic)
// and their gradients over NHWC tensors, shared by the CPU and GPU kernels. A resize is
// separable: each output row y reads `taps` input rows with weights, each output column x
// `taps_x` input columns (core/resize.h builds those tables on the host, in TensorFlow's
// float arithmetic), and out = sum over both of wy * wx * in. The gradient is its
// transpose, gathered: each input row lists the (output row, weight) pairs that read it
// (and so for columns), so a GPU thread per input element sums without atomics, in the
// CPU's order.
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

struct ResizeDims {
  int64_t batch = 0, in_h = 0, in_w = 0, out_h = 0, out_w = 0, channels = 0;
  // Per output row and per output column: 1 (nearest), 2 (bilinear), 4 (bicubic), or an
  // area resize's widest cover along that axis.
  int64_t taps = 1, taps_x = 1;
  // Offsets into the int64 table `ti` and the weight table `tw` (the same layout):
  // forward taps [out_h * taps] and [out_w * taps_x]: input index and weight;
  int64_t row_taps = 0, col_taps = 0;
  // inverse lists, CSR: ti[row_start + r] .. ti[row_start + r + 1] are the bounds, in the
  // entries from row_list, of input row r's (output row, weight) pairs; likewise columns.
  int64_t row_start = 0, row_list = 0, col_start = 0, col_list = 0;
};

// An NHWC element's position in an image of h x w pixels.
struct ResizePos {
  int64_t n, y, x, c;
};
RILL_HOST_DEVICE inline ResizePos ResizeDecode(int64_t channels, int64_t h, int64_t w,
                                               int64_t index) {
  ResizePos p;
  p.c = index % channels;
  index /= channels;
  p.x = index % w;
  index /= w;
  p.y = index % h;
  p.n = index / h;
  return p;
}

// The input element a nearest-neighbor resize copies to output element `index` (a copy,
// not a sum, so int64 values beyond 2^53 survive).
RILL_HOST_DEVICE inline int64_t ResizeNearestSource(const ResizeDims& d, const int64_t* ti,
                                                    int64_t index) {
  const ResizePos p = ResizeDecode(d.channels, d.out_h, d.out_w, index);
  return ((p.n * d.in_h + ti[d.row_taps + p.y]) * d.in_w + ti[d.col_taps + p.x]) * d.channels + p.c;
}

// Output element `index` of the resize of x, accumulated in double.
template <typename T>
RILL_HOST_DEVICE inline double ResizeAt(const ResizeDims& d, const int64_t* ti, const double* tw,
                                        const T* x, int64_t index) {
  const ResizePos p = ResizeDecode(d.channels, d.out_h, d.out_w, index);
  double sum = 0;
  for (int64_t i = 0; i < d.taps; ++i) {
    const int64_t ry = d.row_taps + p.y * d.taps + i;
    const double wy = tw[ry];
    if (wy == 0) continue;
    double row = 0;
    for (int64_t j = 0; j < d.taps_x; ++j) {
      const int64_t rx = d.col_taps + p.x * d.taps_x + j;
      row += tw[rx] *
             static_cast<double>(x[((p.n * d.in_h + ti[ry]) * d.in_w + ti[rx]) * d.channels + p.c]);
    }
    sum += wy * row;
  }
  return sum;
}

// Input element `index` of the gradient, from dy (the output's gradient).
template <typename G>
RILL_HOST_DEVICE inline double ResizeGradAt(const ResizeDims& d, const int64_t* ti,
                                            const double* tw, const G* dy, int64_t index) {
  const ResizePos p = ResizeDecode(d.channels, d.in_h, d.in_w, index);
  double sum = 0;
  for (int64_t k = ti[d.row_start + p.y]; k < ti[d.row_start + p.y + 1]; ++k) {
    const int64_t oy = ti[d.row_list + k];
    double row = 0;
    for (int64_t q = ti[d.col_start + p.x]; q < ti[d.col_start + p.x + 1]; ++q) {
      const int64_t ox = ti[d.col_list + q];
      row += tw[d.col_list + q] *
             static_cast<double>(dy[((p.n * d.out_h + oy) * d.out_w + ox) * d.channels + p.c]);
    }
    sum += tw[d.row_list + k] * row;
  }
  return sum;
}

}  // namespace rill
