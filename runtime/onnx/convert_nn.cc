// ONNX's neural-network ops: MatMul, Gemm, Conv, ConvTranspose and pooling. ONNX is
// channels-first (NCHW); rill's Conv2D and pools are TensorFlow's channels-last kernels,
// so a convolution is Transpose -> Conv2D -> BiasAdd -> Transpose (the graph optimizer
// folds the filter's transpose into a constant once per plan). Padding ONNX gives as
// numbers becomes an explicit Pad before a VALID window; SAME_UPPER is TensorFlow's SAME.
#include <limits>

#include "rill/runtime/onnx/converter.h"
#include "rill/runtime/onnx/layout.h"

namespace rill::onnx::internal {
namespace {

absl::Status ConvertMatMul(NodeContext& c) {
  Output a = c.input(0), b = c.input(1);
  const int64_t ra = RankOf(a), rb = RankOf(b);
  if (ra == 2 && rb == 2) {
    c.set_output(0, c.Op("MatMul", {a, b}));
    return absl::OkStatus();
  }
  if (ra < 0 || rb < 0) {
    c.set_output(0, c.Op("BatchMatMulV2", {a, b}));
    return absl::OkStatus();
  }
  // numpy's matmul: a vector operand gains a dim of 1 that the result drops.
  if (ra == 1) a = c.Op("ExpandDims", {a, c.Const(Tensor(int64_t{0}))});
  if (rb == 1) b = c.Op("ExpandDims", {b, c.Const(Tensor(int64_t{1}))});
  Output y = c.Op("BatchMatMulV2", {a, b});
  std::vector<int64_t> drop;
  const int64_t ry = std::max(ra == 1 ? 2 : ra, rb == 1 ? 2 : rb);
  if (ra == 1) drop.push_back(ry - 2);
  if (rb == 1) drop.push_back(ry - 1);
  if (!drop.empty()) y = c.Op("Squeeze", {y}, {{"squeeze_dims", drop}});
  c.set_output(0, y);
  return absl::OkStatus();
}

// alpha * op(A) op(B) + beta * C
absl::Status ConvertGemm(NodeContext& c) {
  Output y = c.Op("MatMul", {c.input(0), c.input(1)},
                  {{"transpose_a", c.attrs().i("transA", 0) != 0},
                   {"transpose_b", c.attrs().i("transB", 0) != 0}});
  const float alpha = c.attrs().f("alpha", 1.f), beta = c.attrs().f("beta", 1.f);
  if (alpha != 1.f) y = c.Op("Mul", {y, ScalarLike(c, y, alpha)});
  if (c.has_input(2)) {
    Output bias = c.input(2);
    if (beta != 1.f) bias = c.Op("Mul", {bias, ScalarLike(c, bias, beta)});
    y = c.Op("Add", {y, bias});
  }
  c.set_output(0, y);
  return absl::OkStatus();
}

// The window attributes shared by Conv and the pools, for 1-D and 2-D windows.
struct Window {
  std::vector<int64_t> kernel, strides, pads;  // pads: begins then ends
  std::string auto_pad;
};

std::string WindowSupport(const SupportView& v, bool is_conv) {
  for (int64_t d : v.attrs.ints("dilations")) {
    if (d < 1) return "dilations below 1";
  }
  const size_t k = v.attrs.ints("kernel_shape").size();
  if (is_conv && (k > 3 || v.rank(0) > 5 || v.rank(1) > 5)) return "windows of more than 3 dims";
  if (!is_conv && k == 0) return "a pool needs kernel_shape";
  const std::string pad = v.attrs.s("auto_pad", "NOTSET");
  if (pad != "NOTSET" && pad != "VALID" && pad != "SAME_UPPER" && pad != "SAME_LOWER") {
    return absl::StrCat("auto_pad ", pad);
  }
  if (!is_conv && v.node.output_size() > 1 && !v.node.output(1).empty()) {
    // Through MaxPoolWithArgmax: 2-D windows, no dilations, no ceil_mode.
    const std::vector<int64_t> dil = v.attrs.ints("dilations");
    if (k != 2 || v.attrs.i("ceil_mode", 0) != 0 ||
        std::any_of(dil.begin(), dil.end(), [](int64_t d) { return d != 1; })) {
      return "the Indices output of a window other than 2-D without dilations or ceil_mode";
    }
  } else if (v.attrs.i("storage_order", 0) != 0) {
    return "storage_order 1 without the Indices output";
  }
  return "";
}

std::string ConvSupport(const SupportView& v) { return WindowSupport(v, true); }
// As ONNX Runtime: a pool's pads are smaller than its window (a larger pad only adds
// windows of padding, and a model could ask for millions of them).
std::string PoolSupport(const SupportView& v) {
  const std::vector<int64_t> kernel = v.attrs.ints("kernel_shape"), pads = v.attrs.ints("pads");
  for (size_t i = 0; i < pads.size() && !kernel.empty(); ++i) {
    const int64_t k = kernel[i % kernel.size()];
    if (pads[i] < 0 || pads[i] >= k) {
      return absl::StrCat("pad ", pads[i], " is not in [0, the window's ", k, ")");
    }
  }
  return WindowSupport(v, false);
}

// x (NCHW, or NCW made NC1W) as NHWC with its window; `spatial` is 1 or 2.
absl::StatusOr<Window> WindowOf(const NodeContext& c, int spatial, std::vector<int64_t> kernel) {
  Window w;
  w.kernel = kernel;
  w.strides = c.attrs().ints("strides");
  w.pads = c.attrs().ints("pads");
  w.auto_pad = c.attrs().s("auto_pad", "NOTSET");
  if (w.strides.empty()) w.strides.assign(spatial, 1);
  if (w.pads.empty()) w.pads.assign(2 * spatial, 0);
  if (static_cast<int>(w.kernel.size()) != spatial ||
      static_cast<int>(w.strides.size()) != spatial ||
      static_cast<int>(w.pads.size()) != 2 * spatial) {
    return c.Error("kernel, strides and pads do not match the input's ", spatial, " spatial dims");
  }
  for (int64_t p : w.pads) {
    if (p < 0) return c.Error("negative pads");
  }
  if (spatial == 1) {  // as a 2-D window of height 1
    w.kernel.insert(w.kernel.begin(), 1);
    w.strides.insert(w.strides.begin(), 1);
    w.pads = {0, w.pads[0], 0, w.pads[1]};
  }
  return w;
}

// SAME_LOWER puts the odd pad at the start: explicit pads from the known input size.
absl::Status ResolveSameLower(const NodeContext& c, const Output& nhwc, Window* w) {
  const PartialTensorShape& s = nhwc.shape();
  for (int d = 0; d < 2; ++d) {
    if (s.unknown_rank() || s.dim_size(1 + d) < 0) {
      return c.Error("auto_pad SAME_LOWER needs the input's spatial size");
    }
    const int64_t in = s.dim_size(1 + d), st = w->strides[d];
    const int64_t out = (in + st - 1) / st;
    const int64_t total = std::max<int64_t>((out - 1) * st + w->kernel[d] - in, 0);
    w->pads[d] = total - total / 2;
    w->pads[2 + d] = total / 2;
  }
  w->auto_pad = "NOTSET";
  return absl::OkStatus();
}

bool AnyPad(const Window& w) {
  for (int64_t p : w.pads) {
    if (p != 0) return true;
  }
  return false;
}

// NHWC x padded by the window's explicit pads with zeros.
Output PadNhwc(const NodeContext& c, const Output& x, const Window& w) {
  Tensor p(DT_INT64, TensorShape({4, 2}));
  auto m = p.matrix<int64_t>();
  m.setZero();
  for (int d = 0; d < 2; ++d) {
    m(1 + d, 0) = w.pads[d];
    m(1 + d, 1) = w.pads[2 + d];
  }
  return c.Op("Pad", {x, c.Const(p)});
}

// Input 0 as NHWC with `spatial` dims (its channels-last twin when the importer holds
// one), or an error for another rank.
absl::StatusOr<Output> ToNhwc(const NodeContext& c, int* spatial) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank != 3 && rank != 4)
    return c.Error("only 1-D and 2-D windows are supported (input rank ", rank, ")");
  *spatial = static_cast<int>(rank - 2);
  if (c.nhwc_input(0).node() != nullptr) return c.nhwc_input(0);  // [N, H or 1, W, C]
  if (rank == 3) x = c.Op("ExpandDims", {x, c.Const(Tensor(int64_t{2}))});
  return c.Op("Transpose", {x, c.Int64s(kToNhwc)});
}

