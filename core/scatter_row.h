// How TensorScatterUpdate/Add/Sub/Min/Max and the variable scatters (ScatterUpdate and
// kin, ScatterNdUpdate and kin) combine an update with what a slice holds, one element at
// a time, for the CPU and GPU kernels (plain header: nvcc takes it).
#pragma once

#include <type_traits>

#include "rill/core/host_device.h"

namespace rill {

enum class ScatterKind : int { kUpdate, kAdd, kSub, kMin, kMax, kMul, kDiv };

template <ScatterKind K, typename T>
RILL_HOST_DEVICE inline T ScatterCombine(T cur, T u) {
  if constexpr (K == ScatterKind::kUpdate) return u;
  if constexpr (K == ScatterKind::kAdd) return static_cast<T>(cur + u);
  if constexpr (K == ScatterKind::kSub) return static_cast<T>(cur - u);
  if constexpr (K == ScatterKind::kMin) return u < cur ? u : cur;
  if constexpr (K == ScatterKind::kMax) return u > cur ? u : cur;
  if constexpr (K == ScatterKind::kMul) return static_cast<T>(cur * u);
  if constexpr (K == ScatterKind::kDiv) {
    // Integer divisors of 0 are refused before this runs; the lowest integer divided by -1
    // would trap, and wraps instead (as Div's: the library is built with -fwrapv).
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      if (u == T(-1)) return static_cast<T>(T(0) - cur);
    }
    return static_cast<T>(cur / u);
  }
}

// Group g's rows order[starts[g]] .. order[starts[g + 1] - 1] all land on slice targets[g],
// in their order in indices: element i of that slice is updated by each row in turn.
template <ScatterKind K, typename T>
RILL_HOST_DEVICE inline void ScatterGroupElement(const T* updates, const int64_t* order,
                                                 const int64_t* starts, const int64_t* targets,
                                                 int64_t inner, int64_t g, int64_t i, T* out) {
  T* at = out + targets[g] * inner + i;
  T v = *at;
  for (int64_t j = starts[g]; j < starts[g + 1]; ++j) {
    v = ScatterCombine<K, T>(v, updates[order[j] * inner + i]);
  }
  *at = v;
}

}  // namespace rill
