// Bincount and DenseBincount (tf.math.bincount): for each value v of the input in
// [0, size), output[v] (a row's, for DenseBincount's 2-D input) gains its weight (1 without
// weights; with binary_output the bin is 1 when anything lands in it). Values at or above
// size are ignored, negative ones refused, as TensorFlow's CPU kernels do. Shared by the
// kernel and the shape functions.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// Bincount(arr, size, weights) and DenseBincount(input, size, weights).
absl::Status BincountShape(InferenceContext& c);
absl::Status DenseBincountShape(InferenceContext& c);

// The kernels' work: the inputs checked, output 0 allocated and filled; `rows` says
// whether a 2-D input counts per row (DenseBincount) or the input is counted whole.
template <typename T>
absl::Status Bincount(OpKernelContext& ctx, bool rows, bool binary_output);

}  // namespace rill
