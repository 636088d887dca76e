// The elements of MaxPool3D, AvgPool3D and their gradients over NDHWC tensors, shared by
// the CPU and the GPU kernels so that both compute the same values the same way. Padding
// never wins a max and is not counted in an average (TensorFlow's rule); a max's gradient
// goes to the first maximal element of its window in scan order (TensorFlow's 2-D CPU
// kernel's rule, which rill's MaxPoolGrad follows too), so ties never duplicate a gradient.
// The gradients are gathers (each input element sums the windows that cover it, in output
// order), so a GPU thread per element writes only its own element and needs no atomics,
// and adds in the order the CPU's scatter over the outputs does.
#pragma once

#include <cmath>
#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

struct Pool3DDims {
  int64_t batch = 0, channels = 0;
  // Per spatial dim (depth, height, width): sizes, window, stride, SAME padding before.
  int64_t in[3] = {}, out[3] = {}, k[3] = {}, stride[3] = {}, pad[3] = {};
};

// An element's [n, spatial..., c] position in an NDHWC tensor of spatial dims `dims`.
struct Pool3DPos {
  int64_t n, s[3], c;
};
RILL_HOST_DEVICE inline Pool3DPos Pool3DDecode(const Pool3DDims& g, const int64_t* dims,
                                               int64_t index) {
  Pool3DPos p;
  p.c = index % g.channels;
  index /= g.channels;
  for (int d = 2; d >= 0; --d) {
    p.s[d] = index % dims[d];
    index /= dims[d];
  }
  p.n = index;
  return p;
}

RILL_HOST_DEVICE inline int64_t Pool3DInputIndex(const Pool3DDims& g, int64_t n, int64_t dz,
                                                 int64_t hy, int64_t wx, int64_t c) {
  return (((n * g.in[0] + dz) * g.in[1] + hy) * g.in[2] + wx) * g.channels + c;
}

// The input range [lo, hi) that output position `o` reads along each dim (never empty: a
// SAME window starts less than its size before the input).
RILL_HOST_DEVICE inline void Pool3DWindow(const Pool3DDims& g, const int64_t* o, int64_t* lo,
                                          int64_t* hi) {
  for (int d = 0; d < 3; ++d) {
    const int64_t start = o[d] * g.stride[d] - g.pad[d];
    lo[d] = start < 0 ? 0 : start;
    hi[d] = start + g.k[d] < g.in[d] ? start + g.k[d] : g.in[d];
  }
}

// MaxPool3D (kMax) or AvgPool3D at output element `index`.
template <typename T, bool kMax>
RILL_HOST_DEVICE inline T Pool3DAt(const Pool3DDims& g, const T* x, int64_t index) {
  const Pool3DPos p = Pool3DDecode(g, g.out, index);
  int64_t lo[3], hi[3];
  Pool3DWindow(g, p.s, lo, hi);
  T acc = kMax ? -T(INFINITY) : T(0);
  for (int64_t dz = lo[0]; dz < hi[0]; ++dz)
    for (int64_t hy = lo[1]; hy < hi[1]; ++hy)
      for (int64_t wx = lo[2]; wx < hi[2]; ++wx) {
        const T v = x[Pool3DInputIndex(g, p.n, dz, hy, wx, p.c)];
        acc = kMax ? (v > acc ? v : acc) : acc + v;
      }
  if (kMax) return acc;
  return acc / static_cast<T>((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]));
}

// The input index of the max of output position (n, o, c)'s window: the first element
// greater than every one before it, starting from -inf (so a NaN never wins, as in the
// forward pass; a window of NaNs gives its first element).
template <typename T>
RILL_HOST_DEVICE inline int64_t MaxPool3DArgmax(const Pool3DDims& g, const T* x, int64_t n,
                                                const int64_t* o, int64_t c) {
  int64_t lo[3], hi[3];
  Pool3DWindow(g, o, lo, hi);
  T best = -T(INFINITY);
  int64_t where = Pool3DInputIndex(g, n, lo[0], lo[1], lo[2], c);
  for (int64_t dz = lo[0]; dz < hi[0]; ++dz)
    for (int64_t hy = lo[1]; hy < hi[1]; ++hy)
      for (int64_t wx = lo[2]; wx < hi[2]; ++wx) {
        const int64_t i = Pool3DInputIndex(g, n, dz, hy, wx, c);
        if (x[i] > best) {
          best = x[i];
          where = i;
        }
      }
  return where;
}

// The output positions whose windows cover input position i along dim d: [first, last].
RILL_HOST_DEVICE inline void Pool3DCovering(const Pool3DDims& g, int d, int64_t i, int64_t* first,
                                            int64_t* last) {
  // o * stride - pad <= i  and  i < o * stride - pad + k
  const int64_t top = i + g.pad[d];  // >= 0
  const int64_t low = top - g.k[d] + 1;
  *first = low <= 0 ? 0 : (low + g.stride[d] - 1) / g.stride[d];
  const int64_t hi = top / g.stride[d];
  *last = hi < g.out[d] - 1 ? hi : g.out[d] - 1;
}

// Calls f(output index, output position) for every window covering input element
// `index`, in increasing output order (the order a scatter over the outputs adds in).
template <typename F>
RILL_HOST_DEVICE inline void ForEachCoveringWindow(const Pool3DDims& g, const Pool3DPos& p, F f) {
  int64_t first[3], last[3];
  for (int d = 0; d < 3; ++d) Pool3DCovering(g, d, p.s[d], &first[d], &last[d]);
  int64_t o[3];
  for (o[0] = first[0]; o[0] <= last[0]; ++o[0])
    for (o[1] = first[1]; o[1] <= last[1]; ++o[1])
      for (o[2] = first[2]; o[2] <= last[2]; ++o[2]) {
        const int64_t out =
            (((p.n * g.out[0] + o[0]) * g.out[1] + o[1]) * g.out[2] + o[2]) * g.channels + p.c;
        f(out, o);
      }
}

// The argmax of output element `index`'s window (an input index).
template <typename T>
RILL_HOST_DEVICE inline int64_t MaxPool3DArgmaxAt(const Pool3DDims& g, const T* x, int64_t index) {
  const Pool3DPos p = Pool3DDecode(g, g.out, index);
  return MaxPool3DArgmax(g, x, p.n, p.s, p.c);
}

// MaxPool3DGrad at input element `index`: the gradients of the windows whose max it is,
// given every window's argmax (MaxPool3DArgmaxAt): finding each covering window's max
// again would cost a window per covering window, far more than once per window.
template <typename T>
RILL_HOST_DEVICE inline T MaxPool3DGradAt(const Pool3DDims& g, const int64_t* argmax, const T* dy,
                                          int64_t index) {
  const Pool3DPos p = Pool3DDecode(g, g.in, index);
  T sum = T(0);
  ForEachCoveringWindow(g, p, [&](int64_t out, const int64_t*) {
    if (argmax[out] == index) sum += dy[out];
  });
  return sum;
}

// AvgPool3DGrad at input element `index`: each covering window's gradient over its count.
template <typename T>
RILL_HOST_DEVICE inline T AvgPool3DGradAt(const Pool3DDims& g, const T* dy, int64_t index) {
  const Pool3DPos p = Pool3DDecode(g, g.in, index);
  T sum = T(0);
  ForEachCoveringWindow(g, p, [&](int64_t out, const int64_t* o) {
    int64_t lo[3], hi[3];
    Pool3DWindow(g, o, lo, hi);
    sum += dy[out] / static_cast<T>((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]));
  });
  return sum;
}

}  // namespace rill