// Output 0 from the NHWC result y (of height 1 for a 1-D window), kept as its twin.
void SetNhwcOutput(NodeContext& c, const Output& y, int spatial) {
  SetChannelsLast(c, 0, y, spatial + 2);
}

// The padding word for the windowed op, padding x explicitly where ONNX gave numbers.
absl::StatusOr<std::string> PrepareWindow(const NodeContext& c, Output* x, Window* w) {
  if (w->auto_pad == "SAME_LOWER") RILL_RETURN_IF_ERROR(ResolveSameLower(c, *x, w));
  if (w->auto_pad == "SAME_UPPER") return std::string("SAME");
  if (w->auto_pad == "VALID" || !AnyPad(*w)) return std::string("VALID");
  return std::string("EXPLICIT");
}

std::vector<int64_t> Strides4(const Window& w) { return {1, w.strides[0], w.strides[1], 1}; }
std::vector<int64_t> Ksize4(const Window& w) { return {1, w.kernel[0], w.kernel[1], 1}; }

// A filter [kH, kW, C, M] dilated along spatial `axis` (0 or 1) by d: d - 1 zeros between
// taps, so that a plain convolution with it is the dilated one.
absl::StatusOr<Output> Dilate(const NodeContext& c, const Output& filter, int axis, int64_t d,
                              int64_t k) {
  const PartialTensorShape& s = filter.shape();
  if (s.unknown_rank() || !s.IsFullyDefined()) return c.Error("dilations need the filter's shape");
  Output f = c.Op("ExpandDims", {filter, c.Const(Tensor(int64_t{axis + 1}))});
  Tensor pad(DT_INT64, TensorShape({5, 2}));
  pad.matrix<int64_t>().setZero();
  pad.matrix<int64_t>()(axis + 1, 1) = d - 1;
  f = c.Op("Pad", {f, c.Const(pad)});  // each tap followed by d - 1 zeros
  // The filter's dims with `axis` now k * d long.
  std::vector<int64_t> merged(s.dim_sizes().begin(), s.dim_sizes().end());
  merged[axis] = k * d;
  f = c.Op("Reshape", {f, c.Int64s(merged)});
  std::vector<int64_t> size = {-1, -1, -1, -1};
  size[axis] = (k - 1) * d + 1;  // the trailing zeros dropped
  return c.Op("Slice", {f, c.Int64s({0, 0, 0, 0}), c.Int64s(size)});
}

