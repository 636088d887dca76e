// Elementwise CUDA kernels: grid-stride loops; broadcasting by the collapsed-dims plan.
#include <cmath>

#include "rill/core/binary_math.h"
#include "rill/core/cast_value.h"
#include "rill/core/special_math.h"
#include "rill/kernels/cuda/grid.cuh"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

struct Plan {
  int rank;
  int64_t dims[kMaxTensorRank], a[kMaxTensorRank], b[kMaxTensorRank];
};

template <typename T>
__device__ T IntPow(T base, T exp) {
  T r = 1;
  while (exp > 0) {
    if (exp & 1) r = r * base;
    base = base * base;
    exp >>= 1;
  }
  return r;
}

template <typename T>
__device__ T Pow(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    return IntPow(x, y);
  } else {
    return pow(x, y);
  }
}

template <typename T, typename Out>
__global__ void BinaryKernel(BinaryKind op, const T* a, const T* b, Out* out, int64_t n, Plan p) {
  RILL_GRID_LOOP(i, n) {
    int64_t rem = i, ia = 0, ib = 0;
    for (int d = p.rank - 1; d >= 0; --d) {
      int64_t idx = rem % p.dims[d];
      rem /= p.dims[d];
      ia += idx * p.a[d];
      ib += idx * p.b[d];
    }
    T x = a[ia], y = b[ib];
    switch (op) {
      case BinaryKind::kAdd:
        out[i] = static_cast<Out>(x + y);
        break;
      case BinaryKind::kSub:
        out[i] = static_cast<Out>(x - y);
        break;
      case BinaryKind::kSquaredDifference:
        out[i] = static_cast<Out>((x - y) * (x - y));
        break;
      case BinaryKind::kPolygamma:
        if constexpr (std::is_floating_point_v<T>) out[i] = static_cast<Out>(Polygamma(x, y));
        break;
      case BinaryKind::kFloorDiv:
        if constexpr (std::is_floating_point_v<T>) out[i] = static_cast<Out>(FloorDivOf(x, y));
        break;
      case BinaryKind::kFloorMod:
        if constexpr (std::is_floating_point_v<T>) out[i] = static_cast<Out>(FloorModOf(x, y));
        break;
      case BinaryKind::kTruncateDiv:
        if constexpr (std::is_floating_point_v<T>) out[i] = static_cast<Out>(TruncateDivOf(x, y));
        break;
      case BinaryKind::kTruncateMod:
        if constexpr (std::is_floating_point_v<T>) out[i] = static_cast<Out>(TruncateModOf(x, y));
        break;
      case BinaryKind::kAtan2:
        if constexpr (std::is_floating_point_v<T>) out[i] = static_cast<Out>(atan2(x, y));
        break;
      case BinaryKind::kDivNoNan:
        if constexpr (std::is_floating_point_v<T>)
          out[i] = SafeBinaryOf<SafeBinary::kDivNoNan>(x, y);
        break;
      case BinaryKind::kMulNoNan:
        if constexpr (std::is_floating_point_v<T>)
          out[i] = SafeBinaryOf<SafeBinary::kMulNoNan>(x, y);
        break;
      case BinaryKind::kXlogy:
        if constexpr (std::is_floating_point_v<T>) out[i] = SafeBinaryOf<SafeBinary::kXlogy>(x, y);
        break;
      case BinaryKind::kXlog1py:
        if constexpr (std::is_floating_point_v<T>)
          out[i] = SafeBinaryOf<SafeBinary::kXlog1py>(x, y);
        break;
      case BinaryKind::kXdivy:
        if constexpr (std::is_floating_point_v<T>) out[i] = SafeBinaryOf<SafeBinary::kXdivy>(x, y);
        break;
      case BinaryKind::kMul:
        out[i] = static_cast<Out>(x * y);
        break;
      case BinaryKind::kDiv:
        out[i] = static_cast<Out>(x / y);
        break;
      case BinaryKind::kPow:
        out[i] = static_cast<Out>(Pow(x, y));
        break;
      case BinaryKind::kMax:
        out[i] = static_cast<Out>(x > y ? x : y);
        break;
      case BinaryKind::kMin:
        out[i] = static_cast<Out>(x < y ? x : y);
        break;
      case BinaryKind::kEqual:
        out[i] = static_cast<Out>(x == y);
        break;
      case BinaryKind::kLess:
        out[i] = static_cast<Out>(x < y);
        break;
      case BinaryKind::kGreater:
        out[i] = static_cast<Out>(x > y);
        break;
      case BinaryKind::kNotEqual:
        out[i] = static_cast<Out>(x != y);
        break;
      case BinaryKind::kLessEqual:
        out[i] = static_cast<Out>(x <= y);
        break;
      case BinaryKind::kGreaterEqual:
        out[i] = static_cast<Out>(x >= y);
        break;
      case BinaryKind::kLogicalAnd:
        out[i] = static_cast<Out>(x && y);
        break;
      case BinaryKind::kLogicalOr:
        out[i] = static_cast<Out>(x || y);
        break;
    }
  }
}

