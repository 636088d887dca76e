// FusedBatchNormV3 and FusedBatchNormGradV3: the attrs, the argument checks and the
// geometry their shape functions and kernels share. x is viewed as [outer, channels,
// inner]: NHWC/NDHWC give inner 1, NCHW/NCDHW give outer the batch and inner the spatial
// size, so both layouts run without a transpose.
#pragma once

#include <string>

#include "rill/core/batch_norm_row.h"
#include "rill/core/kernel.h"

namespace rill {

struct BatchNormAttrs {
  float epsilon = 1e-4f;
  float exponential_avg_factor = 1.0f;  // forward only
  std::string data_format = "NHWC";
  bool is_training = true;
  // Training with a factor of 1 ignores the mean and variance inputs (they may be empty).
  bool UsesMeanAndVariance() const { return !is_training || exponential_avg_factor != 1.0f; }
};
BatchNormAttrs BatchNormAttrsOf(const AttrMap& attrs);

// The channel axis of a rank-`rank` x in `data_format` (NHWC, NCHW, NDHWC or NCDHW, whose
// length is the rank); InvalidArgument naming both otherwise. A rank of -1 (unknown)
// checks the format alone and returns -1.
absl::StatusOr<int> BatchNormChannelAxis(const std::string& data_format, int rank);

// The forward op's checks on (x, scale, offset, mean, variance); partial shapes check
// what they know. Returns the channel count, or -1 when no input tells it.
absl::StatusOr<int64_t> CheckBatchNormShapes(const BatchNormAttrs& a,
                                             absl::Span<const PartialTensorShape> in);
// The gradient op's checks on (y_backprop, x, scale, reserve_space_1, reserve_space_2).
absl::StatusOr<int64_t> CheckBatchNormGradShapes(const BatchNormAttrs& a,
                                                 absl::Span<const PartialTensorShape> in);

// Kernel side: validates the inputs, allocates every output (y, batch_mean, batch_variance,
// reserve_space_1..3 / x_backprop, scale_backprop, offset_backprop, reserve_space_4..5)
// into `out`, and returns x's geometry. out[5] is null for FusedBatchNorm and V2, which
// have no reserve_space_3; the gradient ops of every version read their first 5 inputs.
absl::StatusOr<BatchNormGeometry> PrepareBatchNorm(OpKernelContext& ctx, const BatchNormAttrs& a,
                                                   Tensor* out[6]);
absl::StatusOr<BatchNormGeometry> PrepareBatchNormGrad(OpKernelContext& ctx,
                                                       const BatchNormAttrs& a, Tensor* out[5]);

}  // namespace rill
