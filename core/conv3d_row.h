// Conv3D's arithmetic per element, for the GPU kernels (kernels/cuda/conv3d.cu) and the
// host-side check of them (tests/ops/conv3d_test.cc): each function gathers one value (no
// atomics, deterministic) of the forward output, the input's gradient (from the windows
// holding that input element) or the filter's gradient (a sum over every image and output
// position). Tensors are NDHWC, filters [k_d, k_h, k_w, in_c / groups, out_c]; output
// channel oc reads the input channels of group oc / (out_c / groups).
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

// A Conv3D geometry in plain integers (the CUDA files do not see absl).
struct Conv3DDims {
  int64_t batch = 0, in_c = 0, out_c = 0;
  // Each output channel reads in_c / groups input channels (the filter's fourth dim).
  int64_t groups = 1;
  // Per spatial dim (depth, height, width): sizes, window, stride, dilation and the SAME
  // padding before (the odd cell goes after).
  int64_t in[3] = {}, out[3] = {}, k[3] = {}, stride[3] = {}, dilation[3] = {}, pad[3] = {};
};

// Splits a row-major index over the spatial dims `dims` (and a trailing `channels`) into
// its position: p[0..2] and the channel; returns the leading (batch) index.
RILL_HOST_DEVICE inline int64_t Conv3DSplit(int64_t e, const int64_t* dims, int64_t channels,
                                            int64_t* p, int64_t* c) {
  *c = e % channels;
  e /= channels;
  for (int d = 2; d >= 0; --d) {
    p[d] = e % dims[d];
    e /= dims[d];
  }
  return e;
}

RILL_HOST_DEVICE inline int64_t Conv3DOffset(const int64_t* dims, int64_t b, const int64_t* p,
                                             int64_t channels) {
  return (((b * dims[0] + p[0]) * dims[1] + p[1]) * dims[2] + p[2]) * channels;
}

// y at output element e ([n, od, oh, ow, oc]).
template <typename T>
RILL_HOST_DEVICE inline T Conv3DOutputAt(const Conv3DDims& g, const T* x, const T* w, int64_t e) {
  int64_t o[3], oc, t[3], p[3];
  const int64_t b = Conv3DSplit(e, g.out, g.out_c, o, &oc);
  const int64_t icg = g.in_c / g.groups, c0 = oc / (g.out_c / g.groups) * icg;
  T acc = T(0);
  for (t[0] = 0; t[0] < g.k[0]; ++t[0])
    for (t[1] = 0; t[1] < g.k[1]; ++t[1])
      for (t[2] = 0; t[2] < g.k[2]; ++t[2]) {
        bool inside = true;
        for (int d = 0; d < 3; ++d) {
          p[d] = o[d] * g.stride[d] - g.pad[d] + t[d] * g.dilation[d];
          inside = inside && p[d] >= 0 && p[d] < g.in[d];
        }
        if (!inside) continue;
        const T* xs = x + Conv3DOffset(g.in, b, p, g.in_c) + c0;
        const T* ws = w + ((t[0] * g.k[1] + t[1]) * g.k[2] + t[2]) * icg * g.out_c + oc;
        for (int64_t ic = 0; ic < icg; ++ic) acc += xs[ic] * ws[ic * g.out_c];
      }
  return acc;
}

// dx at input element e ([n, d, h, w, c]): every tap t and output position o with
// o * stride - pad + t * dilation at e's position.
template <typename T>
RILL_HOST_DEVICE inline T Conv3DInputGradAt(const Conv3DDims& g, const T* w, const T* dy,
                                            int64_t e) {
  int64_t p[3], c, t[3], o[3];
  const int64_t b = Conv3DSplit(e, g.in, g.in_c, p, &c);
  const int64_t icg = g.in_c / g.groups, ocg = g.out_c / g.groups;
  const int64_t oc0 = c / icg * ocg, ic = c % icg;
  T acc = T(0);
  for (t[0] = 0; t[0] < g.k[0]; ++t[0])
    for (t[1] = 0; t[1] < g.k[1]; ++t[1])
      for (t[2] = 0; t[2] < g.k[2]; ++t[2]) {
        bool hit = true;
        for (int d = 0; d < 3; ++d) {
          const int64_t q = p[d] + g.pad[d] - t[d] * g.dilation[d];
          o[d] = q / g.stride[d];
          hit = hit && q >= 0 && q % g.stride[d] == 0 && o[d] < g.out[d];
        }
        if (!hit) continue;
        const T* dys = dy + Conv3DOffset(g.out, b, o, g.out_c) + oc0;
        const T* ws = w + (((t[0] * g.k[1] + t[1]) * g.k[2] + t[2]) * icg + ic) * g.out_c + oc0;
        for (int64_t j = 0; j < ocg; ++j) acc += dys[j] * ws[j];
      }
  return acc;
}

// dw at filter element e ([k_d, k_h, k_w, ic, oc]): over every image and output position.
template <typename T>
RILL_HOST_DEVICE inline T Conv3DFilterGradAt(const Conv3DDims& g, const T* x, const T* dy,
                                             int64_t e) {
  const int64_t icg = g.in_c / g.groups, oc = e % g.out_c, ic = e / g.out_c % icg;
  int64_t t[3], o[3], p[3];
  int64_t r = e / g.out_c / icg;
  for (int d = 2; d >= 0; --d) {
    t[d] = r % g.k[d];
    r /= g.k[d];
  }
  const int64_t c = oc / (g.out_c / g.groups) * icg + ic;
  T acc = T(0);
  for (int64_t b = 0; b < g.batch; ++b)
    for (o[0] = 0; o[0] < g.out[0]; ++o[0])
      for (o[1] = 0; o[1] < g.out[1]; ++o[1])
        for (o[2] = 0; o[2] < g.out[2]; ++o[2]) {
          bool inside = true;
          for (int d = 0; d < 3; ++d) {
            p[d] = o[d] * g.stride[d] - g.pad[d] + t[d] * g.dilation[d];
            inside = inside && p[d] >= 0 && p[d] < g.in[d];
          }
          if (!inside) continue;
          acc +=
              x[Conv3DOffset(g.in, b, p, g.in_c) + c] * dy[Conv3DOffset(g.out, b, o, g.out_c) + oc];
        }
  return acc;
}

}  // namespace rill
