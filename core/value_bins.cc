#include "rill/core/value_bins.h"

#include <algorithm>
#include <cmath>

#include "rill/core/attr_value.h"

namespace rill {
namespace {

absl::Status CheckBoundaries(const std::vector<float>& b) {
  for (size_t i = 0; i < b.size(); ++i) {
    if (std::isnan(b[i])) return errors::InvalidArgument("boundaries must not be NaN, got ", i);
    if (i > 0 && b[i] < b[i - 1]) {
      return errors::InvalidArgument("Expected sorted boundaries: boundaries[", i, "] = ", b[i],
                                     " is below boundaries[", i - 1, "] = ", b[i - 1]);
    }
  }
  return absl::OkStatus();
}

absl::Status CheckNbins(int64_t nbins) {
  if (nbins <= 0) return errors::InvalidArgument("nbins should be a positive number, got ", nbins);
  return absl::OkStatus();
}

}  // namespace

absl::Status BucketizeShape(InferenceContext& c) {
  std::vector<float> b;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.attrs(), "boundaries", &b));
  RILL_RETURN_IF_ERROR(CheckBoundaries(b));
  c.set_output(0, c.input_shape(0));
  return absl::OkStatus();
}

absl::Status HistogramShape(InferenceContext& c) {
  const PartialTensorShape& range = c.input_shape(1);
  if (!range.unknown_rank() &&
      (range.dims() != 1 || (range.dim_size(0) >= 0 && range.dim_size(0) != 2))) {
    return errors::InvalidArgument("value_range should be a vector of 2 elements, got ",
                                   range.DebugString());
  }
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 2, "nbins"));
  int64_t nbins = -1;
  if (const Tensor* t = c.input_tensor(2); t != nullptr && t->NumElements() == 1) {
    RILL_ASSIGN_OR_RETURN(const auto values, shape_fns::IntValues(*t, "nbins"));
    nbins = values[0];
    RILL_RETURN_IF_ERROR(CheckNbins(nbins));
  }
  c.set_output(0, PartialTensorShape({nbins}));
  return absl::OkStatus();
}

template <typename T>
absl::Status Bucketize(OpKernelContext& ctx, const std::vector<float>& boundaries) {
  RILL_RETURN_IF_ERROR(CheckBoundaries(boundaries));
  const Tensor& in = ctx.input(0);
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, in.shape(), &out));
  const T* x = in.base<T>();
  int32_t* y = out->base<int32_t>();
  // Boundaries past int32 would not fit the output: the attr list is far shorter.
  for (int64_t i = 0; i < in.NumElements(); ++i) {
    y[i] = static_cast<int32_t>(std::upper_bound(boundaries.begin(), boundaries.end(), x[i]) -
                                boundaries.begin());
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status HistogramFixedWidth(OpKernelContext& ctx) {
  const Tensor &values = ctx.input(0), &range = ctx.input(1), &nbins_t = ctx.input(2);
  if (range.dims() != 1 || range.NumElements() != 2) {
    return errors::InvalidArgument("value_range should be a vector of 2 elements, got ",
                                   range.shape().DebugString());
  }
  if (nbins_t.dims() != 0) {
    return errors::InvalidArgument("nbins must be a scalar, got shape ",
                                   nbins_t.shape().DebugString());
  }
  const int64_t nbins = nbins_t.base<int32_t>()[0];  // int32 by the schema
  RILL_RETURN_IF_ERROR(CheckNbins(nbins));
  const T lo = range.base<T>()[0], hi = range.base<T>()[1];
  if (!(lo < hi)) {
    return errors::InvalidArgument("value_range should satisfy value_range[0] < value_range[1], ",
                                   "got [", lo, ", ", hi, "]");
  }
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({nbins}), &out));
  const bool wide = ctx.output_type(0) == DT_INT64;
  std::fill_n(static_cast<char*>(out->data()), out->TotalBytes(), 0);
  const double step = (static_cast<double>(hi) - static_cast<double>(lo)) / nbins;
  for (int64_t i = 0; i < values.NumElements(); ++i) {
    const double v = static_cast<double>(values.base<T>()[i]);
    if (std::isnan(v)) continue;
    const double at = (std::max(v, static_cast<double>(lo)) - static_cast<double>(lo)) / step;
    const int64_t bin = at >= static_cast<double>(nbins - 1) ? nbins - 1 : static_cast<int64_t>(at);
    // Counted unsigned: past 2^31 - 1 values an int32 bin wraps, as TensorFlow's, never UB.
    if (wide) {
      ++reinterpret_cast<uint64_t*>(out->base<int64_t>())[bin];
    } else {
      ++reinterpret_cast<uint32_t*>(out->base<int32_t>())[bin];
    }
  }
  return absl::OkStatus();
}

#define RILL_INSTANTIATE_BINS(T)                                                   \
  template absl::Status Bucketize<T>(OpKernelContext&, const std::vector<float>&); \
  template absl::Status HistogramFixedWidth<T>(OpKernelContext&);
RILL_INSTANTIATE_BINS(int32_t)
RILL_INSTANTIATE_BINS(int64_t)
RILL_INSTANTIATE_BINS(float)
RILL_INSTANTIATE_BINS(double)
#undef RILL_INSTANTIATE_BINS

}  // namespace rill
