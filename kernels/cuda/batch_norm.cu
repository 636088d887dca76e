// CUDA kernels of FusedBatchNormV3 and FusedBatchNormGradV3. Per-channel sums take a block
// per channel (threads stride over the channel's values, then a tree in shared memory: a
// fixed order, so results repeat run to run); the element-wise passes are grid loops.
// The arithmetic on the sums is core/batch_norm_row.h's, as on the CPU.
#include "rill/core/batch_norm_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

constexpr int kThreads = 256;

// The flat index of value j (of PerChannel()) of channel c.
__device__ inline int64_t ChannelValue(const BatchNormGeometry& g, int64_t c, int64_t j) {
  return ((j / g.inner) * g.channels + c) * g.inner + j % g.inner;
}

// Sums `v` over the block's threads; every thread gets the total.
template <typename T>
__device__ T BlockSum(T v, T* shared) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) shared[threadIdx.x] += shared[threadIdx.x + half];
    __syncthreads();
  }
  const T total = shared[0];
  __syncthreads();
  return total;
}

template <typename T>
__global__ void MomentsKernel(const T* x, T* mean, T* variance, BatchNormGeometry g) {
  __shared__ T shared[kThreads];
  const int64_t n = g.PerChannel();
  for (int64_t c = blockIdx.x; c < g.channels; c += gridDim.x) {
    T sum = T(0);
    for (int64_t j = threadIdx.x; j < n; j += kThreads) sum += x[ChannelValue(g, c, j)];
    const T m = BlockSum(sum, shared) / T(n);
    T centred = T(0);
    for (int64_t j = threadIdx.x; j < n; j += kThreads) {
      const T d = x[ChannelValue(g, c, j)] - m;
      centred += d * d;
    }
    const T v = BlockSum(centred, shared) / T(n);
    if (threadIdx.x == 0) {
      mean[c] = m;
      variance[c] = v;
    }
  }
}

template <typename T>
__global__ void GradSumsKernel(const T* dy, const T* x, const T* mean, const T* variance, T epsilon,
                               T* scale_bp, T* offset_bp, BatchNormGeometry g) {
  __shared__ T shared[kThreads];
  const int64_t n = g.PerChannel();
  for (int64_t c = blockIdx.x; c < g.channels; c += gridDim.x) {
    T sum_dy = T(0), sum_dy_xc = T(0);
    for (int64_t j = threadIdx.x; j < n; j += kThreads) {
      const int64_t i = ChannelValue(g, c, j);
      sum_dy += dy[i];
      sum_dy_xc += dy[i] * (x[i] - mean[c]);
    }
    sum_dy = BlockSum(sum_dy, shared);
    sum_dy_xc = BlockSum(sum_dy_xc, shared);
    if (threadIdx.x == 0) {
      offset_bp[c] = sum_dy;
      scale_bp[c] = n == 0 ? T(0) : sum_dy_xc * BatchNormInvStd(variance[c], epsilon);
    }
  }
}

template <typename T>
__global__ void ForwardKernel(const T* x, const T* scale, const T* offset, const T* mean,
                              const T* variance, T epsilon, T* y, BatchNormGeometry g) {
  const int64_t total = g.outer * g.channels * g.inner;
  RILL_GRID_LOOP(i, total) {
    const int64_t c = (i / g.inner) % g.channels;
    y[i] =
        BatchNormValue(x[i], mean[c], scale[c] * BatchNormInvStd(variance[c], epsilon), offset[c]);
  }
}

template <typename T>
__global__ void RunningKernel(const T* mean, const T* variance, int64_t n, T factor,
                              const T* mean_in, const T* variance_in, bool blend, T* mean_out,
                              T* variance_out, int64_t channels) {
  RILL_GRID_LOOP(c, channels) {
    BatchNormRunning(mean[c], variance[c], n, factor, blend ? mean_in[c] : T(0),
                     blend ? variance_in[c] : T(0), blend, &mean_out[c], &variance_out[c]);
  }
}

