// Reductions, ArgMax, Softmax and random numbers on the GPU. Reductions give one thread
// per output element a loop over the reduced extent; when there are few outputs over
// long rows (a full Sum of a matrix), blocks first reduce chunks of each row with a tree
// in shared memory, then one thread per output adds its chunks. Both orders are fixed,
// so a result does not change from run to run.
#include <cfloat>
#include <cmath>
#include <limits>

#include "rill/core/philox.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
__device__ T Lowest() {
  if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}
template <typename T>
__device__ T Highest() {
  if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::max();
}

// What a reduction starts from: the value an empty reduction gives.
template <typename T>
__device__ T ReduceIdentity(ReduceKind op) {
  switch (op) {
    case ReduceKind::kSum:
      return T(0);
    case ReduceKind::kProd:
      return T(1);
    case ReduceKind::kMax:
      return Lowest<T>();
    default:
      return Highest<T>();
  }
}

template <typename T>
__device__ T Combine(ReduceKind op, T acc, T v) {
  if (op == ReduceKind::kSum) return static_cast<T>(acc + v);
  if (op == ReduceKind::kProd) return static_cast<T>(acc * v);
  if (op == ReduceKind::kMax) return v > acc ? v : acc;
  return v < acc ? v : acc;
}

template <typename T>
__global__ void ReduceKernel(ReduceKind op, const T* x, T* y, int64_t outer, int64_t r,
                             int64_t inner) {
  const int64_t n = outer * inner;
  RILL_GRID_LOOP(i, n) {
    const int64_t o = i / inner, in = i % inner;
    const T* p = x + o * r * inner + in;
    T acc = ReduceIdentity<T>(op);
    for (int64_t k = 0; k < r; ++k) acc = Combine(op, acc, p[k * inner]);
    y[i] = acc;
  }
}

constexpr int kChunkThreads = 256;
constexpr int64_t kChunk = 16 * kChunkThreads;

// Block b reduces chunk b % chunks of output b / chunks into partial[b].
template <typename T>
__global__ void ReduceChunksKernel(ReduceKind op, const T* x, T* partial, int64_t outputs,
                                   int64_t r, int64_t inner, int64_t chunks) {
  __shared__ T tree[kChunkThreads];
  for (int64_t b = blockIdx.x; b < outputs * chunks; b += gridDim.x) {
    const int64_t i = b / chunks, j = b % chunks;
    const T* p = x + (i / inner) * r * inner + i % inner;
    const int64_t end = j * kChunk + kChunk < r ? j * kChunk + kChunk : r;
    T acc = ReduceIdentity<T>(op);
    for (int64_t k = j * kChunk + threadIdx.x; k < end; k += kChunkThreads) {
      acc = Combine(op, acc, p[k * inner]);
    }
    tree[threadIdx.x] = acc;
    __syncthreads();
    for (int w = kChunkThreads / 2; w > 0; w /= 2) {
      if (threadIdx.x < w)
        tree[threadIdx.x] = Combine(op, tree[threadIdx.x], tree[threadIdx.x + w]);
      __syncthreads();
    }
    if (threadIdx.x == 0) partial[b] = tree[0];
    __syncthreads();
  }
}

template <typename T>
__global__ void ScaleKernel(T* y, int64_t divisor, int64_t n) {
  RILL_GRID_LOOP(i, n) {
    if (divisor > 0) {
      y[i] = static_cast<T>(y[i] / static_cast<T>(divisor));
    } else if constexpr (std::is_floating_point_v<T>) {
      y[i] = std::numeric_limits<T>::quiet_NaN();
    }
  }
}

template <typename T, typename Index>
__global__ void ArgMaxKernel(const T* x, Index* y, int64_t outer, int64_t r, int64_t inner,
                             bool min) {
  const int64_t n = outer * inner;
  RILL_GRID_LOOP(i, n) {
    const T* p = x + (i / inner) * r * inner + i % inner;
    int64_t best = 0;
    for (int64_t k = 1; k < r; ++k)
      if (min ? p[k * inner] < p[best * inner] : p[k * inner] > p[best * inner]) best = k;
    y[i] = static_cast<Index>(best);
  }
}

// One thread per row.
template <typename T>
__global__ void SoftmaxKernel(const T* x, T* y, int64_t rows, int64_t cols, bool log_softmax) {
  RILL_GRID_LOOP(row, rows) {
    const T* in = x + row * cols;
    T* out = y + row * cols;
    T mx = in[0];
    for (int64_t c = 1; c < cols; ++c) mx = in[c] > mx ? in[c] : mx;
    T sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += exp(in[c] - mx);
    if (log_softmax) {
      T lse = log(sum);
      for (int64_t c = 0; c < cols; ++c) out[c] = in[c] - mx - lse;
    } else {
      for (int64_t c = 0; c < cols; ++c) out[c] = exp(in[c] - mx) / sum;
    }
  }
}

template <typename T>
__device__ T UniformFrom(const random::Block& b, int j) {
  if constexpr (std::is_same_v<T, float>) {
    return random::ToFloat(b[j]);
  } else {
    return random::ToDouble(b[j], b[j + 1]);
  }
}

