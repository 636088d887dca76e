// The arithmetic of TensorFlow's segment reductions, shared by the CPU kernels
// (kernels/cpu/segment_ops.cc, a row at a time) and the GPU kernels (kernels/cuda/segment.cu,
// an element at a time): output row s reduces the data rows its list names (core/segment.h
// lays the lists out), each multiplied by its weight where the op has weights (the sparse
// ops' gradients).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "rill/core/host_device.h"

namespace rill {

enum class SegmentReduction : int { kSum, kMean, kSqrtN, kProd, kMax, kMin };

// acc combined with x. Integers wrap (rill builds with -fwrapv); a NaN wins a max or min,
// so a segment holding one reduces to NaN whatever its order.
template <SegmentReduction R, typename T>
RILL_HOST_DEVICE inline T SegmentCombine(T acc, T x) {
  if constexpr (R == SegmentReduction::kProd) {
    return static_cast<T>(acc * x);
  } else if constexpr (R == SegmentReduction::kMax || R == SegmentReduction::kMin) {
    bool take = R == SegmentReduction::kMax ? x > acc : x < acc;
    if constexpr (std::is_floating_point_v<T>) take = take || x != x;
    return take ? x : acc;
  } else {
    return static_cast<T>(acc + x);
  }
}

// A segment's combined value made its output: the mean divides by the count (integers
// truncate, as TensorFlow's), SqrtN by the count's square root. count >= 1.
template <SegmentReduction R, typename T>
RILL_HOST_DEVICE inline T SegmentFinish(T acc, int64_t count) {
  if constexpr (R == SegmentReduction::kMean) {
    return static_cast<T>(acc / static_cast<T>(count));
  } else if constexpr (R == SegmentReduction::kSqrtN) {
    using std::sqrt;  // unqualified: nvcc's device overloads in device code
    return static_cast<T>(acc / static_cast<T>(sqrt(static_cast<double>(count))));
  } else {
    return acc;
  }
}

// Entry k of the lists: data row rows[k] times weights[k] (no weights: 1), element i.
template <typename T>
RILL_HOST_DEVICE inline T SegmentEntry(const T* data, const int64_t* rows, const T* weights,
                                       int64_t inner, int64_t k, int64_t i) {
  const T x = data[rows[k] * inner + i];
  return weights == nullptr ? x : static_cast<T>(weights[k] * x);
}

// Output element (s, i): the entries offsets[s] .. offsets[s + 1] - 1 reduced, or `empty`
// for a segment without entries (0, 1 for a product, or the lowest or highest value for an
// unsorted max or min, as TensorFlow's).
template <SegmentReduction R, typename T>
RILL_HOST_DEVICE inline T SegmentElement(const T* data, const int64_t* offsets, const int64_t* rows,
                                         const T* weights, int64_t inner, T empty, int64_t s,
                                         int64_t i) {
  const int64_t begin = offsets[s], end = offsets[s + 1];
  if (begin == end) return empty;
  T acc = SegmentEntry(data, rows, weights, inner, begin, i);
  for (int64_t k = begin + 1; k < end; ++k) {
    acc = SegmentCombine<R>(acc, SegmentEntry(data, rows, weights, inner, k, i));
  }
  return SegmentFinish<R>(acc, end - begin);
}

}  // namespace rill
