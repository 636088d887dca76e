// AdjustContrastv2's arithmetic per element, shared by the CPU and GPU kernels (plain
// header: nvcc takes it): (x - mean) * factor + mean, computed in float64.
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

struct ContrastDims {
  int64_t images = 0;  // the product of the dims before height
  int64_t pixels = 0;  // height * width
  int64_t channels = 0;
  float factor = 1;
};

// Element i of the output, `sums` the per-image, per-channel sums of the input.
template <typename T, typename S>
RILL_HOST_DEVICE inline T ContrastAt(const T* x, const S* sums, const ContrastDims& d, int64_t i) {
  const int64_t c = i % d.channels, image = i / (d.pixels * d.channels);
  const double mean = double(sums[image * d.channels + c]) / double(d.pixels);
  return T((double(x[i]) - mean) * double(d.factor) + mean);
}

}  // namespace rill
