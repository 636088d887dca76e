// Launchers of the CUDA kernels behind the convolution, pooling and bias ops (their
// classes are in conv_ops.cc and pool_ops.cc). Plain sizes only, as in launch.h.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rill/core/activation.h"
#include "rill/core/conv3d_row.h"
#include "rill/core/depthwise_row.h"
#include "rill/core/pool3d_row.h"
#include "rill/core/pool_argmax_row.h"

namespace rill::gpu {

// An NHWC window geometry (rill::Conv2DGeometry's fields, without its headers).
struct WindowDims {
  int64_t batch, in_h, in_w, c;
  int64_t k_h, k_w, stride_h, stride_w;
  int64_t out_h, out_w, pad_top, pad_left;
};

// MaxPool / AvgPool forward, as the CPU kernels: padding never wins a max and is not
// counted in an average.
template <typename T>
cudaError_t LaunchPool(bool max, const WindowDims& d, const T* x, T* y, cudaStream_t stream);
// MaxPoolGrad: each window's gradient goes to its first maximal element (scan order).
// One thread per input element gathers from the windows that hold it, in window order,
// so the sums are deterministic and in the CPU's order.
template <typename T>
cudaError_t LaunchMaxPoolGrad(const WindowDims& d, const T* x, const T* dy, T* dx,
                              cudaStream_t stream);
template <typename T>
cudaError_t LaunchAvgPoolGrad(const WindowDims& d, const T* dy, T* dx, cudaStream_t stream);

// MaxPoolWithArgmax over its n output values (pool_argmax.cu); Index int32 or int64.
template <typename T, typename Index>
cudaError_t LaunchMaxPoolWithArgmax(const ArgmaxPoolDims& d, const T* x, T* y, Index* argmax,
                                    int64_t n, cudaStream_t stream);

// MaxPool3D / AvgPool3D over n output elements (pool3d.cu, core/pool3d_row.h).
template <typename T>
cudaError_t LaunchPool3D(bool max, const Pool3DDims& d, const T* x, T* y, int64_t n,
                         cudaStream_t stream);
// MaxPool3DGrad: each window's argmax into `argmax` (n_out int64s of scratch), then one
// thread per input element (n_in) gathers the gradients of the windows it is the max of.
template <typename T>
cudaError_t LaunchMaxPool3DGrad(const Pool3DDims& d, const T* x, const T* dy, int64_t* argmax,
                                T* dx, int64_t n_out, int64_t n_in, cudaStream_t stream);
template <typename T>
cudaError_t LaunchAvgPool3DGrad(const Pool3DDims& d, const T* dy, T* dx, int64_t n_in,
                                cudaStream_t stream);

// DepthwiseConv2dNative (a = x, b = filter, out = y), its input gradient (a = filter,
// b = dy, out = dx) and its filter gradient (a = x, b = dy, out = df), one thread per
// output value (depthwise_conv.cu).
// The passes are numbered as rill::ConvMode (core/conv_kernel_util.h), so kernels cast one
// to the other; Conv3D's launcher takes them too.
enum class DepthwisePass { kForward = 0, kInputGrad = 1, kFilterGrad = 2 };
template <typename T>
cudaError_t LaunchDepthwise(DepthwisePass pass, const DepthwiseDims& d, const T* a, const T* b,
                            T* out, cudaStream_t stream);

// Conv3D (a = x, b = filter), its input gradient (a = filter, b = dy) and its filter
// gradient (a = x, b = dy) over the n values of `out`, one thread per value (conv3d.cu).
template <typename T>
cudaError_t LaunchConv3D(DepthwisePass pass, const Conv3DDims& g, const T* a, const T* b, T* out,
                         int64_t n, cudaStream_t stream);

// y[i] = x[i] + bias[i % channels] over n elements.
template <typename T>
cudaError_t LaunchBiasAdd(const T* x, const T* bias, T* y, int64_t n, int64_t channels,
                          cudaStream_t stream);

// _BiasActivation: y[i] = act(x[i] + bias[i % channels]) over n elements.
template <typename T>
cudaError_t LaunchBiasActivation(FusedActivation act, const T* x, const T* bias, T* y, int64_t n,
                                 int64_t channels, cudaStream_t stream);
// _BiasActivationGrad over [rows, channels]: dz = dy * act'(y) and db = dz's column sums,
// in one kernel when the columns alone fill the GPU; else the rows are split, each part's
// sums go to `scratch` (BiasActivationGradScratch elements; null when that is 0) and a
// second kernel adds them up. Deterministic either way.
int64_t BiasActivationGradScratch(int64_t rows, int64_t channels);
template <typename T>
cudaError_t LaunchBiasActivationGrad(FusedActivation act, const T* dy, const T* y, T* dz, T* db,
                                     T* scratch, int64_t rows, int64_t channels,
                                     cudaStream_t stream);

// dst [cols, rows] = src [rows, cols]^T (filters between HWIO and cuDNN's KRSC).
template <typename T>
cudaError_t LaunchTranspose2D(const T* src, T* dst, int64_t rows, int64_t cols,
                              cudaStream_t stream);
// pad: copies [n, h, w, c] into the window at (top, left) of [n, hp, wp, c], zeros around
// it; crop (pad false): copies that window of [n, hp, wp, c] out into [n, h, w, c].
template <typename T>
cudaError_t LaunchPadOrCropNhwc(bool pad, const T* src, T* dst, int64_t n, int64_t h, int64_t w,
                                int64_t c, int64_t hp, int64_t wp, int64_t top, int64_t left,
                                cudaStream_t stream);

}  // namespace rill::gpu