template <typename T>
__device__ T Unary(UnaryKind op, T x) {
  if constexpr (std::is_same_v<T, bool>) return op == UnaryKind::kLogicalNot ? !x : x;
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case UnaryKind::kSqrt:
        return sqrt(x);
      case UnaryKind::kExp:
        return exp(x);
      case UnaryKind::kLog:
        return log(x);
      case UnaryKind::kSigmoid:
        return T(1) / (T(1) + exp(-x));
      case UnaryKind::kTanh:
        return tanh(x);
      default:
        break;
    }
  }
  if constexpr (std::is_signed_v<T>) {
    switch (op) {
      case UnaryKind::kNeg:
        return -x;
      case UnaryKind::kAbs:
        return x < T(0) ? -x : x;
      case UnaryKind::kRelu:
        return x > T(0) ? x : T(0);
      case UnaryKind::kSign:
        return static_cast<T>((x > T(0)) - (x < T(0)));
      default:
        break;
    }
  }
  return op == UnaryKind::kSquare ? static_cast<T>(x * x) : x;
}

template <typename T>
__global__ void UnaryKernel(UnaryKind op, const T* x, T* y, int64_t n) {
  RILL_GRID_LOOP(i, n) { y[i] = Unary(op, x[i]); }
}

template <typename T>
__global__ void ClipKernel(const T* x, const T* lo, int64_t ls, const T* hi, int64_t hs, T* y,
                           int64_t n) {
  RILL_GRID_LOOP(i, n) { y[i] = ClipValue(x[i], lo[i * ls], hi[i * hs]); }
}

template <typename From, typename To>
__global__ void CastKernel(const From* x, To* y, int64_t n, bool truncate) {
  RILL_GRID_LOOP(i, n) { y[i] = CastValue<To>(x[i], truncate); }
}

template <typename T>
__global__ void AxpyKernel(T scale, const T* x, T* y, int64_t n) {
  RILL_GRID_LOOP(i, n) { y[i] = static_cast<T>(y[i] + scale * x[i]); }
}

template <typename T>
__global__ void FillKernel(const T* value, T v, T* y, int64_t n) {
  const T fill = value ? *value : v;
  RILL_GRID_LOOP(i, n) { y[i] = fill; }
}

}  // namespace

