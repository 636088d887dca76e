// The float math ops of core/unary_math.h on the GPU: one kernel per op, each element
// through the formula the CPU kernels use; likewise IsNan, IsInf and IsFinite.
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <UnaryMath kOp, typename T>
__global__ void UnaryMathKernel(const T* x, T* y, int64_t n) {
  RILL_GRID_LOOP(i, n) { y[i] = ApplyUnaryMath<kOp, T>(x[i]); }
}

template <UnaryMath kOp, typename T>
cudaError_t Launch(const T* x, T* y, int64_t n, cudaStream_t stream) {
  UnaryMathKernel<kOp, T><<<Blocks(n), 256, 0, stream>>>(x, y, n);
  return cudaGetLastError();
}

template <FloatClass kClass, typename T>
__global__ void FloatClassKernel(const T* x, bool* y, int64_t n) {
  RILL_GRID_LOOP(i, n) { y[i] = IsFloatClass<kClass, T>(x[i]); }
}

}  // namespace

template <typename T>
cudaError_t LaunchFloatClass(FloatClass c, const T* x, bool* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  switch (c) {
    case FloatClass::kNan:
      FloatClassKernel<FloatClass::kNan, T><<<Blocks(n), 256, 0, stream>>>(x, y, n);
      break;
    case FloatClass::kInf:
      FloatClassKernel<FloatClass::kInf, T><<<Blocks(n), 256, 0, stream>>>(x, y, n);
      break;
    case FloatClass::kFinite:
      FloatClassKernel<FloatClass::kFinite, T><<<Blocks(n), 256, 0, stream>>>(x, y, n);
      break;
  }
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchUnary(UnaryMath op, const T* x, T* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  switch (op) {
    case UnaryMath::kRsqrt:
      return Launch<UnaryMath::kRsqrt>(x, y, n, stream);
    case UnaryMath::kReciprocal:
      return Launch<UnaryMath::kReciprocal>(x, y, n, stream);
    case UnaryMath::kFloor:
      return Launch<UnaryMath::kFloor>(x, y, n, stream);
    case UnaryMath::kCeil:
      return Launch<UnaryMath::kCeil>(x, y, n, stream);
    case UnaryMath::kRound:
      return Launch<UnaryMath::kRound>(x, y, n, stream);
    case UnaryMath::kSin:
      return Launch<UnaryMath::kSin>(x, y, n, stream);
    case UnaryMath::kCos:
      return Launch<UnaryMath::kCos>(x, y, n, stream);
    case UnaryMath::kErf:
      return Launch<UnaryMath::kErf>(x, y, n, stream);
    case UnaryMath::kSoftplus:
      return Launch<UnaryMath::kSoftplus>(x, y, n, stream);
    case UnaryMath::kExpm1:
      return Launch<UnaryMath::kExpm1>(x, y, n, stream);
    case UnaryMath::kLog1p:
      return Launch<UnaryMath::kLog1p>(x, y, n, stream);
    case UnaryMath::kSinh:
      return Launch<UnaryMath::kSinh>(x, y, n, stream);
    case UnaryMath::kCosh:
      return Launch<UnaryMath::kCosh>(x, y, n, stream);
    case UnaryMath::kTan:
      return Launch<UnaryMath::kTan>(x, y, n, stream);
    case UnaryMath::kAsin:
      return Launch<UnaryMath::kAsin>(x, y, n, stream);
    case UnaryMath::kAcos:
      return Launch<UnaryMath::kAcos>(x, y, n, stream);
    case UnaryMath::kAtan:
      return Launch<UnaryMath::kAtan>(x, y, n, stream);
    case UnaryMath::kAsinh:
      return Launch<UnaryMath::kAsinh>(x, y, n, stream);
    case UnaryMath::kAcosh:
      return Launch<UnaryMath::kAcosh>(x, y, n, stream);
    case UnaryMath::kAtanh:
      return Launch<UnaryMath::kAtanh>(x, y, n, stream);
    case UnaryMath::kSoftsign:
      return Launch<UnaryMath::kSoftsign>(x, y, n, stream);
    case UnaryMath::kLgamma:
      return Launch<UnaryMath::kLgamma>(x, y, n, stream);
    case UnaryMath::kDigamma:
      return Launch<UnaryMath::kDigamma>(x, y, n, stream);
    case UnaryMath::kErfc:
      return Launch<UnaryMath::kErfc>(x, y, n, stream);
  }
  return cudaErrorInvalidValue;
}

template cudaError_t LaunchUnary<float>(UnaryMath, const float*, float*, int64_t, cudaStream_t);
template cudaError_t LaunchUnary<double>(UnaryMath, const double*, double*, int64_t, cudaStream_t);
template cudaError_t LaunchFloatClass<float>(FloatClass, const float*, bool*, int64_t,
                                             cudaStream_t);
template cudaError_t LaunchFloatClass<double>(FloatClass, const double*, bool*, int64_t,
                                              cudaStream_t);

}  // namespace rill::gpu
