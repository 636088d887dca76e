#include "rill/core/conv_util.h"

#include <algorithm>
#include <string_view>

#include "absl/strings/str_join.h"
#include "rill/core/checked_math.h"
#include "rill/core/status.h"

namespace rill {

absl::Status CheckChannelsLastList(const std::vector<int64_t>& v, const char* layout,
                                   const char* what) {
  const size_t rank = std::string_view(layout).size();
  if (v.size() != rank) {
    return errors::InvalidArgument(what, " must have ", rank, " elements (", layout, "), got ",
                                   v.size());
  }
  for (int64_t x : v) {
    if (x < 1) return errors::InvalidArgument(what, " must be positive, got ", x);
  }
  if (v.front() != 1 || v.back() != 1) {
    return errors::InvalidArgument(what, " over the batch and channel dims must be 1, got [",
                                   absl::StrJoin(v, ","), "]");
  }
  return absl::OkStatus();
}

absl::Status CheckNhwcList(const std::vector<int64_t>& v, const char* what) {
  return CheckChannelsLastList(v, "NHWC", what);
}

absl::Status WindowOutputSize(int64_t in, int64_t k, int64_t stride, bool same, const char* dim,
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

namespace {
// TensorFlow's explicit_paddings: 8 values >= 0, none on the batch and channel dims.
absl::Status CheckExplicitPaddings(const std::vector<int64_t>& p) {
  if (p.size() != 8) {
    return errors::InvalidArgument("EXPLICIT padding needs explicit_paddings of 8 values (before ",
                                   "and after each NHWC dim), got ", p.size());
  }
  for (int64_t v : p) {
    if (v < 0) return errors::InvalidArgument("explicit_paddings must be >= 0, got ", v);
  }
  if (p[0] != 0 || p[1] != 0 || p[6] != 0 || p[7] != 0) {
    return errors::InvalidArgument("explicit_paddings of the batch and channel dims must be 0");
  }
  return absl::OkStatus();
}

// One spatial dim padded by `before` and `after`: (in + before + after - k) / stride + 1.
absl::Status ExplicitOutputSize(int64_t in, int64_t k, int64_t stride, int64_t before,
                                int64_t after, const char* dim, int64_t* out) {
  if (in < 0) {
    *out = -1;
    return absl::OkStatus();
  }
  auto padded = checked::Add(in, before);
  if (padded) padded = checked::Add(*padded, after);
  if (!padded) return errors::InvalidArgument("the explicit padding of the ", dim, " overflows");
  if (k > *padded) {
    return errors::InvalidArgument("the window's ", dim, " (", k, ") is larger than the padded ",
                                   "input's (", *padded, ")");
  }
  *out = (*padded - k) / stride + 1;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<int64_t> DilatedSpanOr(int64_t k, int64_t dilation, const char* dim) {
  auto span = checked::Mul(k - 1, dilation);
  if (span) span = checked::Add(*span, 1);
  if (!span) return errors::InvalidArgument("the dilated window's ", dim, " overflows int64");
  return *span;
}

namespace {
// An int-list attr by a key made once (no allocation per run); empty when absent.
const std::vector<int64_t>& IntsOrNone(const AttrMap& attrs, const std::string& key) {
  static const auto* none = new std::vector<int64_t>();
  auto it = attrs.find(key);
  if (it == attrs.end()) return *none;
  return std::get<std::vector<int64_t>>(it->second);
}
}  // namespace

const std::vector<int64_t>& ExplicitPaddingsOf(const AttrMap& attrs) {
  static const auto* key = new std::string("explicit_paddings");
  return IntsOrNone(attrs, *key);
}
const std::vector<int64_t>& DilationsOf(const AttrMap& attrs) {
  static const auto* key = new std::string("dilations");
  return IntsOrNone(attrs, *key);
}

absl::StatusOr<Conv2DGeometry> ComputeConv2DGeometry(absl::Span<const int64_t> input, int64_t k_h,
                                                     int64_t k_w, int64_t out_c,
                                                     const std::vector<int64_t>& strides,
                                                     const std::string& padding,
                                                     const std::vector<int64_t>& explicit_paddings,
                                                     const std::vector<int64_t>& dilations) {
  if (input.size() != 4) {
    return errors::InvalidArgument("input must be 4-D [batch, height, width, channels], got rank ",
                                   input.size());
  }
  RILL_RETURN_IF_ERROR(CheckNhwcList(strides, "strides"));
  const bool explicit_pad = padding == "EXPLICIT";
  if (padding != "SAME" && padding != "VALID" && !explicit_pad) {
    return errors::InvalidArgument("padding must be SAME, VALID or EXPLICIT, got '", padding, "'");
  }
  if (explicit_pad) {
    RILL_RETURN_IF_ERROR(CheckExplicitPaddings(explicit_paddings));
  } else if (!explicit_paddings.empty()) {
    return errors::InvalidArgument("explicit_paddings must be empty unless padding is EXPLICIT");
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
  if (!dilations.empty()) {
    RILL_RETURN_IF_ERROR(CheckNhwcList(dilations, "dilations"));
    g.dilation_h = dilations[1];
    g.dilation_w = dilations[2];
  }
  // The spans the padding and the output size see.
  RILL_ASSIGN_OR_RETURN(const int64_t span_h, DilatedSpanOr(k_h, g.dilation_h, "height"));
  RILL_ASSIGN_OR_RETURN(const int64_t span_w, DilatedSpanOr(k_w, g.dilation_w, "width"));
  if (explicit_pad) {
    const auto& p = explicit_paddings;
    RILL_RETURN_IF_ERROR(
        ExplicitOutputSize(g.in_h, span_h, g.stride_h, p[2], p[3], "height", &g.out_h));
    RILL_RETURN_IF_ERROR(
        ExplicitOutputSize(g.in_w, span_w, g.stride_w, p[4], p[5], "width", &g.out_w));
    g.pad_top = p[2];
    g.pad_left = p[4];
    return g;
  }
  const bool same = padding == "SAME";
  RILL_RETURN_IF_ERROR(
      WindowOutputSize(g.in_h, span_h, g.stride_h, same, "height", &g.out_h, &g.pad_top));
  RILL_RETURN_IF_ERROR(
      WindowOutputSize(g.in_w, span_w, g.stride_w, same, "width", &g.out_w, &g.pad_left));
  return g;
}

}  // namespace rill
