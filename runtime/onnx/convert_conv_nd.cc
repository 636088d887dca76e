// Conv and ConvTranspose over 3-D windows as rill's Conv3D and Conv3DBackpropInputV2. The
// importer sends rank-5 inputs here; the window code also lifts 1-D and 2-D windows (unit
// dims in front), kept so one description serves every rank. The value goes channels-last ([N, D,
// H, W, C]) and back through Transposes; groups and dilations are the ops' own; ONNX's numeric pads
// are a Pad op before the convolution, or for a transposed one a crop of its full output.
#include <algorithm>

#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

constexpr int kDims = 3;  // the spatial dims of the ops used

// A node's window with `lead` unit dims in front of its `spatial` ones.
struct NdWindow {
  int spatial = 0, lead = 0;
  std::vector<int64_t> kernel, strides, dilations, begin, end;  // kDims each
  std::string auto_pad;
};

// One entry per spatial dim (`dflt` when absent), with `lead` entries of `fill` in front.
absl::StatusOr<std::vector<int64_t>> PerDim(const NodeContext& c, const char* name,
                                            std::vector<int64_t> v, const NdWindow& w, int64_t dflt,
                                            int64_t fill) {
  if (v.empty()) v.assign(w.spatial, dflt);
  if (static_cast<int>(v.size()) != w.spatial) {
    return c.Error(name, " has ", v.size(), " values for ", w.spatial, " spatial dims");
  }
  v.insert(v.begin(), w.lead, fill);
  return v;
}

absl::StatusOr<NdWindow> WindowOf(const NodeContext& c) {
  NdWindow w;
  const int64_t rank = RankOf(c.input(0));
  if (rank < 3 || rank > 2 + kDims) return c.Error("input of rank ", rank, ": 1 to 3 spatial dims");
  w.spatial = static_cast<int>(rank - 2);
  w.lead = kDims - w.spatial;
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> k, KernelOf(c, c.input(1), w.spatial));
  RILL_ASSIGN_OR_RETURN(w.kernel, PerDim(c, "kernel_shape", k, w, 1, 1));
  RILL_ASSIGN_OR_RETURN(w.strides, PerDim(c, "strides", c.attrs().ints("strides"), w, 1, 1));
  RILL_ASSIGN_OR_RETURN(w.dilations, PerDim(c, "dilations", c.attrs().ints("dilations"), w, 1, 1));
  std::vector<int64_t> pads = c.attrs().ints("pads");
  if (pads.empty()) pads.assign(2 * w.spatial, 0);
  if (static_cast<int>(pads.size()) != 2 * w.spatial) return c.Error("pads per spatial dim");
  for (int d = 0; d < kDims; ++d) {
    const bool lead = d < w.lead;
    w.begin.push_back(lead ? 0 : pads[d - w.lead]);
    w.end.push_back(lead ? 0 : pads[w.spatial + d - w.lead]);
    if (w.kernel[d] < 1 || w.strides[d] < 1 || w.dilations[d] < 1) {
      return c.Error("kernel_shape, strides and dilations must be positive");
    }
  }
  w.auto_pad = c.attrs().s("auto_pad", "NOTSET");
  return w;
}

// x [N, C, spatial...] as [N, D, H, W, C].
Output ToNdhwc(const NodeContext& c, Output x, const NdWindow& w) {
  for (int i = 0; i < w.lead; ++i) x = c.Op("ExpandDims", {x, c.Const(Tensor(int64_t{2}))});
  return c.Op("Transpose", {x, c.Int64s({0, 2, 3, 4, 1})});
}

// y [N, D, H, W, C] back as ONNX's [N, C, spatial...].
Output FromNdhwc(const NodeContext& c, const Output& y, const NdWindow& w) {
  Output t = c.Op("Transpose", {y, c.Int64s({0, 4, 1, 2, 3})});
  if (w.lead == 0) return t;
  std::vector<int64_t> axes;
  for (int i = 0; i < w.lead; ++i) axes.push_back(2 + i);
  return c.Op("Squeeze", {t}, {{"squeeze_dims", axes}});
}

// An ONNX filter [out, in / group, spatial...] as [D, H, W, in / group, out].
Output FilterOf(const NodeContext& c, const NdWindow& w) {
  Output f = c.input(1);
  for (int i = 0; i < w.lead; ++i) f = c.Op("ExpandDims", {f, c.Const(Tensor(int64_t{2}))});
  return c.Op("Transpose", {f, c.Int64s({2, 3, 4, 1, 0})});
}

std::vector<std::pair<std::string, AttrValue>> Attrs(const NdWindow& w, const std::string& pad) {
  auto five = [](const std::vector<int64_t>& v) {
    return std::vector<int64_t>{1, v[0], v[1], v[2], 1};
  };
  return {{"strides", five(w.strides)}, {"dilations", five(w.dilations)}, {"padding", pad}};
}