// Whether w [M, C/g, ...] is a depthwise filter of `group` groups: one input channel per
// group (C = group), M / group filters each.
bool IsDepthwise(const Output& w, int64_t group) {
  const PartialTensorShape& s = w.shape();
  return group > 1 && s.IsFullyDefined() && s.dims() >= 3 && s.dim_size(1) == 1 &&
         s.dim_size(0) > 0 && s.dim_size(0) % group == 0;
}

// The filter as rill's convolution takes it: [kH, kW, C/g, M] for Conv2D, or
// DepthwiseConv2dNative's [kH, kW, C, M / C] (the same values in the same order).
Output FilterOf(const NodeContext& c, const Output& w, bool depthwise, int64_t group) {
  Output filter = c.Op("Transpose", {w, c.Int64s({2, 3, 1, 0})});  // [kH, kW, C/g, M]
  if (!depthwise) return filter;
  const PartialTensorShape& s = w.shape();
  return c.Op("Reshape",
              {filter, c.Int64s({s.dim_size(2), s.dim_size(3), group, s.dim_size(0) / group})});
}

absl::Status ConvertConv(NodeContext& c) {
  if (RankOf(c.input(0)) == 5) return ConvertConvNd(c);
  int spatial = 0;
  RILL_ASSIGN_OR_RETURN(Output x, ToNhwc(c, &spatial));
  Output w = c.input(1);
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, KernelOf(c, w, spatial));
  RILL_ASSIGN_OR_RETURN(Window win, WindowOf(c, spatial, kernel));
  std::vector<int64_t> dil = c.attrs().ints("dilations");
  if (dil.empty()) dil.assign(spatial, 1);
  if (static_cast<int>(dil.size()) != spatial) return c.Error("one dilation per spatial dim");
  if (spatial == 1) {
    w = c.Op("ExpandDims", {w, c.Const(Tensor(int64_t{2}))});
    dil.insert(dil.begin(), 1);
  }
  const int64_t group = c.attrs().i("group", 1);
  if (group < 1) return c.Error("group ", group);
  const bool depthwise = IsDepthwise(w, group);
  Output filter = FilterOf(c, w, depthwise, group);
  for (int d = 0; d < 2; ++d) {
    if (dil[d] == 1) continue;
    // Conv2D dilates itself; the depthwise op takes no dilations (as TensorFlow's).
    if (depthwise) {
      RILL_ASSIGN_OR_RETURN(filter, Dilate(c, filter, d, dil[d], win.kernel[d]));
    }
    win.kernel[d] = (win.kernel[d] - 1) * dil[d] + 1;  // the window the padding sees
  }
  RILL_ASSIGN_OR_RETURN(std::string padding, PrepareWindow(c, &x, &win));
  std::vector<std::pair<std::string, AttrValue>> attrs = {{"strides", Strides4(win)},
                                                          {"padding", padding}};
  if (!depthwise && (dil[0] != 1 || dil[1] != 1)) {
    attrs.push_back({"dilations", std::vector<int64_t>{1, dil[0], dil[1], 1}});
  }
  if (padding == "EXPLICIT") {  // the convolution pads, without a Pad op
    attrs.push_back({"explicit_paddings", std::vector<int64_t>{0, 0, win.pads[0], win.pads[2],
                                                               win.pads[1], win.pads[3], 0, 0}});
  }
  Output y;
  if (group == 1 || depthwise) {
    y = c.Op(depthwise ? "DepthwiseConv2dNative" : "Conv2D", {x, filter}, attrs);
  } else {
    Operation xs = c.OpNode("Split", {ScalarI32(c, 3), x}, {{"num_split", group}});
    Operation fs = c.OpNode("Split", {ScalarI32(c, 3), filter}, {{"num_split", group}});
    if (xs.node() == nullptr || fs.node() == nullptr) return absl::OkStatus();
    std::vector<Output> ys;
    for (int64_t g = 0; g < group; ++g) {
      ys.push_back(c.Op("Conv2D", {Output(xs.node(), g), Output(fs.node(), g)}, attrs));
    }
    ys.push_back(ScalarI32(c, 3));
    y = c.Op("ConcatV2", ys);
  }
  if (c.has_input(2)) y = c.Op("BiasAdd", {y, c.input(2)});
  SetNhwcOutput(c, y, spatial);
  return absl::OkStatus();
}

