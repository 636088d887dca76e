// CUDA kernels for training: activation gradients, fused losses, optimizer updates.
#include <cmath>

#include "rill/core/activation.h"
#include "rill/core/crossentropy_row.h"
#include "rill/core/philox.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

// ReluGrad(gradients, features); SigmoidGrad(y, dy) and TanhGrad(y, dy).
template <FusedActivation kAct, typename T>
__global__ void ActGradKernel(const T* a, const T* b, T* out, int64_t n) {
  RILL_GRID_LOOP(i, n) {
    out[i] = kAct == FusedActivation::kRelu ? ActivationBackprop<kAct>(a[i], b[i])
                                            : ActivationBackprop<kAct>(b[i], a[i]);
  }
}

// One thread per row: rows are short (classes), batches wide.
template <typename T, typename Index>
__global__ void SoftmaxXentKernel(const T* f, const T* labels, const Index* ids, T* loss, T* bp,
                                  int64_t rows, int64_t cols) {
  RILL_GRID_LOOP(r, rows) {
    const T* x = f + r * cols;
    T* out = bp + r * cols;
    T mx = x[0];
    for (int64_t c = 1; c < cols; ++c) mx = x[c] > mx ? x[c] : mx;
    T sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += exp(x[c] - mx);
    // Shifted by the max, as the CPU: x - (log(sum) + max) would round at the scale of
    // the logits and cost float32 digits when they are large.
    const T log_sum = log(sum);
    if (ids != nullptr) {
      const int64_t id = static_cast<int64_t>(ids[r]);  // checked on the host
      for (int64_t c = 0; c < cols; ++c) out[c] = exp(x[c] - mx) / sum - (c == id ? T(1) : T(0));
      loss[r] = log_sum - (x[id] - mx);
    } else {
      const T* l = labels + r * cols;
      T total = 0, lsum = 0;
      for (int64_t c = 0; c < cols; ++c) {
        total += l[c] * (log_sum - (x[c] - mx));
        lsum += l[c];
      }
      for (int64_t c = 0; c < cols; ++c) out[c] = exp(x[c] - mx) / sum * lsum - l[c];
      loss[r] = total;
    }
  }
}

template <typename T>
__global__ void CategoricalCrossentropyKernel(const T* p, const T* y, T* loss, T* bp, int64_t rows,
                                              int64_t cols, T eps) {
  RILL_GRID_LOOP(r, rows) {
    CategoricalCrossentropyRow<T>(p + r * cols, y + r * cols, cols, eps, loss + r, bp + r * cols);
  }
}

template <typename T>
__global__ void SigmoidXentKernel(const T* x, const T* z, T* out, int64_t n) {
  RILL_GRID_LOOP(i, n) {
    const T a = x[i];
    out[i] = (a > T(0) ? a : T(0)) - a * z[i] + log1p(exp(-(a < T(0) ? -a : a)));
  }
}

template <typename T>
__global__ void DropoutKernel(const T* x, T* out, T* mask, int64_t n, float rate, uint64_t key,
                              uint64_t first, const uint64_t* first_at) {
  const uint64_t base = first_at != nullptr ? *first_at : first;
  const T scale = T(1) / (T(1) - static_cast<T>(rate));
  RILL_GRID_LOOP(i, n) {
    const random::Block b = random::Philox(key, 0, base + static_cast<uint64_t>(i / 4));
    mask[i] = random::ToFloat(b[static_cast<int>(i % 4)]) >= rate ? scale : T(0);
    out[i] = x[i] * mask[i];
  }
}

template <typename T>
__global__ void GradientDescentKernel(T* var, const T* alpha, const T* delta, int64_t n) {
  const T a = *alpha;
  RILL_GRID_LOOP(i, n) { var[i] -= a * delta[i]; }
}

// The (alpha, beta) pair of an in-place GEMM update: (-lr, 1).
template <typename T>
__global__ void GemmUpdateScalarsKernel(const T* lr, T* scalars) {
  scalars[0] = -*lr;
  scalars[1] = T(1);
}

template <typename T>
__global__ void MomentumKernel(T* var, T* accum, const T* lr, const T* grad, const T* momentum,
                               bool nesterov, int64_t n) {
  const T l = *lr, m = *momentum;
  RILL_GRID_LOOP(i, n) {
    accum[i] = accum[i] * m + grad[i];
    var[i] -= nesterov ? grad[i] * l + accum[i] * m * l : accum[i] * l;
  }
}

template <typename T>
__global__ void AdamKernel(T* var, T* m, T* v, const T* b1p, const T* b2p, const T* lr,
                           const T* beta1, const T* beta2, const T* eps, const T* grad,
                           bool nesterov, int64_t n) {
  const T b1 = *beta1, b2 = *beta2, e = *eps;
  const T lr_t = *lr * sqrt(T(1) - *b2p) / (T(1) - *b1p);
  RILL_GRID_LOOP(i, n) {
    const T g = grad[i];
    m[i] += (g - m[i]) * (T(1) - b1);
    v[i] += (g * g - v[i]) * (T(1) - b2);
    const T step = nesterov ? m[i] * b1 + g * (T(1) - b1) : m[i];
    var[i] -= step * lr_t / (sqrt(v[i]) + e);
  }
}

}  // namespace

