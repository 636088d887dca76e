// LRN's and LRNGrad's argument checks, shared by the CPU and GPU kernels and the shape
// functions; the arithmetic is core/lrn_row.h's.
#pragma once

#include "rill/core/kernel.h"
#include "rill/core/lrn_row.h"

namespace rill {

// The node's attrs: depth_radius >= 0, bias, alpha and beta finite (beta may be 0).
absl::StatusOr<LrnParams> LrnAttrs(const AttrMap& attrs);

// LRN (input) or LRNGrad (input_grads, input_image, output_image): every input 4-D and of
// one shape; allocates output 0 and returns the params with the depth filled in.
absl::StatusOr<LrnParams> PrepareLrn(OpKernelContext& ctx, Tensor** out);

}  // namespace rill
