// CUDA kernels of _BiasActivation and _BiasActivationGrad: the bias add and the activation
// in one elementwise pass; the activation's gradient and the bias's column sums in one
// pass over [rows, channels] (plus a small second pass when the rows are split).
#include "rill/core/activation.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/grid.cuh"

namespace rill::gpu {
namespace {

constexpr int kCols = 32, kLanes = 8;   // a gradient block: 32 columns x 8 row lanes
constexpr int64_t kTargetBlocks = 256;  // about two blocks per SM of an H100
constexpr int64_t kMinRowsPerPart = 64;

template <FusedActivation kAct, typename T>
__global__ void BiasActivationKernel(const T* x, const T* bias, T* y, int64_t n, int64_t c) {
  RILL_GRID_LOOP(i, n) { y[i] = Activate<kAct>(x[i] + bias[i % c]); }
}

// Block (bx, by): columns [32 bx, 32 bx + 32), rows by * 8 + lane, stepping 8 * gridDim.y.
// Writes dz and the block's column sums to partial[by * c + col] (the bias gradient
// itself when gridDim.y is 1). Fixed summation order: deterministic.
template <FusedActivation kAct, typename T>
__global__ void BiasActivationGradKernel(const T* dy, const T* y, T* dz, T* partial, int64_t rows,
                                         int64_t c) {
  __shared__ T sums[kLanes][kCols + 1];
  const int64_t col = blockIdx.x * int64_t{kCols} + threadIdx.x;
  T acc = T(0);
  if (col < c) {
    for (int64_t r = blockIdx.y * int64_t{kLanes} + threadIdx.y; r < rows;
         r += int64_t{kLanes} * gridDim.y) {
      const int64_t i = r * c + col;
      const T d = ActivationBackprop<kAct>(dy[i], y[i]);
      dz[i] = d;
      acc += d;
    }
  }
  sums[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.y == 0 && col < c) {
    T total = T(0);
    for (int k = 0; k < kLanes; ++k) total += sums[k][threadIdx.x];
    partial[blockIdx.y * c + col] = total;
  }
}

template <typename T>
__global__ void SumPartsKernel(const T* partial, T* db, int64_t parts, int64_t c) {
  RILL_GRID_LOOP(col, c) {
    T total = T(0);
    for (int64_t p = 0; p < parts; ++p) total += partial[p * c + col];
    db[col] = total;
  }
}

int64_t Parts(int64_t rows, int64_t channels) {
  const int64_t col_blocks = (channels + kCols - 1) / kCols;
  int64_t parts = (kTargetBlocks + col_blocks - 1) / col_blocks;
  const int64_t by_rows = (rows + kMinRowsPerPart - 1) / kMinRowsPerPart;
  if (parts > by_rows) parts = by_rows;
  if (parts > 65535) parts = 65535;
  return parts < 1 ? 1 : parts;
}

template <FusedActivation kAct, typename T>
cudaError_t GradWith(const T* dy, const T* y, T* dz, T* db, T* scratch, int64_t rows, int64_t c,
                     cudaStream_t stream) {
  const int64_t parts = Parts(rows, c);
  const dim3 grid(static_cast<unsigned>((c + kCols - 1) / kCols), static_cast<unsigned>(parts));
  const dim3 block(kCols, kLanes);
  BiasActivationGradKernel<kAct, T>
      <<<grid, block, 0, stream>>>(dy, y, dz, parts == 1 ? db : scratch, rows, c);
  if (parts > 1) SumPartsKernel<T><<<Blocks(c), 256, 0, stream>>>(scratch, db, parts, c);
  return cudaGetLastError();
}

}  // namespace

int64_t BiasActivationGradScratch(int64_t rows, int64_t channels) {
  const int64_t parts = channels == 0 ? 1 : Parts(rows, channels);
  return parts == 1 ? 0 : parts * channels;
}

template <typename T>
cudaError_t LaunchBiasActivation(FusedActivation act, const T* x, const T* bias, T* y, int64_t n,
                                 int64_t channels, cudaStream_t stream) {
  if (n == 0 || channels == 0) return cudaSuccess;
  const unsigned blocks = Blocks(n);
  switch (act) {
    case FusedActivation::kRelu:
      BiasActivationKernel<FusedActivation::kRelu, T>
          <<<blocks, 256, 0, stream>>>(x, bias, y, n, channels);
      break;
    case FusedActivation::kSigmoid:
      BiasActivationKernel<FusedActivation::kSigmoid, T>
          <<<blocks, 256, 0, stream>>>(x, bias, y, n, channels);
      break;
    case FusedActivation::kTanh:
      BiasActivationKernel<FusedActivation::kTanh, T>
          <<<blocks, 256, 0, stream>>>(x, bias, y, n, channels);
      break;
  }
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchBiasActivationGrad(FusedActivation act, const T* dy, const T* y, T* dz, T* db,
                                     T* scratch, int64_t rows, int64_t channels,
                                     cudaStream_t stream) {
  if (channels == 0) return cudaSuccess;
  switch (act) {
    case FusedActivation::kSigmoid:
      return GradWith<FusedActivation::kSigmoid, T>(dy, y, dz, db, scratch, rows, channels, stream);
    case FusedActivation::kTanh:
      return GradWith<FusedActivation::kTanh, T>(dy, y, dz, db, scratch, rows, channels, stream);
    default:
      return GradWith<FusedActivation::kRelu, T>(dy, y, dz, db, scratch, rows, channels, stream);
  }
}

#define RILL_INSTANTIATE_BIAS_ACT(T)                                                             \
  template cudaError_t LaunchBiasActivation<T>(FusedActivation, const T*, const T*, T*, int64_t, \
                                               int64_t, cudaStream_t);                           \
  template cudaError_t LaunchBiasActivationGrad<T>(FusedActivation, const T*, const T*, T*, T*,  \
                                                   T*, int64_t, int64_t, cudaStream_t);
RILL_INSTANTIATE_BIAS_ACT(float)
RILL_INSTANTIATE_BIAS_ACT(double)

}  // namespace rill::gpu
