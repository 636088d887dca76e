// ONNX's neural-network ops: MatMul, Gemm, Conv, pooling and normalizations. ONNX is
// channels-first (NCHW); rill's Conv2D and pools are TensorFlow's channels-last kernels,
// so a convolution is Transpose -> Conv2D -> BiasAdd -> Transpose (the graph optimizer
// folds the filter's transpose into a constant once per plan). Padding ONNX gives as
// numbers becomes an explicit Pad before a VALID window; SAME_UPPER is TensorFlow's SAME.
#include <limits>

#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

const std::vector<int64_t> kToNhwc = {0, 2, 3, 1};
const std::vector<int64_t> kToNchw = {0, 3, 1, 2};

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
    if (d != 1) return "dilations other than 1";
  }
  const size_t k = v.attrs.ints("kernel_shape").size();
  if (k > 2) return "windows of more than 2 dims";
  if (!is_conv && k == 0) return "a pool needs kernel_shape";
  const std::string pad = v.attrs.s("auto_pad", "NOTSET");
  if (pad != "NOTSET" && pad != "VALID" && pad != "SAME_UPPER" && pad != "SAME_LOWER") {
    return absl::StrCat("auto_pad ", pad);
  }
  if (v.attrs.i("ceil_mode", 0) != 0) return "ceil_mode 1";
  if (v.attrs.i("storage_order", 0) != 0) return "storage_order 1";
  if (!is_conv && v.node.output_size() > 1 && !v.node.output(1).empty()) {
    return "the Indices output";
  }
  return "";
}

std::string ConvSupport(const SupportView& v) { return WindowSupport(v, true); }
std::string PoolSupport(const SupportView& v) { return WindowSupport(v, false); }

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

// x as NHWC with `spatial` dims, or an error for another rank.
absl::StatusOr<Output> ToNhwc(const NodeContext& c, Output x, int* spatial) {
  const int64_t rank = RankOf(x);
  if (rank != 3 && rank != 4)
    return c.Error("only 1-D and 2-D windows are supported (input rank ", rank, ")");
  *spatial = static_cast<int>(rank - 2);
  if (rank == 3) x = c.Op("ExpandDims", {x, c.Const(Tensor(int64_t{2}))});
  return c.Op("Transpose", {x, c.Int64s(kToNhwc)});
}

Output FromNhwc(const NodeContext& c, const Output& y, int spatial) {
  Output out = c.Op("Transpose", {y, c.Int64s(kToNchw)});
  if (spatial == 1) out = c.Op("Squeeze", {out}, {{"squeeze_dims", std::vector<int64_t>{2}}});
  return out;
}

// The window's kernel: the attribute, else the filter's spatial dims.
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

// The padding word for the windowed op, padding x explicitly where ONNX gave numbers.
absl::StatusOr<std::string> PrepareWindow(const NodeContext& c, Output* x, Window* w) {
  if (w->auto_pad == "SAME_LOWER") RILL_RETURN_IF_ERROR(ResolveSameLower(c, *x, w));
  if (w->auto_pad == "SAME_UPPER") return std::string("SAME");
  if (w->auto_pad == "VALID" || !AnyPad(*w)) return std::string("VALID");
  return std::string("EXPLICIT");
}

std::vector<int64_t> Strides4(const Window& w) { return {1, w.strides[0], w.strides[1], 1}; }
std::vector<int64_t> Ksize4(const Window& w) { return {1, w.kernel[0], w.kernel[1], 1}; }

absl::Status ConvertConv(NodeContext& c) {
  int spatial = 0;
  RILL_ASSIGN_OR_RETURN(Output x, ToNhwc(c, c.input(0), &spatial));
  Output w = c.input(1);
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, KernelOf(c, w, spatial));
  RILL_ASSIGN_OR_RETURN(Window win, WindowOf(c, spatial, kernel));
  if (spatial == 1) w = c.Op("ExpandDims", {w, c.Const(Tensor(int64_t{2}))});
  RILL_ASSIGN_OR_RETURN(std::string padding, PrepareWindow(c, &x, &win));
  if (padding == "EXPLICIT") {
    x = PadNhwc(c, x, win);
    padding = "VALID";
  }
  Output filter = c.Op("Transpose", {w, c.Int64s({2, 3, 1, 0})});  // [kH, kW, C/g, M]
  const int64_t group = c.attrs().i("group", 1);
  const std::vector<std::pair<std::string, AttrValue>> attrs = {{"strides", Strides4(win)},
                                                                {"padding", padding}};
  Output y;
  if (group == 1) {
    y = c.Op("Conv2D", {x, filter}, attrs);
  } else {
    if (group < 1) return c.Error("group ", group);
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
  c.set_output(0, FromNhwc(c, y, spatial));
  return absl::OkStatus();
}

// 1 inside x and 0 in the padding, padded like x.
Output PaddedMask(const NodeContext& c, const Output& x, const Window& w) {
  return PadNhwc(c, c.Op("OnesLike", {x}), w);
}

absl::Status ConvertMaxPool(NodeContext& c) {
  int spatial = 0;
  RILL_ASSIGN_OR_RETURN(Output x, ToNhwc(c, c.input(0), &spatial));
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
  c.set_output(0, FromNhwc(c, y, spatial));
  return absl::OkStatus();
}

