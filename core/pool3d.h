// Window geometry and the kernels' argument checks of MaxPool3D, AvgPool3D and their
// gradients (NDHWC, ksize and strides as TensorFlow's 5-element lists), shared by the CPU
// and GPU kernels and the shape functions, so every device accepts the same inputs and
// names the same problems.
#pragma once

#include <string>
#include <vector>

#include "absl/types/span.h"
#include "rill/core/kernel.h"
#include "rill/core/pool3d_row.h"

namespace rill {

// The geometry over an input [batch, depth, height, width, channels] (-1 for an unknown
// dim gives -1 in the dims that depend on it); padding "SAME" or "VALID".
absl::StatusOr<Pool3DDims> ComputePool3DDims(absl::Span<const int64_t> input,
                                             const std::vector<int64_t>& ksize,
                                             const std::vector<int64_t>& strides,
                                             const std::string& padding);
// The pooled output's shape.
TensorShape Pool3DOutputShape(const Pool3DDims& g);

// MaxPool3D and AvgPool3D(input): allocates the pooled output.
absl::StatusOr<Pool3DDims> PreparePool3D(OpKernelContext& ctx, Tensor** out);
// MaxPool3DGrad(orig_input, orig_output, grad): allocates the input's gradient.
absl::StatusOr<Pool3DDims> PrepareMaxPool3DGrad(OpKernelContext& ctx, Tensor** out);
// AvgPool3DGrad(orig_input_shape (host), grad): allocates the input's gradient.
absl::StatusOr<Pool3DDims> PrepareAvgPool3DGrad(OpKernelContext& ctx, Tensor** out);

}  // namespace rill