// x padded per the window's begin and end pads (zeros), channels-last.
Output PadNdhwc(const NodeContext& c, const Output& x, const NdWindow& w) {
  Tensor p(DT_INT64, TensorShape({5, 2}));
  p.matrix<int64_t>().setZero();
  for (int d = 0; d < kDims; ++d) {
    p.matrix<int64_t>()(1 + d, 0) = w.begin[d];
    p.matrix<int64_t>()(1 + d, 1) = w.end[d];
  }
  return c.Op("Pad", {x, c.Const(p)});
}

bool AnyPad(const NdWindow& w) {
  for (int d = 0; d < kDims; ++d) {
    if (w.begin[d] != 0 || w.end[d] != 0) return true;
  }
  return false;
}

// SAME_LOWER: the pads from the known input size, the odd one before.
absl::Status SameLower(const NodeContext& c, const Output& x, NdWindow* w) {
  const PartialTensorShape& s = x.shape();
  for (int d = 0; d < kDims; ++d) {
    if (s.unknown_rank() || s.dim_size(1 + d) < 0) {
      return c.Error("auto_pad SAME_LOWER needs the input's spatial size");
    }
    const int64_t in = s.dim_size(1 + d), st = w->strides[d];
    const int64_t span = (w->kernel[d] - 1) * w->dilations[d] + 1;
    const int64_t total = std::max<int64_t>(((in + st - 1) / st - 1) * st + span - in, 0);
    w->begin[d] = total - total / 2;
    w->end[d] = total / 2;
  }
  return absl::OkStatus();
}

absl::Status ConvertConvNdImpl(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(NdWindow w, WindowOf(c));
  Output x = ToNdhwc(c, c.input(0), w);
  std::string padding = "VALID";
  if (w.auto_pad == "SAME_UPPER") {
    padding = "SAME";
  } else if (w.auto_pad == "SAME_LOWER") {
    RILL_RETURN_IF_ERROR(SameLower(c, x, &w));
    x = PadNdhwc(c, x, w);
  } else if (w.auto_pad != "VALID" && AnyPad(w)) {
    x = PadNdhwc(c, x, w);
  }
  Output y = c.Op("Conv3D", {x, FilterOf(c, w)}, Attrs(w, padding));
  if (c.has_input(2)) y = c.Op("BiasAdd", {y, c.input(2)});
  c.set_output(0, FromNdhwc(c, y, w));
  return absl::OkStatus();
}

// Per spatial dim of a transposed convolution: its full output (every input position's
// window written), as a size when the input's is known, else as stride * in + extra; and
// the pads to crop from it (each end; negative: zeros to add).
struct FullOutput {
  std::vector<int64_t> full, extra;
};

absl::StatusOr<FullOutput> FullOutputOf(const NodeContext& c, const Output& x, NdWindow* w) {
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> out_pad,
                        PerDim(c, "output_padding", c.attrs().ints("output_padding"), *w, 0, 0));
  std::vector<int64_t> out_shape = c.attrs().ints("output_shape");
  if (!out_shape.empty()) {
    RILL_ASSIGN_OR_RETURN(out_shape, PerDim(c, "output_shape", out_shape, *w, 0, 1));
  }
  const bool same = w->auto_pad == "SAME_UPPER" || w->auto_pad == "SAME_LOWER";
  FullOutput f;
  for (int d = 0; d < kDims; ++d) {
    const int64_t in = x.shape().unknown_rank() ? -1 : x.shape().dim_size(1 + d);
    if (in < 0 && !out_shape.empty()) return c.Error("output_shape needs the input's spatial dims");
    const int64_t s = w->strides[d], span = (w->kernel[d] - 1) * w->dilations[d] + 1;
    if (out_pad[d] < 0 || out_pad[d] >= std::max(s, w->dilations[d])) {
      return c.Error("output_padding must be in [0, max(stride, dilation))");
    }
    f.extra.push_back(span + out_pad[d] - s);
    f.full.push_back(in < 0 ? -1 : s * in + f.extra[d]);
    if (!out_shape.empty() || same) {
      // SAME wants stride * in: the total pad is `extra`, whatever the input size.
      const int64_t total = out_shape.empty() ? f.extra[d] : f.full[d] - out_shape[d];
      w->begin[d] = w->auto_pad != "SAME_LOWER" ? total / 2 : total - total / 2;
      w->end[d] = total - w->begin[d];
    } else if (w->auto_pad == "VALID") {
      w->begin[d] = w->end[d] = 0;
    }
  }
  return f;
}

