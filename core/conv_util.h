// Geometry of 2-D convolution and pooling over NHWC tensors, shared by shape functions,
// CPU and GPU kernels: output size and padding for SAME and VALID, as TensorFlow computes
// them. Every argument is validated; errors say what would be valid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rill/core/attr_value.h"

namespace rill {

struct Conv2DGeometry {
  int64_t batch, in_h, in_w, in_c;
  int64_t k_h, k_w, out_c;  // out_c = in_c for pooling
  int64_t stride_h, stride_w;
  int64_t out_h, out_w;
  int64_t pad_top, pad_left;  // SAME pads before (the rest goes after); VALID: 0
  // Channel groups: each output channel reads in_c / groups input channels (a depthwise
  // convolution has groups = in_c and out_c = in_c * multiplier).
  int64_t groups = 1;
  // Dilations (TensorFlow's atrous convolution): tap i of the window reads row
  // oh * stride_h - pad_top + i * dilation_h; 1 for pools.
  int64_t dilation_h = 1, dilation_w = 1;
};

// input: [batch, h, w, c]; window [k_h, k_w] (a filter's first two dims, or ksize[1..2]);
// strides and ksize as the 4-element NHWC lists of TensorFlow's attrs (batch and channel
// entries must be 1). Unknown dims (-1) in `input` give -1 in the result. padding "SAME",
// "VALID", or "EXPLICIT" with TensorFlow's explicit_paddings: 8 values, before and after
// each NHWC dim (0 for the batch and channel dims). `dilations`: TensorFlow's 4-element
// NHWC list (empty: none); the dilated window (k - 1) * dilation + 1 is what the padding
// and the output size see.
absl::StatusOr<Conv2DGeometry> ComputeConv2DGeometry(
    absl::Span<const int64_t> input, int64_t k_h, int64_t k_w, int64_t out_c,
    const std::vector<int64_t>& strides, const std::string& padding,
    const std::vector<int64_t>& explicit_paddings = {}, const std::vector<int64_t>& dilations = {});
// A node's explicit_paddings attr; empty when the op has none (pools). A reference: kernels
// read it every run and allocate nothing.
const std::vector<int64_t>& ExplicitPaddingsOf(const AttrMap& attrs);
// A node's dilations attr, the same way; empty when the op has none.
const std::vector<int64_t>& DilationsOf(const AttrMap& attrs);
// The rows (or columns) a dilated window spans: (k - 1) * dilation + 1, for a geometry
// already checked (DilatedSpanOr checks that it fits int64, naming `dim` when not).
inline int64_t DilatedSpan(int64_t k, int64_t dilation) { return (k - 1) * dilation + 1; }
absl::StatusOr<int64_t> DilatedSpanOr(int64_t k, int64_t dilation, const char* dim);
// One spatial dim of a SAME (`same`) or VALID window: the output size and the padding
// before (SAME's odd cell goes after); -1 when `in` is unknown (-1). `dim` names the dim
// in errors (a window larger than a VALID input, SAME padding that overflows int64).
absl::Status WindowOutputSize(int64_t in, int64_t k, int64_t stride, bool same, const char* dim,
                              int64_t* out, int64_t* pad_before);
// Checks a window attr list of a channels-last layout ("NHWC", "NDHWC": one element per
// dim): all > 0, the batch and channel entries 1.
absl::Status CheckChannelsLastList(const std::vector<int64_t>& v, const char* layout,
                                   const char* what);
// Checks a 4-element NHWC attr list (strides, ksize, dilations): all > 0, batch and channel 1.
absl::Status CheckNhwcList(const std::vector<int64_t>& v, const char* what);

}  // namespace rill