// 1 inside x and 0 in the padding, padded like x.
Output PaddedMask(const NodeContext& c, const Output& x, const Window& w) {
  return PadNhwc(c, c.Op("OnesLike", {x}), w);
}

// Whether rill's NHWC pool kernels cover this window: 1-D or 2-D, no dilation, no ceil_mode.
bool NhwcPool(const NodeContext& c) {
  for (int64_t d : c.attrs().ints("dilations")) {
    if (d != 1) return false;
  }
  const int64_t rank = RankOf(c.input(0));
  return (rank == 3 || rank == 4) && c.attrs().i("ceil_mode", 0) == 0;
}

absl::Status ConvertMaxPool(NodeContext& c) {
  if (c.node().output_size() > 1 && !c.node().output(1).empty()) {
    return ConvertMaxPoolWithIndices(c);
  }
  if (!NhwcPool(c)) return PoolBySlices(c, true);
  int spatial = 0;
  RILL_ASSIGN_OR_RETURN(Output x, ToNhwc(c, &spatial));
  RILL_ASSIGN_OR_RETURN(Window win, WindowOf(c, spatial, c.attrs().ints("kernel_shape")));
  // Integers pool as doubles (exact to 2^53), as rill's MaxPool kernels are float ones.
  const DataType dtype = x.type();
  const bool integer = dtype != DT_FLOAT && dtype != DT_DOUBLE;
  if (integer) x = c.Op("Cast", {x}, {{"DstT", DT_DOUBLE}});
  RILL_ASSIGN_OR_RETURN(std::string padding, PrepareWindow(c, &x, &win));
  if (padding == "EXPLICIT") {
    // The padding never wins a max: the lowest value there.
    Output outside = c.Op("Equal", {PaddedMask(c, x, win), ScalarLike(c, x, 0)});
    Output lowest = ScalarLike(c, x, -std::numeric_limits<double>::infinity());
    x = c.Op("SelectV2", {outside, lowest, PadNhwc(c, x, win)});
    padding = "VALID";
  }
  Output y = c.Op("MaxPool", {x},
                  {{"ksize", Ksize4(win)}, {"strides", Strides4(win)}, {"padding", padding}});
  if (integer) y = c.Op("Cast", {y}, {{"DstT", dtype}});
  SetNhwcOutput(c, y, spatial);
  return absl::OkStatus();
}

