// CPU kernels of QuantizeAndDequantizeV2, V3, V4 and V4's gradient op: core/
// quantize_dequantize.h's checks and TensorFlow's scale rule, per slice along axis.
#include <algorithm>
#include <limits>
#include <vector>

#include "rill/core/quantize_dequantize.h"

namespace rill::cpu {
namespace {

// Calls f(i, slice) for every element i, walking the input as [outer, depth, inner] (no
// division per element).
template <typename F>
void ForEachInSlice(int64_t n, const QdqSlices& s, F&& f) {
  const int64_t block = s.depth * s.inner;
  if (block == 0) return;
  for (int64_t start = 0; start < n; start += block) {
    for (int64_t d = 0; d < s.depth; ++d) {
      const int64_t first = start + d * s.inner;
      for (int64_t i = first; i < first + s.inner; ++i) f(i, static_cast<size_t>(d));
    }
  }
}

// Each slice's range: the given min and max (each min <= max), or the slice's own extremes.
template <typename T>
absl::Status SliceRanges(const Tensor& x, const Tensor& min, const Tensor& max, const QdqSlices& s,
                         bool given, std::vector<T>* lo, std::vector<T>* hi) {
  lo->assign(static_cast<size_t>(s.depth), std::numeric_limits<T>::infinity());
  hi->assign(lo->size(), -std::numeric_limits<T>::infinity());
  if (given) {
    for (int64_t d = 0; d < s.depth; ++d) {
      (*lo)[d] = min.base<T>()[d], (*hi)[d] = max.base<T>()[d];
      if ((*lo)[d] > (*hi)[d]) {
        return errors::InvalidArgument("Invalid range: input_min ", (*lo)[d], " > input_max ",
                                       (*hi)[d], s.depth > 1 ? " in slice " : "",
                                       s.depth > 1 ? std::to_string(d) : "");
      }
    }
    return absl::OkStatus();
  }
  const T* v = x.base<T>();
  ForEachInSlice(x.NumElements(), s, [&](int64_t i, size_t d) {
    (*lo)[d] = std::min((*lo)[d], v[i]);
    (*hi)[d] = std::max((*hi)[d], v[i]);
  });
  return absl::OkStatus();
}

// V2 and V4 (kV3 false) read num_bits from their attr; V3 from its fourth input.
template <typename T, bool kV3>
class QuantizeDequantizeOp : public OpKernel {
 public:
  explicit QuantizeDequantizeOp(OpKernelConstruction& c)
      : OpKernel(c), attrs_(ReadQdqAttrs(c.node().attrs())) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    if (!attrs_.ok()) return attrs_.status();
    QdqAttrs a = *attrs_;
    if constexpr (kV3) {
      RILL_ASSIGN_OR_RETURN(a.num_bits, NumBits(ctx.input(3), a.signed_input));
    }
    const Tensor &x = ctx.input(0), &min = ctx.input(1), &max = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(const QdqSlices s, SlicesOf(x.shape(), a.axis));
    if (a.range_given) RILL_RETURN_IF_ERROR(CheckRangeShapes(min, max, s, a.axis));
    std::vector<T> lo, hi;
    RILL_RETURN_IF_ERROR(SliceRanges<T>(x, min, max, s, a.range_given, &lo, &hi));
    std::vector<QdqScale<T>> scales;
    for (int64_t d = 0; d < s.depth; ++d) scales.push_back(ScaleOf<T>(lo[d], hi[d], a));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    const T* v = x.base<T>();
    T* y = out->base<T>();
    ForEachInSlice(x.NumElements(), s, [&](int64_t i, size_t d) {
      y[i] = QuantizeDequantize(v[i], scales[d], a.range_given, a.half_up);
    });
    return absl::OkStatus();
  }

 private:
  static absl::StatusOr<int64_t> NumBits(const Tensor& t, bool signed_input) {
    if (t.dims() != 0) {
      return errors::InvalidArgument("The `num_bits` tensor should be a scalar, got shape ",
                                     t.shape().DebugString());
    }
    const int64_t bits = t.base<int32_t>()[0];
    RILL_RETURN_IF_ERROR(CheckNumBits(bits, signed_input));
    return bits;
  }
  absl::StatusOr<QdqAttrs> attrs_;  // the shape function refuses bad ones first
};

// The gradient passes where min <= input <= max (per slice); min and max get zeros.
template <typename T>
class QuantizeDequantizeGradOp : public OpKernel {
 public:
  explicit QuantizeDequantizeGradOp(OpKernelConstruction& c)
      : OpKernel(c), axis_(c.node().attr<int64_t>("axis")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &g = ctx.input(0), &x = ctx.input(1), &min = ctx.input(2), &max = ctx.input(3);
    if (g.shape() != x.shape()) {
      return errors::InvalidArgument("gradient and input must be the same size, got ",
                                     g.shape().DebugString(), " and ", x.shape().DebugString());
    }
    RILL_ASSIGN_OR_RETURN(const QdqSlices s, SlicesOf(x.shape(), axis_));
    RILL_RETURN_IF_ERROR(CheckRangeShapes(min, max, s, axis_));
    Tensor *dx, *dmin, *dmax;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &dx));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(1, min.shape(), &dmin));
    RILL_RETURN_IF_ERROR(ctx.allocate_output(2, max.shape(), &dmax));
    std::fill_n(dmin->base<T>(), dmin->NumElements(), T(0));
    std::fill_n(dmax->base<T>(), dmax->NumElements(), T(0));
    const T *gi = g.base<T>(), *xi = x.base<T>(), *lo = min.base<T>(), *hi = max.base<T>();
    T* d = dx->base<T>();
    ForEachInSlice(x.NumElements(), s, [&](int64_t i, size_t c) {
      d[i] = xi[i] >= lo[c] && xi[i] <= hi[c] ? gi[i] : T(0);
    });
    return absl::OkStatus();
  }

 private:
  int64_t axis_;
};

#define RILL_REG_QDQ(T, unused)                                                                  \
  RILL_REGISTER_KERNEL("QuantizeAndDequantizeV2", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       QuantizeDequantizeOp<T, false>);                                          \
  RILL_REGISTER_KERNEL("QuantizeAndDequantizeV3", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       QuantizeDequantizeOp<T, true>);                                           \
  RILL_REGISTER_KERNEL("QuantizeAndDequantizeV4", DEVICE_CPU, "T", DataTypeToEnum<T>::value,     \
                       QuantizeDequantizeOp<T, false>);                                          \
  RILL_REGISTER_KERNEL("QuantizeAndDequantizeV4Grad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       QuantizeDequantizeGradOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_QDQ, _)
#undef RILL_REG_QDQ

}  // namespace
}  // namespace rill::cpu