template <typename T>
__global__ void BackpropKernel(const T* dy, const T* x, const T* scale, const T* mean,
                               const T* variance, T epsilon, const T* scale_bp, const T* offset_bp,
                               bool training, T* dx, BatchNormGeometry g) {
  const int64_t total = g.outer * g.channels * g.inner;
  RILL_GRID_LOOP(i, total) {
    const int64_t c = (i / g.inner) % g.channels;
    const auto k = BatchNormBackprop(scale[c], mean[c], variance[c], epsilon, offset_bp[c],
                                     scale_bp[c], g.PerChannel(), training);
    dx[i] = BatchNormBackpropValue(k, dy[i], x[i]);
  }
}

unsigned int ChannelBlocks(int64_t channels) {
  return static_cast<unsigned int>(channels < 65535 ? (channels < 1 ? 1 : channels) : 65535);
}

}  // namespace

template <typename T>
cudaError_t LaunchBatchNormMoments(const T* x, T* mean, T* variance, const BatchNormGeometry& g,
                                   cudaStream_t stream) {
  if (g.channels == 0 || g.PerChannel() == 0) return cudaSuccess;
  MomentsKernel<T><<<ChannelBlocks(g.channels), kThreads, 0, stream>>>(x, mean, variance, g);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchBatchNormForward(const T* x, const T* scale, const T* offset, const T* mean,
                                   const T* variance, T epsilon, T* y, const BatchNormGeometry& g,
                                   cudaStream_t stream) {
  const int64_t total = g.outer * g.channels * g.inner;
  if (total == 0) return cudaSuccess;
  ForwardKernel<T>
      <<<Blocks(total), 256, 0, stream>>>(x, scale, offset, mean, variance, epsilon, y, g);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchBatchNormRunning(const T* mean, const T* variance, int64_t n, T factor,
                                   const T* mean_in, const T* variance_in, bool blend, T* mean_out,
                                   T* variance_out, int64_t channels, cudaStream_t stream) {
  if (channels == 0) return cudaSuccess;
  RunningKernel<T><<<Blocks(channels), 256, 0, stream>>>(
      mean, variance, n, factor, mean_in, variance_in, blend, mean_out, variance_out, channels);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchBatchNormGradSums(const T* dy, const T* x, const T* mean, const T* variance,
                                    T epsilon, T* scale_bp, T* offset_bp,
                                    const BatchNormGeometry& g, cudaStream_t stream) {
  if (g.channels == 0) return cudaSuccess;
  GradSumsKernel<T><<<ChannelBlocks(g.channels), kThreads, 0, stream>>>(
      dy, x, mean, variance, epsilon, scale_bp, offset_bp, g);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchBatchNormBackprop(const T* dy, const T* x, const T* scale, const T* mean,
                                    const T* variance, T epsilon, const T* scale_bp,
                                    const T* offset_bp, bool training, T* dx,
                                    const BatchNormGeometry& g, cudaStream_t stream) {
  const int64_t total = g.outer * g.channels * g.inner;
  if (total == 0) return cudaSuccess;
  BackpropKernel<T><<<Blocks(total), 256, 0, stream>>>(dy, x, scale, mean, variance, epsilon,
                                                       scale_bp, offset_bp, training, dx, g);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_BATCH_NORM(T)                                                             \
  template cudaError_t LaunchBatchNormMoments<T>(const T*, T*, T*, const BatchNormGeometry&,       \
                                                 cudaStream_t);                                    \
  template cudaError_t LaunchBatchNormForward<T>(const T*, const T*, const T*, const T*, const T*, \
                                                 T, T*, const BatchNormGeometry&, cudaStream_t);   \
  template cudaError_t LaunchBatchNormRunning<T>(const T*, const T*, int64_t, T, const T*,         \
                                                 const T*, bool, T*, T*, int64_t, cudaStream_t);   \
  template cudaError_t LaunchBatchNormGradSums<T>(const T*, const T*, const T*, const T*, T, T*,   \
                                                  T*, const BatchNormGeometry&, cudaStream_t);     \
  template cudaError_t LaunchBatchNormBackprop<T>(const T*, const T*, const T*, const T*,          \
                                                  const T*, T, const T*, const T*, bool, T*,       \
                                                  const BatchNormGeometry&, cudaStream_t);
RILL_INSTANTIATE_BATCH_NORM(float)
RILL_INSTANTIATE_BATCH_NORM(double)

}  // namespace rill::gpu
