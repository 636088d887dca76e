#include "rill/core/range.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "rill/core/kernel.h"
#include "rill/core/status.h"
#include "rill/core/tensor.h"

namespace rill {
namespace {

// TensorFlow's words, then the values.
template <typename T>
absl::Status TooLong(T start, T limit, T delta) {
  return errors::InvalidArgument("Requires ((limit - start) / delta) <= ", INT64_MAX,
                                 ": Range from ", start, " to ", limit, " by ", delta,
                                 " has more elements than fit in int64");
}

}  // namespace

template <typename T>
absl::StatusOr<int64_t> RangeSize(T start, T limit, T delta) {
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta)) {
      return errors::InvalidArgument("start (", start, "), limit (", limit, ") and delta (", delta,
                                     ") must be finite");
    }
  }
  // TensorFlow's words, with the values.
  if (delta == 0) return errors::InvalidArgument("Requires delta != 0");
  if (delta > 0 ? start > limit : start < limit) {
    return errors::InvalidArgument("Requires start ", delta > 0 ? "<=" : ">=", " limit when delta ",
                                   delta > 0 ? ">" : "<", " 0: ", start, "/", limit);
  }
  if constexpr (std::is_integral_v<T>) {
    // In 128 bits: limit - start overflows int64 for far-apart ends.
    const __int128 span = static_cast<__int128>(limit) - start;
    const __int128 step = delta;
    const __int128 a = span < 0 ? -span : span, b = step < 0 ? -step : step;
    const __int128 n = (a + b - 1) / b;
    if (n > INT64_MAX) {
      return TooLong(start, limit, delta);
    }
    return static_cast<int64_t>(n);
  } else {
    const double n = std::ceil(std::abs((static_cast<double>(limit) - start) / delta));
    if (!(n < 9.0e18)) {
      return TooLong(start, limit, delta);
    }
    return static_cast<int64_t>(n);
  }
}

namespace {
template <typename T>
absl::StatusOr<int64_t> SizeOf(const Tensor& start, const Tensor& limit, const Tensor& delta) {
  return RangeSize<T>(*start.base<T>(), *limit.base<T>(), *delta.base<T>());
}
}  // namespace

absl::StatusOr<int64_t> RangeSizeOf(const Tensor& start, const Tensor& limit, const Tensor& delta) {
  const char* names[] = {"start", "limit", "delta"};
  const Tensor* in[] = {&start, &limit, &delta};
  for (int i = 0; i < 3; ++i) {
    if (in[i]->dims() != 0) {
      return errors::InvalidArgument(names[i], " must be a scalar, got shape ",
                                     in[i]->shape().DebugString());
    }
  }
  switch (start.dtype()) {
    case DT_FLOAT:
      return SizeOf<float>(start, limit, delta);
    case DT_DOUBLE:
      return SizeOf<double>(start, limit, delta);
    case DT_INT32:
      return SizeOf<int32_t>(start, limit, delta);
    case DT_INT64:
      return SizeOf<int64_t>(start, limit, delta);
    default:
      return errors::InvalidArgument("Range does not take ", DataTypeString(start.dtype()));
  }
}

absl::StatusOr<Tensor*> AllocateRange(OpKernelContext& ctx) {
  RILL_ASSIGN_OR_RETURN(int64_t n, RangeSizeOf(ctx.input(0), ctx.input(1), ctx.input(2)));
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({n}), &out));
  return out;
}

template <typename T>
absl::Status RangeOnHost(OpKernelContext& ctx) {
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateRange(ctx));
  const T start = *ctx.input(0).base<T>(), delta = *ctx.input(2).base<T>();
  T* o = out->base<T>();
  for (int64_t i = 0; i < out->NumElements(); ++i) o[i] = RangeValue(start, delta, i);
  return absl::OkStatus();
}

absl::StatusOr<Tensor*> AllocateLinSpace(OpKernelContext& ctx) {
  const char* names[] = {"start", "stop", "num"};
  for (int i = 0; i < 3; ++i) {
    if (ctx.input(i).dims() != 0) {
      return errors::InvalidArgument(names[i], " must be a scalar, got shape ",
                                     ctx.input(i).shape().DebugString());
    }
  }
  const Tensor& num_t = ctx.input(2);
  const int64_t num = num_t.dtype() == DT_INT32 ? *num_t.base<int32_t>() : *num_t.base<int64_t>();
  if (num < 1) return errors::InvalidArgument("num must be at least 1, got ", num);
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({num}), &out));
  return out;
}

template <typename T>
absl::Status LinSpaceOnHost(OpKernelContext& ctx) {
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateLinSpace(ctx));
  const T start = *ctx.input(0).base<T>(), stop = *ctx.input(1).base<T>();
  const int64_t num = out->NumElements();
  const T step = LinSpaceStep(start, stop, num);
  T* o = out->base<T>();
  for (int64_t i = 0; i + 1 < num; ++i) o[i] = RangeValue(start, step, i);
  o[num - 1] = num > 1 ? stop : start;
  return absl::OkStatus();
}

template absl::Status LinSpaceOnHost<float>(OpKernelContext&);
template absl::Status LinSpaceOnHost<double>(OpKernelContext&);
template absl::Status RangeOnHost<float>(OpKernelContext&);
template absl::Status RangeOnHost<double>(OpKernelContext&);
template absl::Status RangeOnHost<int32_t>(OpKernelContext&);
template absl::Status RangeOnHost<int64_t>(OpKernelContext&);
template absl::Status RangeOnHost<int8_t>(OpKernelContext&);
template absl::Status RangeOnHost<int16_t>(OpKernelContext&);
template absl::StatusOr<int64_t> RangeSize<float>(float, float, float);
template absl::StatusOr<int64_t> RangeSize<double>(double, double, double);
template absl::StatusOr<int64_t> RangeSize<int32_t>(int32_t, int32_t, int32_t);
template absl::StatusOr<int64_t> RangeSize<int64_t>(int64_t, int64_t, int64_t);
template absl::StatusOr<int64_t> RangeSize<int8_t>(int8_t, int8_t, int8_t);
template absl::StatusOr<int64_t> RangeSize<int16_t>(int16_t, int16_t, int16_t);

}  // namespace rill
