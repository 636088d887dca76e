// Bucketize and HistogramFixedWidth: values sorted into bins. Bucketize (tf.raw_ops.
// Bucketize, feature columns' bucketized_column): each value's bucket, the number of
// boundaries at or below it (int32, the input's shape); boundaries sorted, none NaN.
// HistogramFixedWidth (tf.histogram_fixed_width): counts of values in nbins equal bins over
// value_range [lo, hi), values below lo in the first and at or above hi in the last, as
// TensorFlow's; NaN values are counted nowhere. Shared by the kernels and the shape
// functions.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// boundaries sorted and not NaN; output the input's shape.
absl::Status BucketizeShape(InferenceContext& c);
// values any shape, value_range [2], nbins a scalar (> 0 when constant): output [nbins].
absl::Status HistogramShape(InferenceContext& c);

// The kernels' work: the inputs checked, output 0 allocated and filled.
template <typename T>
absl::Status Bucketize(OpKernelContext& ctx, const std::vector<float>& boundaries);
template <typename T>
absl::Status HistogramFixedWidth(OpKernelContext& ctx);

}  // namespace rill
