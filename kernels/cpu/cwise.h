// Elementwise helpers for CPU kernels: Eigen array views of tensors and the NumPy
// broadcasting driver. A binary functor is a generic lambda over two Eigen array
// expressions (a contiguous run of one input, or a constant for a broadcast one), so
// every case vectorises through Eigen.
#pragma once

#include <cstdint>

#include "Eigen/Core"
#include "rill/core/broadcast.h"
#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill::cpu {

template <typename T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

template <typename T>
ConstArrayMap<T> AsArray(const Tensor& t) {
  return ConstArrayMap<T>(t.base<T>(), t.NumElements());
}
template <typename T>
ArrayMap<T> AsArray(Tensor* t) {
  return ArrayMap<T>(t->base<T>(), t->NumElements());
}

// out[i] = f(a, b) with broadcasting; `out` has the broadcast shape.
template <typename In, typename Out, typename F>
void BinaryBroadcast(const Tensor& a, const Tensor& b, Tensor* out, F f) {
  using Arr = Eigen::Array<In, Eigen::Dynamic, 1>;
  const In* pa = a.base<In>();
  const In* pb = b.base<In>();
  Out* po = out->base<Out>();
  const int64_t n = out->NumElements();
  if (n == 0) return;
  if (a.NumElements() == n && b.NumElements() == n) {
    ArrayMap<Out>(po, n) = f(ConstArrayMap<In>(pa, n), ConstArrayMap<In>(pb, n));
    return;
  }
  if (b.NumElements() == 1 && a.NumElements() == n) {
    ArrayMap<Out>(po, n) = f(ConstArrayMap<In>(pa, n), Arr::Constant(n, *pb));
    return;
  }
  if (a.NumElements() == 1 && b.NumElements() == n) {
    ArrayMap<Out>(po, n) = f(Arr::Constant(n, *pa), ConstArrayMap<In>(pb, n));
    return;
  }
  BroadcastPlan p = MakeBroadcastPlan(a.shape(), b.shape(), out->shape());
  const int last = p.rank - 1;
  const int64_t inner = p.dims[last];
  const int64_t outer = n / inner;
  int64_t idx[kMaxTensorRank] = {0};
  int64_t oa = 0, ob = 0;
  for (int64_t row = 0; row < outer; ++row) {
    ArrayMap<Out> dst(po + row * inner, inner);
    bool ca = p.a_strides[last] != 0, cb = p.b_strides[last] != 0;
    if (ca && cb) {
      dst = f(ConstArrayMap<In>(pa + oa, inner), ConstArrayMap<In>(pb + ob, inner));
    } else if (ca) {
      dst = f(ConstArrayMap<In>(pa + oa, inner), Arr::Constant(inner, pb[ob]));
    } else if (cb) {
      dst = f(Arr::Constant(inner, pa[oa]), ConstArrayMap<In>(pb + ob, inner));
    } else {
      dst = f(Arr::Constant(inner, pa[oa]), Arr::Constant(inner, pb[ob]));
    }
    // Advance the odometer over the outer dims.
    for (int d = last - 1; d >= 0; --d) {
      oa += p.a_strides[d];
      ob += p.b_strides[d];
      if (++idx[d] < p.dims[d]) break;
      oa -= p.a_strides[d] * p.dims[d];
      ob -= p.b_strides[d] * p.dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace rill::cpu
