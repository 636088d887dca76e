// CUDA kernels of RandomUniformInt and Multinomial: one thread per element or sample,
// running core/random_draw_row.h's draws (the CPU kernels' own). The first Philox block's
// counter comes by value, or from device memory in a recorded step (first_at).
#include "rill/core/random_draw_row.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T>
__global__ void UniformIntKernel(T* y, int64_t n, T lo, uint64_t range, uint64_t key,
                                 uint64_t first, const uint64_t* first_at) {
  const uint64_t base = first_at != nullptr ? *first_at : first;
  RILL_GRID_LOOP(i, n) {
    y[i] =
        random::UniformInt<T>(random::Philox(key, 0, base + static_cast<uint64_t>(i)), lo, range);
  }
}

// Sample i of row i / samples: the row's largest finite logit and whole weight, then the
// class its draw falls in (each thread reads its row three times; rows are short).
template <typename T, typename Out>
__global__ void MultinomialKernel(const T* logits, Out* y, int64_t classes, int64_t samples,
                                  int64_t n, uint64_t key, uint64_t first,
                                  const uint64_t* first_at) {
  const uint64_t base = first_at != nullptr ? *first_at : first;
  RILL_GRID_LOOP(i, n) {
    const T* row = logits + (i / samples) * classes;
    const double max = random::MaxFiniteLogit(row, classes);
    double total = 0;
    for (int64_t j = 0; j < classes; ++j) total += random::ClassWeight(row[j], max);
    const random::Block b = random::Philox(key, 0, base + static_cast<uint64_t>(i));
    y[i] = static_cast<Out>(
        random::ClassOfDraw(row, classes, max, total, random::ToDouble(b[0], b[1])));
  }
}

}  // namespace

template <typename T>
cudaError_t LaunchRandomUniformInt(T* y, int64_t n, T lo, uint64_t range, uint64_t key,
                                   uint64_t base, const uint64_t* base_at, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  UniformIntKernel<T><<<Blocks(n), 256, 0, stream>>>(y, n, lo, range, key, base, base_at);
  return cudaGetLastError();
}

template <typename T, typename Out>
cudaError_t LaunchMultinomial(const T* logits, Out* y, int64_t batch, int64_t classes,
                              int64_t samples, uint64_t key, uint64_t base, const uint64_t* base_at,
                              cudaStream_t stream) {
  const int64_t n = batch * samples;
  if (n == 0) return cudaSuccess;
  MultinomialKernel<T, Out>
      <<<Blocks(n), 256, 0, stream>>>(logits, y, classes, samples, n, key, base, base_at);
  return cudaGetLastError();
}

template cudaError_t LaunchRandomUniformInt<int32_t>(int32_t*, int64_t, int32_t, uint64_t, uint64_t,
                                                     uint64_t, const uint64_t*, cudaStream_t);
template cudaError_t LaunchRandomUniformInt<int64_t>(int64_t*, int64_t, int64_t, uint64_t, uint64_t,
                                                     uint64_t, const uint64_t*, cudaStream_t);
#define RILL_INSTANTIATE_MULTINOMIAL(T, Out)                                                \
  template cudaError_t LaunchMultinomial<T, Out>(const T*, Out*, int64_t, int64_t, int64_t, \
                                                 uint64_t, uint64_t, const uint64_t*,       \
                                                 cudaStream_t);
RILL_INSTANTIATE_MULTINOMIAL(float, int32_t)
RILL_INSTANTIATE_MULTINOMIAL(float, int64_t)
RILL_INSTANTIATE_MULTINOMIAL(double, int32_t)
RILL_INSTANTIATE_MULTINOMIAL(double, int64_t)

}  // namespace rill::gpu