// AveragePool: TensorFlow's SAME leaves the padding out of the count, as ONNX's default
// count_include_pad=0; explicit pads divide by the count of real elements in each window.
absl::Status ConvertAveragePool(NodeContext& c) {
  if (!NhwcPool(c)) return PoolBySlices(c, false);
  int spatial = 0;
  RILL_ASSIGN_OR_RETURN(Output x, ToNhwc(c, &spatial));
  RILL_ASSIGN_OR_RETURN(Window win, WindowOf(c, spatial, c.attrs().ints("kernel_shape")));
  const bool include_pad = c.attrs().i("count_include_pad", 0) != 0;
  if (include_pad && win.auto_pad == "SAME_UPPER") {
    win.auto_pad = "SAME_LOWER";  // explicit pads, then the odd one moved to the end
    RILL_RETURN_IF_ERROR(ResolveSameLower(c, x, &win));
    std::swap(win.pads[0], win.pads[2]);
    std::swap(win.pads[1], win.pads[3]);
  }
  RILL_ASSIGN_OR_RETURN(std::string padding, PrepareWindow(c, &x, &win));
  const std::vector<std::pair<std::string, AttrValue>> attrs = {
      {"ksize", Ksize4(win)}, {"strides", Strides4(win)}, {"padding", std::string("VALID")}};
  Output y;
  if (padding != "EXPLICIT") {
    y = c.Op("AvgPool", {x},
             {{"ksize", Ksize4(win)}, {"strides", Strides4(win)}, {"padding", padding}});
  } else {
    y = c.Op("AvgPool", {PadNhwc(c, x, win)}, attrs);
    if (!include_pad) y = c.Op("Div", {y, c.Op("AvgPool", {PaddedMask(c, x, win)}, attrs)});
  }
  SetNhwcOutput(c, y, spatial);
  return absl::OkStatus();
}

ConvertFn GlobalPool(std::string reduce) {
  return [reduce](NodeContext& c) {
    if (Output x = c.nhwc_input(0); x.node() != nullptr) {  // [N, 1, 1, C]
      Output y = c.Op(reduce, {x, c.Int64s({1, 2})}, {{"keep_dims", true}});
      SetNhwcOutput(c, y, static_cast<int>(RankOf(c.input(0))) - 2);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, SpatialAxes(c, c.input(0)));
    c.set_output(0, c.Op(reduce, {c.input(0), c.Int64s(axes)}, {{"keep_dims", true}}));
    return absl::OkStatus();
  };
}

// Per spatial dim of a transposed convolution: the full output (every input position's
// window written), and how much of it to drop at each end (negative: zeros to add).
struct TransposedDim {
  int64_t full = 0, begin = 0, end = 0;
  int64_t extra = 0;  // full - stride * input size
};