template <typename T>
cudaError_t LaunchBinary(BinaryKind op, const T* a, const T* b, void* out, int64_t n,
                         const BroadcastPlan& bp, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  Plan p;
  p.rank = bp.rank;
  for (int d = 0; d < bp.rank; ++d) {
    p.dims[d] = bp.dims[d];
    p.a[d] = bp.a_strides[d];
    p.b[d] = bp.b_strides[d];
  }
  if (IsComparison(op)) {
    BinaryKernel<T, bool><<<Blocks(n), 256, 0, stream>>>(op, a, b, static_cast<bool*>(out), n, p);
  } else {
    BinaryKernel<T, T><<<Blocks(n), 256, 0, stream>>>(op, a, b, static_cast<T*>(out), n, p);
  }
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchUnary(UnaryKind op, const T* x, T* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  UnaryKernel<T><<<Blocks(n), 256, 0, stream>>>(op, x, y, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchClipByValue(const T* x, const T* lo, int64_t lo_step, const T* hi,
                              int64_t hi_step, T* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  ClipKernel<T><<<Blocks(n), 256, 0, stream>>>(x, lo, lo_step, hi, hi_step, y, n);
  return cudaGetLastError();
}

template <typename From, typename To>
cudaError_t LaunchCast(const From* x, To* y, int64_t n, bool truncate, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  CastKernel<From, To><<<Blocks(n), 256, 0, stream>>>(x, y, n, truncate);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchAxpy(T scale, const T* x, T* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  AxpyKernel<T><<<Blocks(n), 256, 0, stream>>>(scale, x, y, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchFill(const T* value, T* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  FillKernel<T><<<Blocks(n), 256, 0, stream>>>(value, T(), y, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t LaunchFillConstant(T v, T* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  FillKernel<T><<<Blocks(n), 256, 0, stream>>>(nullptr, v, y, n);
  return cudaGetLastError();
}

#define RILL_INSTANTIATE_NUMBER(T)                                                              \
  template cudaError_t LaunchBinary<T>(BinaryKind, const T*, const T*, void*, int64_t,          \
                                       const BroadcastPlan&, cudaStream_t);                     \
  template cudaError_t LaunchUnary<T>(UnaryKind, const T*, T*, int64_t, cudaStream_t);          \
  template cudaError_t LaunchAxpy<T>(T, const T*, T*, int64_t, cudaStream_t);                   \
  template cudaError_t LaunchClipByValue<T>(const T*, const T*, int64_t, const T*, int64_t, T*, \
                                            int64_t, cudaStream_t);
RILL_INSTANTIATE_NUMBER(float)
RILL_INSTANTIATE_NUMBER(double)
RILL_INSTANTIATE_NUMBER(int32_t)
RILL_INSTANTIATE_NUMBER(int64_t)
RILL_INSTANTIATE_NUMBER(uint8_t)
template cudaError_t LaunchBinary<bool>(BinaryKind, const bool*, const bool*, void*, int64_t,
                                        const BroadcastPlan&, cudaStream_t);
template cudaError_t LaunchUnary<bool>(UnaryKind, const bool*, bool*, int64_t, cudaStream_t);

#define RILL_INSTANTIATE_FILL(T)                                           \
  template cudaError_t LaunchFill<T>(const T*, T*, int64_t, cudaStream_t); \
  template cudaError_t LaunchFillConstant<T>(T, T*, int64_t, cudaStream_t);
RILL_INSTANTIATE_FILL(float)
RILL_INSTANTIATE_FILL(double)
RILL_INSTANTIATE_FILL(int32_t)
RILL_INSTANTIATE_FILL(int64_t)
RILL_INSTANTIATE_FILL(uint8_t)
RILL_INSTANTIATE_FILL(uint16_t)
RILL_INSTANTIATE_FILL(bool)

#define RILL_INSTANTIATE_CAST_TO(F, T) \
  template cudaError_t LaunchCast<F, T>(const F*, T*, int64_t, bool, cudaStream_t);
// Cast takes every dtype on the GPU (CastGpu visits them all), the narrow and unsigned
// integers too: a conversion is one element's CastValue, whatever the pair.
#define RILL_INSTANTIATE_CAST_FROM(F)   \
  RILL_INSTANTIATE_CAST_TO(F, float)    \
  RILL_INSTANTIATE_CAST_TO(F, double)   \
  RILL_INSTANTIATE_CAST_TO(F, int32_t)  \
  RILL_INSTANTIATE_CAST_TO(F, int64_t)  \
  RILL_INSTANTIATE_CAST_TO(F, uint8_t)  \
  RILL_INSTANTIATE_CAST_TO(F, bool)     \
  RILL_INSTANTIATE_CAST_TO(F, int8_t)   \
  RILL_INSTANTIATE_CAST_TO(F, int16_t)  \
  RILL_INSTANTIATE_CAST_TO(F, uint16_t) \
  RILL_INSTANTIATE_CAST_TO(F, uint32_t) \
  RILL_INSTANTIATE_CAST_TO(F, uint64_t)
RILL_INSTANTIATE_CAST_FROM(float)
RILL_INSTANTIATE_CAST_FROM(double)
RILL_INSTANTIATE_CAST_FROM(int32_t)
RILL_INSTANTIATE_CAST_FROM(int64_t)
RILL_INSTANTIATE_CAST_FROM(uint8_t)
RILL_INSTANTIATE_CAST_FROM(bool)
RILL_INSTANTIATE_CAST_FROM(int8_t)
RILL_INSTANTIATE_CAST_FROM(int16_t)
RILL_INSTANTIATE_CAST_FROM(uint16_t)
RILL_INSTANTIATE_CAST_FROM(uint32_t)
RILL_INSTANTIATE_CAST_FROM(uint64_t)

}  // namespace rill::gpu