template <typename T>
cudaError_t LaunchActivationGrad(FusedActivation kind, const T* a, const T* b, T* out, int64_t n,
                                 cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (kind == FusedActivation::kRelu) {
    ActGradKernel<FusedActivation::kRelu, T><<<Blocks(n), 256, 0, stream>>>(a, b, out, n);
  } else if (kind == FusedActivation::kSigmoid) {
    ActGradKernel<FusedActivation::kSigmoid, T><<<Blocks(n), 256, 0, stream>>>(a, b, out, n);
  } else {
    ActGradKernel<FusedActivation::kTanh, T><<<Blocks(n), 256, 0, stream>>>(a, b, out, n);
  }
  return cudaGetLastError();
}

template <typename T, typename Index>
cudaError_t LaunchSoftmaxXent(const T* features, const T* labels, const Index* ids, T* loss,
                              T* backprop, int64_t rows, int64_t cols, cudaStream_t stream) {
  if (rows == 0 || cols == 0) return cudaSuccess;
  SoftmaxXentKernel<T, Index>
      <<<Blocks(rows), 256, 0, stream>>>(features, labels, ids, loss, backprop, rows, cols);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchCategoricalCrossentropy(const T* output, const T* labels, T* loss, T* backprop,
                                          int64_t rows, int64_t cols, T epsilon,
                                          cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  CategoricalCrossentropyKernel<T>
      <<<Blocks(rows), 256, 0, stream>>>(output, labels, loss, backprop, rows, cols, epsilon);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchSigmoidXent(const T* logits, const T* labels, T* loss, int64_t n,
                              cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  SigmoidXentKernel<T><<<Blocks(n), 256, 0, stream>>>(logits, labels, loss, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchDropout(const T* x, T* out, T* mask, int64_t n, float rate, uint64_t key,
                          uint64_t base, const uint64_t* base_at, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  DropoutKernel<T><<<Blocks(n), 256, 0, stream>>>(x, out, mask, n, rate, key, base, base_at);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchApplyGradientDescent(T* var, const T* alpha, const T* delta, int64_t n,
                                       cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  GradientDescentKernel<T><<<Blocks(n), 256, 0, stream>>>(var, alpha, delta, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchGemmUpdateScalars(const T* lr, T* scalars, cudaStream_t stream) {
  GemmUpdateScalarsKernel<T><<<1, 1, 0, stream>>>(lr, scalars);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchApplyMomentum(T* var, T* accum, const T* lr, const T* grad, const T* momentum,
                                bool nesterov, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MomentumKernel<T><<<Blocks(n), 256, 0, stream>>>(var, accum, lr, grad, momentum, nesterov, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchApplyAdam(T* var, T* m, T* v, const T* beta1_power, const T* beta2_power,
                            const T* lr, const T* beta1, const T* beta2, const T* epsilon,
                            const T* grad, bool nesterov, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  AdamKernel<T><<<Blocks(n), 256, 0, stream>>>(var, m, v, beta1_power, beta2_power, lr, beta1,
                                               beta2, epsilon, grad, nesterov, n);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_TRAINING(T)                                                               \
  template cudaError_t LaunchActivationGrad<T>(FusedActivation, const T*, const T*, T*, int64_t,   \
                                               cudaStream_t);                                      \
  template cudaError_t LaunchSoftmaxXent<T, int32_t>(const T*, const T*, const int32_t*, T*, T*,   \
                                                     int64_t, int64_t, cudaStream_t);              \
  template cudaError_t LaunchSoftmaxXent<T, int64_t>(const T*, const T*, const int64_t*, T*, T*,   \
                                                     int64_t, int64_t, cudaStream_t);              \
  template cudaError_t LaunchSigmoidXent<T>(const T*, const T*, T*, int64_t, cudaStream_t);        \
  template cudaError_t LaunchCategoricalCrossentropy<T>(const T*, const T*, T*, T*, int64_t,       \
                                                        int64_t, T, cudaStream_t);                 \
  template cudaError_t LaunchDropout<T>(const T*, T*, T*, int64_t, float, uint64_t, uint64_t,      \
                                        const uint64_t*, cudaStream_t);                            \
  template cudaError_t LaunchApplyGradientDescent<T>(T*, const T*, const T*, int64_t,              \
                                                     cudaStream_t);                                \
  template cudaError_t LaunchGemmUpdateScalars<T>(const T*, T*, cudaStream_t);                     \
  template cudaError_t LaunchApplyMomentum<T>(T*, T*, const T*, const T*, const T*, bool, int64_t, \
                                              cudaStream_t);                                       \
  template cudaError_t LaunchApplyAdam<T>(T*, T*, T*, const T*, const T*, const T*, const T*,      \
                                          const T*, const T*, const T*, bool, int64_t,             \
                                          cudaStream_t);
RILL_INSTANTIATE_TRAINING(float)
RILL_INSTANTIATE_TRAINING(double)

}  // namespace rill::gpu