absl::StatusOr<std::vector<TransposedDim>> TransposedDims(const NodeContext& c, const Output& nhwc,
                                                          const Window& w, int spatial) {
  std::vector<int64_t> out_pad = c.attrs().ints("output_padding");
  std::vector<int64_t> out_shape = c.attrs().ints("output_shape");
  if (out_pad.empty()) out_pad.assign(spatial, 0);
  if (static_cast<int>(out_pad.size()) != spatial) return c.Error("output_padding per spatial dim");
  if (spatial == 1) out_pad.insert(out_pad.begin(), 0);
  if (!out_shape.empty() && spatial == 1) out_shape.insert(out_shape.begin(), 1);
  if (!out_shape.empty() && out_shape.size() != 2) return c.Error("output_shape per spatial dim");
  std::vector<TransposedDim> dims(2);
  for (int d = 0; d < 2; ++d) {
    // An input size known only at run time (-1) leaves `full` to be computed then; the
    // pads do not depend on it except through output_shape.
    const int64_t in = nhwc.shape().unknown_rank() ? -1 : nhwc.shape().dim_size(1 + d);
    if (in < 0 && !out_shape.empty()) return c.Error("output_shape needs the input's spatial dims");
    const int64_t s = w.strides[d], k = w.kernel[d];
    if (out_pad[d] < 0 || out_pad[d] >= s) return c.Error("output_padding must be in [0, stride)");
    TransposedDim& t = dims[d];
    t.full = in < 0 ? -1 : s * (in - 1) + k + out_pad[d];
    t.extra = k + out_pad[d] - s;  // full = s * in + extra
    int64_t pb = w.pads[d], pe = w.pads[2 + d];
    if (!out_shape.empty() || w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") {
      // SAME wants s * in: the total pad is `extra`, whatever the input size.
      const int64_t total = out_shape.empty() ? t.extra : t.full - out_shape[d];
      const bool upper = w.auto_pad != "SAME_LOWER";
      pb = upper ? total / 2 : total - total / 2;
      pe = total - pb;
    } else if (w.auto_pad == "VALID") {
      pb = pe = 0;
    }
    t.begin = pb;
    t.end = pe;
  }
  return dims;
}

