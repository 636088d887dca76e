// Geometry and the kernels' argument checks of Conv3D and its two gradients
// (Conv3DBackpropInputV2, Conv3DBackpropFilterV2) over NDHWC tensors with DHWIO filters, as
// TensorFlow defines them: strides and dilations as 5-element lists, padding SAME or
// VALID, and grouped convolution when the input has a multiple of the filter's input
// channels. Shared by the shape functions and the kernels, so every device accepts the same
// inputs and names the same problems.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rill/core/conv3d_row.h"
#include "rill/core/conv_kernel_util.h"  // ConvMode
#include "rill/core/kernel.h"

namespace rill {

// input [batch, depth, height, width, in_c] and filter [k_d, k_h, k_w, in_c / groups,
// out_c]; -1 for an unknown dim gives -1 in what depends on it. Every argument is checked:
// ranks, positive strides and dilations of 1 over the batch and channels, the channel
// counts, window sizes that overflow int64.
absl::StatusOr<Conv3DDims> ComputeConv3DDims(absl::Span<const int64_t> input,
                                             absl::Span<const int64_t> filter,
                                             const std::vector<int64_t>& strides,
                                             const std::vector<int64_t>& dilations,
                                             const std::string& padding);
// [batch, out depth, out height, out width, out_c].
std::vector<int64_t> Conv3DOutputDims(const Conv3DDims& g);

// Conv3D(input, filter), Conv3DBackpropInputV2(input_sizes, filter, out_backprop) and
// Conv3DBackpropFilterV2(input, filter_sizes, out_backprop): the sizes are host tensors
// (int32 or int64). Allocates output 0: the output, the input's or the filter's gradient.
absl::StatusOr<Conv3DDims> PrepareConv3D(OpKernelContext& ctx, ConvMode mode, Tensor** out);

}  // namespace rill
