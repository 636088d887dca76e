#include "rill/core/conv_util.h"

#include <algorithm>

#include "rill/core/checked_math.h"
#include "rill/core/status.h"

namespace rill {

absl::Status CheckNhwcList(const std::vector<int64_t>& v, const char* what) {
  if (v.size() != 4) {
    return errors::InvalidArgument(what, " must have 4 elements (NHWC), got ", v.size());
  }
  for (int64_t x : v) {
    if (x < 1) return errors::InvalidArgument(what, " must be positive, got ", x);
  }
  if (v[0] != 1 || v[3] != 1) {
    return errors::InvalidArgument(what, " over the batch and channel dims must be 1, got [", v[0],
                                   ",", v[1], ",", v[2], ",", v[3], "]");
  }
  return absl::OkStatus();
}

namespace {
// One spatial dim: output size and padding before.
absl::Status OutputSize(int64_t in, int64_t k, int64_t stride, bool same, const char* dim,
                        int64_t* out, int64_t* pad_before) {
  *pad_before = 0;
  if (in < 0) {
    *out = -1;
    return absl::OkStatus();
  }
  if (same) {
    // ceil(in / stride) without forming in + stride - 1, which wraps for a huge stride.
    *out = checked::CeilDiv(in, stride);
    // (out - 1) * stride < in, so only adding the window can overflow.
    const int64_t covered = *out > 0 ? (*out - 1) * stride : 0;
    auto reach = checked::Add(covered, k);
    if (!reach) {
      return errors::InvalidArgument("the window's ", dim, " (", k,
                                     ") makes SAME padding overflow int64");
    }
    *pad_before = std::max<int64_t>(*reach - in, 0) / 2;
    return absl::OkStatus();
  }
  if (k > in) {
    return errors::InvalidArgument("the window's ", dim, " (", k,
                                   ") is larger than the VALID-padded input's (", in,
                                   "); use SAME padding or a smaller window");
  }
  *out = (in - k) / stride + 1;
  return absl::OkStatus();
}
}  // namespace

absl::StatusOr<Conv2DGeometry> ComputeConv2DGeometry(absl::Span<const int64_t> input, int64_t k_h,
                                                     int64_t k_w, int64_t out_c,
                                                     const std::vector<int64_t>& strides,
                                                     const std::string& padding) {
  if (input.size() != 4) {
    return errors::InvalidArgument("input must be 4-D [batch, height, width, channels], got rank ",
                                   input.size());
  }
  RILL_RETURN_IF_ERROR(CheckNhwcList(strides, "strides"));
  if (padding != "SAME" && padding != "VALID") {
    return errors::InvalidArgument("padding must be SAME or VALID, got '", padding, "'");
  }
  if (k_h < 1 || k_w < 1) {
    return errors::InvalidArgument("the window must be at least 1x1, got ", k_h, "x", k_w);
  }
  Conv2DGeometry g;
  g.batch = input[0];
  g.in_h = input[1];
  g.in_w = input[2];
  g.in_c = input[3];
  g.k_h = k_h;
  g.k_w = k_w;
  g.out_c = out_c;
  g.stride_h = strides[1];
  g.stride_w = strides[2];
  const bool same = padding == "SAME";
  RILL_RETURN_IF_ERROR(OutputSize(g.in_h, k_h, g.stride_h, same, "height", &g.out_h, &g.pad_top));
  RILL_RETURN_IF_ERROR(OutputSize(g.in_w, k_w, g.stride_w, same, "width", &g.out_w, &g.pad_left));
  return g;
}

}  // namespace rill