// The transposed convolution is the input gradient of a convolution: rill's
// Conv2DBackpropInput (dilated as the node says) over the full output, then the pads
// cropped (or zeros added).
absl::Status ConvertConvTranspose(NodeContext& c) {
  if (RankOf(c.input(0)) == 5) return ConvertConvTransposeNd(c);
  int spatial = 0;
  RILL_ASSIGN_OR_RETURN(Output x, ToNhwc(c, &spatial));
  Output w = c.input(1);  // [C, M / group, k...]
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, KernelOf(c, w, spatial));
  RILL_ASSIGN_OR_RETURN(Window win, WindowOf(c, spatial, kernel));
  std::vector<int64_t> dil = c.attrs().ints("dilations");
  if (dil.empty()) dil.assign(spatial, 1);
  if (static_cast<int>(dil.size()) != spatial) return c.Error("one dilation per spatial dim");
  if (spatial == 1) dil.insert(dil.begin(), 1);
  for (int d = 0; d < 2; ++d) win.kernel[d] = (win.kernel[d] - 1) * dil[d] + 1;  // the span
  const PartialTensorShape& ws = w.shape();
  if (ws.unknown_rank() || ws.dim_size(1) < 0) return c.Error("the filter's shape must be known");
  const int64_t group = c.attrs().i("group", 1);
  if (group < 1) return c.Error("group ", group);
  const int64_t m_per_group = ws.dim_size(1);
  if (spatial == 1) w = c.Op("ExpandDims", {w, c.Const(Tensor(int64_t{2}))});
  RILL_ASSIGN_OR_RETURN(std::vector<TransposedDim> dims, TransposedDims(c, x, win, spatial));
  Output filter = c.Op("Transpose", {w, c.Int64s({2, 3, 1, 0})});  // [kH, kW, M/g, C]
  Output n = c.Op("Slice", {ShapeOf(c, x, DT_INT32), c.Int64s({0}), c.Int64s({1})});
  std::vector<Output> size_parts = {n};
  for (int d = 0; d < 2; ++d) {
    if (dims[d].full >= 0) {
      size_parts.push_back(c.Int32s({dims[d].full}));
    } else {  // stride * in + extra, at run time
      Output in = c.Op("Slice", {ShapeOf(c, x, DT_INT32), c.Int64s({1 + d}), c.Int64s({1})});
      size_parts.push_back(
          c.Op("Add", {c.Op("Mul", {in, c.Int32s({win.strides[d]})}), c.Int32s({dims[d].extra})}));
    }
  }
  size_parts.push_back(c.Int32s({m_per_group}));
  size_parts.push_back(ScalarI32(c, 0));
  Output sizes = c.Op("ConcatV2", size_parts);
  const std::vector<std::pair<std::string, AttrValue>> attrs = {
      {"strides", Strides4(win)},
      {"padding", std::string("VALID")},
      {"dilations", std::vector<int64_t>{1, dil[0], dil[1], 1}}};
  std::vector<Output> xs = {x}, fs = {filter};
  if (group > 1) {
    Operation xg = c.OpNode("Split", {ScalarI32(c, 3), x}, {{"num_split", group}});
    Operation fg = c.OpNode("Split", {ScalarI32(c, 3), filter}, {{"num_split", group}});
    if (xg.node() == nullptr || fg.node() == nullptr) return absl::OkStatus();
    xs.clear();
    fs.clear();
    for (int64_t g = 0; g < group; ++g) {
      xs.emplace_back(xg.node(), g);
      fs.emplace_back(fg.node(), g);
    }
  }
  std::vector<Output> ys;
  for (size_t g = 0; g < xs.size(); ++g)
    ys.push_back(c.Op("Conv2DBackpropInput", {sizes, fs[g], xs[g]}, attrs));
  ys.push_back(ScalarI32(c, 3));
  Output y = ys.size() == 2 ? ys[0] : c.Op("ConcatV2", ys);
  // Crop positive pads, add zeros for negative ones (an output_shape past the full output).
  Tensor grow(DT_INT64, TensorShape({4, 2}));
  grow.matrix<int64_t>().setZero();
  std::vector<int64_t> begin(4, 0), end(4, 0);
  int64_t end_mask = 0b1001;
  for (int d = 0; d < 2; ++d) {
    grow.matrix<int64_t>()(1 + d, 0) = std::max<int64_t>(-dims[d].begin, 0);
    grow.matrix<int64_t>()(1 + d, 1) = std::max<int64_t>(-dims[d].end, 0);
    begin[1 + d] = std::max<int64_t>(dims[d].begin, 0);
    end[1 + d] = -std::max<int64_t>(dims[d].end, 0);
    if (end[1 + d] == 0) end_mask |= int64_t{1} << (1 + d);
  }
  y = c.Op("StridedSlice", {y, c.Int64s(begin), c.Int64s(end), c.Int64s({1, 1, 1, 1})},
           {{"begin_mask", int64_t{0b1001}}, {"end_mask", end_mask}});
  y = c.Op("Pad", {y, c.Const(grow)});
  if (c.has_input(2)) y = c.Op("BiasAdd", {y, c.input(2)});
  SetNhwcOutput(c, y, spatial);
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertNnRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"MatMul", 1, nullptr, ConvertMatMul});
  r->Register({"Gemm", 1, nullptr, ConvertGemm});
  r->Register({"Conv", 1, ConvSupport, ConvertConv});
  r->Register({"ConvTranspose", 1, ConvTransposeSupport, ConvertConvTranspose});
  r->Register({"MaxPool", 1, PoolSupport, ConvertMaxPool});
  r->Register({"AveragePool", 1, PoolSupport, ConvertAveragePool});
  r->Register({"GlobalAveragePool", 1, nullptr, GlobalPool("Mean")});
  r->Register({"GlobalMaxPool", 1, nullptr, GlobalPool("Max")});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