// The same sampling as kernels/cpu/random_ops.cc, element by element.
template <typename T>
__global__ void RandomKernel(RandomKind kind, T* y, int64_t n, uint64_t key, uint64_t first,
                             const uint64_t* first_at) {
  const uint64_t base = first_at != nullptr ? *first_at : first;
  RILL_GRID_LOOP(i, n) {
    const uint64_t counter = base + static_cast<uint64_t>(i);
    random::Block b = random::Philox(key, 0, counter);
    if (kind == RandomKind::kUniform) {
      y[i] = UniformFrom<T>(b, 0);
      continue;
    }
    for (uint64_t attempt = 0;; ++attempt) {
      T z0, z1;
      random::BoxMuller(T(1) - UniformFrom<T>(b, 0), UniformFrom<T>(b, 2), &z0, &z1);
      if (kind == RandomKind::kNormal) {
        y[i] = z0;
        break;
      }
      if (fabs(z0) < T(2)) {
        y[i] = z0;
        break;
      }
      if (fabs(z1) < T(2)) {
        y[i] = z1;
        break;
      }
      b = random::Philox(key, attempt + 1, counter);
    }
  }
}

}  // namespace

int64_t ReduceScratchElements(int64_t outputs, int64_t r) {
  // One thread per output is enough when the outputs fill the GPU or the rows are short.
  if (outputs >= 32768 || r < 2 * kChunk) return 0;
  return outputs * ((r + kChunk - 1) / kChunk);
}

template <typename T>
cudaError_t LaunchReduce(ReduceKind op, const T* x, T* y, int64_t outer, int64_t r, int64_t inner,
                         T* scratch, cudaStream_t stream) {
  const int64_t outputs = outer * inner;
  if (outputs == 0) return cudaSuccess;
  if (scratch != nullptr && ReduceScratchElements(outputs, r) > 0) {
    const int64_t chunks = (r + kChunk - 1) / kChunk;
    const int64_t blocks = outputs * chunks < 65535 * 8 ? outputs * chunks : 65535 * 8;
    ReduceChunksKernel<T><<<static_cast<unsigned>(blocks), kChunkThreads, 0, stream>>>(
        op, x, scratch, outputs, r, inner, chunks);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    x = scratch;  // [outputs, chunks]
    outer = outputs;
    r = chunks;
    inner = 1;
  }
  ReduceKernel<T><<<Blocks(outputs), 256, 0, stream>>>(op, x, y, outer, r, inner);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchScale(T* y, T /*unused*/, int64_t divisor, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  ScaleKernel<T><<<Blocks(n), 256, 0, stream>>>(y, divisor, n);
  return cudaGetLastError();
}

template <typename T, typename Index>
cudaError_t LaunchArgMax(const T* x, Index* y, int64_t outer, int64_t r, int64_t inner, bool min,
                         cudaStream_t stream) {
  if (outer * inner == 0) return cudaSuccess;
  ArgMaxKernel<T, Index><<<Blocks(outer * inner), 256, 0, stream>>>(x, y, outer, r, inner, min);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchSoftmax(const T* x, T* y, int64_t rows, int64_t cols, bool log,
                          cudaStream_t stream) {
  if (rows * cols == 0) return cudaSuccess;
  SoftmaxKernel<T><<<Blocks(rows), 256, 0, stream>>>(x, y, rows, cols, log);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchRandom(RandomKind kind, T* y, int64_t n, uint64_t key, uint64_t base,
                         const uint64_t* base_at, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  RandomKernel<T><<<Blocks(n), 256, 0, stream>>>(kind, y, n, key, base, base_at);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_REDUCE(T)                                                              \
  template cudaError_t LaunchReduce<T>(ReduceKind, const T*, T*, int64_t, int64_t, int64_t, T*, \
                                       cudaStream_t);                                           \
  template cudaError_t LaunchScale<T>(T*, T, int64_t, int64_t, cudaStream_t);                   \
  template cudaError_t LaunchArgMax<T, int32_t>(const T*, int32_t*, int64_t, int64_t, int64_t,  \
                                                bool, cudaStream_t);                            \
  template cudaError_t LaunchArgMax<T, int64_t>(const T*, int64_t*, int64_t, int64_t, int64_t,  \
                                                bool, cudaStream_t);
RILL_INSTANTIATE_REDUCE(float)
RILL_INSTANTIATE_REDUCE(double)
RILL_INSTANTIATE_REDUCE(int32_t)
RILL_INSTANTIATE_REDUCE(int64_t)
RILL_INSTANTIATE_REDUCE(uint8_t)
// All and Any: the min and max of bools.
template cudaError_t LaunchReduce<bool>(ReduceKind, const bool*, bool*, int64_t, int64_t, int64_t,
                                        bool*, cudaStream_t);
template cudaError_t LaunchSoftmax<float>(const float*, float*, int64_t, int64_t, bool,
                                          cudaStream_t);
template cudaError_t LaunchSoftmax<double>(const double*, double*, int64_t, int64_t, bool,
                                           cudaStream_t);
template cudaError_t LaunchRandom<float>(RandomKind, float*, int64_t, uint64_t, uint64_t,
                                         const uint64_t*, cudaStream_t);
template cudaError_t LaunchRandom<double>(RandomKind, double*, int64_t, uint64_t, uint64_t,
                                          const uint64_t*, cudaStream_t);

}  // namespace rill::gpu