// The full output's size, [N, D, H, W, out channels], for Conv3DBackpropInputV2.
Output FullSizes(const NodeContext& c, const Output& x, const FullOutput& f, const NdWindow& w,
                 int64_t channels) {
  std::vector<Output> parts = {c.Op("Slice", {ShapeOf(c, x), c.Int64s({0}), c.Int64s({1})})};
  for (int d = 0; d < kDims; ++d) {
    if (f.full[d] >= 0) {
      parts.push_back(c.Int64s({f.full[d]}));
    } else {  // stride * in + extra, at run time
      Output in = c.Op("Slice", {ShapeOf(c, x), c.Int64s({1 + d}), c.Int64s({1})});
      parts.push_back(
          c.Op("Add", {c.Op("Mul", {in, c.Int64s({w.strides[d]})}), c.Int64s({f.extra[d]})}));
    }
  }
  parts.push_back(c.Int64s({channels}));
  parts.push_back(ScalarI32(c, 0));
  return c.Op("ConcatV2", parts);
}

// y with the window's pads cropped, or zeros added for negative ones.
Output Crop(const NodeContext& c, const Output& y, const NdWindow& w) {
  Tensor grow(DT_INT64, TensorShape({5, 2}));
  grow.matrix<int64_t>().setZero();
  std::vector<int64_t> begin(5, 0), end(5, 0);
  int64_t end_mask = 0b10001;
  for (int d = 0; d < kDims; ++d) {
    grow.matrix<int64_t>()(1 + d, 0) = std::max<int64_t>(-w.begin[d], 0);
    grow.matrix<int64_t>()(1 + d, 1) = std::max<int64_t>(-w.end[d], 0);
    begin[1 + d] = std::max<int64_t>(w.begin[d], 0);
    end[1 + d] = -std::max<int64_t>(w.end[d], 0);
    if (end[1 + d] == 0) end_mask |= int64_t{1} << (1 + d);
  }
  Output cropped =
      c.Op("StridedSlice", {y, c.Int64s(begin), c.Int64s(end), c.Int64s({1, 1, 1, 1, 1})},
           {{"begin_mask", int64_t{0b10001}}, {"end_mask", end_mask}});
  return c.Op("Pad", {cropped, c.Const(grow)});
}

// The transposed convolution is the input gradient of a convolution whose filter maps the
// output's channels to the input's: Conv3DBackpropInputV2 over the full output, cropped.
absl::Status ConvertConvTransposeNdImpl(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(NdWindow w, WindowOf(c));
  const PartialTensorShape& ws = c.input(1).shape();
  if (ws.unknown_rank() || ws.dim_size(1) < 0) return c.Error("the filter's shape must be known");
  const int64_t group = c.attrs().i("group", 1);
  if (group < 1) return c.Error("group ", group);
  Output x = ToNdhwc(c, c.input(0), w);
  RILL_ASSIGN_OR_RETURN(FullOutput full, FullOutputOf(c, x, &w));
  Output sizes = FullSizes(c, x, full, w, ws.dim_size(1) * group);
  Output y = c.Op("Conv3DBackpropInputV2", {sizes, FilterOf(c, w), x}, Attrs(w, "VALID"));
  if (AnyPad(w)) y = Crop(c, y, w);
  if (c.has_input(2)) y = c.Op("BiasAdd", {y, c.input(2)});
  c.set_output(0, FromNdhwc(c, y, w));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> KernelOf(const NodeContext& c, const Output& w, int spatial) {
  std::vector<int64_t> k = c.attrs().ints("kernel_shape");
  if (!k.empty()) return k;
  const PartialTensorShape& s = w.shape();
  if (s.unknown_rank() || s.dims() != spatial + 2)
    return c.Error("the filter's shape is not known");
  for (int d = 2; d < s.dims(); ++d) {
    if (s.dim_size(d) < 0) return c.Error("the filter's spatial dims are not known");
    k.push_back(s.dim_size(d));
  }
  return k;
}

std::string ConvTransposeSupport(const SupportView& v) {
  for (int64_t d : v.attrs.ints("dilations")) {
    if (d < 1) return "dilations below 1";
  }
  if (v.attrs.ints("kernel_shape").size() > 3 || v.rank(0) > 5 || v.rank(1) > 5) {
    return "windows of more than 3 dims";
  }
  const std::string pad = v.attrs.s("auto_pad", "NOTSET");
  if (pad != "NOTSET" && pad != "VALID" && pad != "SAME_UPPER" && pad != "SAME_LOWER") {
    return absl::StrCat("auto_pad ", pad);
  }
  return "";
}

absl::Status ConvertConvNd(NodeContext& c) { return ConvertConvNdImpl(c); }
absl::Status ConvertConvTransposeNd(NodeContext& c) { return ConvertConvTransposeNdImpl(c); }

}  // namespace rill::onnx::internal
