// MirrorPadGrad's element, shared by the CPU kernel and the GPU kernel: output (input-shaped)
// position i sums the padded gradient at every position that mirrors i, at most three per
// dim (the interior, the before padding, the after padding), gathered rather than
// scattered so that no two threads write one element.
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"
#include "rill/core/limits.h"

namespace rill {

struct MirrorFold {
  int rank = 0;
  int edge = 0;  // 1 for REFLECT (the edge element is not repeated), 0 for SYMMETRIC
  int64_t dims[kMaxTensorRank] = {};    // the output's (unpadded) dims
  int64_t before[kMaxTensorRank] = {};  // padding per dim
  int64_t after[kMaxTensorRank] = {};
  int64_t grad_strides[kMaxTensorRank] = {};  // row-major strides of the padded gradient
};

template <typename T>
RILL_HOST_DEVICE inline T MirrorPadGradAt(const T* g, const MirrorFold& f, int64_t index) {
  // Per dim, the gradient positions (up to 3) that mirror this output position.
  int64_t pos[kMaxTensorRank][3];
  int count[kMaxTensorRank];
  for (int d = f.rank - 1; d >= 0; --d) {
    const int64_t n = f.dims[d], i = index % n;
    index /= n;
    int k = 0;
    pos[d][k++] = f.before[d] + i;
    const int64_t left = f.before[d] - 1 + f.edge - i;  // j in [0, before) maps to i
    if (left >= 0 && left < f.before[d]) pos[d][k++] = left;
    const int64_t right = n - 1 - f.edge - i;  // before + n + t, t in [0, after), maps to i
    if (right >= 0 && right < f.after[d]) pos[d][k++] = f.before[d] + n + right;
    count[d] = k;
  }
  T sum = T(0);
  int pick[kMaxTensorRank] = {};
  while (true) {
    int64_t at = 0;
    for (int d = 0; d < f.rank; ++d) at += pos[d][pick[d]] * f.grad_strides[d];
    sum += g[at];
    int d = f.rank - 1;
    while (d >= 0 && ++pick[d] == count[d]) pick[d--] = 0;
    if (d < 0) return sum;
  }
}

}  // namespace rill