// AveragePool: TensorFlow's SAME leaves the padding out of the count, as ONNX's default
// count_include_pad=0; explicit pads divide by the count of real elements in each window.
absl::Status ConvertAveragePool(NodeContext& c) {
  int spatial = 0;
  RILL_ASSIGN_OR_RETURN(Output x, ToNhwc(c, c.input(0), &spatial));
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
  c.set_output(0, FromNhwc(c, y, spatial));
  return absl::OkStatus();
}

// The axes from 2 to the rank: the spatial dims of NC... tensors.
absl::StatusOr<std::vector<int64_t>> SpatialAxes(const NodeContext& c, const Output& x) {
  const int64_t rank = RankOf(x);
  if (rank < 2) return c.Error("the input's rank is not known or below 2");
  std::vector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d) axes.push_back(d);
  return axes;
}

ConvertFn GlobalPool(std::string reduce) {
  return [reduce](NodeContext& c) {
    RILL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, SpatialAxes(c, c.input(0)));
    c.set_output(0, c.Op(reduce, {c.input(0), c.Int64s(axes)}, {{"keep_dims", true}}));
    return absl::OkStatus();
  };
}

// A per-channel vector [C] shaped [C, 1, ...] to broadcast against N, C, spatial... .
Output PerChannel(const NodeContext& c, const Output& v, int64_t rank) {
  std::vector<int64_t> shape(std::max<int64_t>(rank - 1, 1), 1);
  shape[0] = -1;
  return c.Op("Reshape", {v, c.Int64s(shape)});
}

std::string BatchNormSupport(const SupportView& v) {
  if (v.attrs.i("training_mode", 0) != 0) return "training_mode 1";
  for (int i = 1; i < v.node.output_size(); ++i) {
    if (!v.node.output(i).empty()) return "the running mean and variance outputs (training)";
  }
  if (v.opset < 7 && v.attrs.i("is_test", 0) == 0) return "training (is_test 0)";
  return "";
}

// Inference: (x - mean) * scale / sqrt(var + epsilon) + B, per channel.
absl::Status ConvertBatchNorm(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank < 2) return c.Error("the input's rank is not known or below 2");
  const float eps = c.attrs().f("epsilon", 1e-5f);
  Output inv = c.Op("Rsqrt", {c.Op("Add", {c.input(4), ScalarLike(c, x, eps)})});
  Output mul = c.Op("Mul", {c.input(1), inv});
  Output add = c.Op("Sub", {c.input(2), c.Op("Mul", {c.input(3), mul})});
  c.set_output(0,
               c.Op("Add", {c.Op("Mul", {x, PerChannel(c, mul, rank)}), PerChannel(c, add, rank)}));
  return absl::OkStatus();
}

// (x - mean) / sqrt(var + eps) over `axes`, with mean and 1/sqrt(var + eps) kept.
struct Normalized {
  Output y, mean, inv_std;
};
Normalized Normalize(const NodeContext& c, const Output& x, const std::vector<int64_t>& axes,
                     float eps) {
  Output ax = c.Int64s(axes);
  Output mean = c.Op("Mean", {x, ax}, {{"keep_dims", true}});
  Output centered = c.Op("Sub", {x, mean});
  Output var = c.Op("Mean", {c.Op("Square", {centered}), ax}, {{"keep_dims", true}});
  Output inv = c.Op("Rsqrt", {c.Op("Add", {var, ScalarLike(c, x, eps)})});
  return {c.Op("Mul", {centered, inv}), mean, inv};
}

absl::Status ConvertInstanceNorm(NodeContext& c) {
  Output x = c.input(0);
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, SpatialAxes(c, x));
  Normalized n = Normalize(c, x, axes, c.attrs().f("epsilon", 1e-5f));
  const int64_t rank = RankOf(x);
  c.set_output(0, c.Op("Add", {c.Op("Mul", {n.y, PerChannel(c, c.input(1), rank)}),
                               PerChannel(c, c.input(2), rank)}));
  return absl::OkStatus();
}

absl::Status ConvertLayerNorm(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank < 0) return c.Error("the input's rank is not known");
  const int64_t axis = NormalizeAxis(c.attrs().i("axis", -1), rank);
  if (axis < 0) return c.Error("axis is out of range for rank ", rank);
  std::vector<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d) axes.push_back(d);
  Normalized n = Normalize(c, x, axes, c.attrs().f("epsilon", 1e-5f));
  Output y = c.Op("Mul", {n.y, c.input(1)});
  if (c.has_input(2)) y = c.Op("Add", {y, c.input(2)});
  c.set_output(0, y);
  c.set_output(1, n.mean);
  c.set_output(2, n.inv_std);
  return absl::OkStatus();
}

[[maybe_unused]] const bool kRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"MatMul", 1, nullptr, ConvertMatMul});
  r->Register({"Gemm", 1, nullptr, ConvertGemm});
  r->Register({"Conv", 1, ConvSupport, ConvertConv});
  r->Register({"MaxPool", 1, PoolSupport, ConvertMaxPool});
  r->Register({"AveragePool", 1, PoolSupport, ConvertAveragePool});
  r->Register({"GlobalAveragePool", 1, nullptr, GlobalPool("Mean")});
  r->Register({"GlobalMaxPool", 1, nullptr, GlobalPool("Max")});
  r->Register({"BatchNormalization", 1, BatchNormSupport, ConvertBatchNorm});
  r->Register({"InstanceNormalization", 1, nullptr, ConvertInstanceNorm});
  r->Register({"LayerNormalization", 17, nullptr, ConvertLayerNorm});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
