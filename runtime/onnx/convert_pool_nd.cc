// Pools rill's NHWC kernels do not cover: 3-D (and 1-D/2-D) windows with dilations or
// ceil_mode. Window taps are StridedSlices of the padded input in its own layout
// ([N, C, spatial...]), one spatial dim at a time, combined with Maximum (MaxPool) or Add
// then a divide by the count of elements each window covers (AveragePool). The output size follows
// ONNX: floor (or ceil) of (in + pads - dilated kernel) / stride + 1, where a ceil_mode window must
// start inside the input or its left pad. Needs the spatial dims while importing.
#include <cmath>
#include <limits>

#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

struct PoolGeometry {
  int n = 0;  // spatial dims
  std::vector<int64_t> in, kernel, strides, dilations, pads, out,
      extra;  // extra: ceil_mode end pad
};

absl::StatusOr<PoolGeometry> Geometry(const NodeContext& c, const Output& x) {
  PoolGeometry g;
  const PartialTensorShape& s = x.shape();
  if (s.unknown_rank() || s.dims() < 3) return c.Error("the input must be [N, C, spatial...]");
  g.n = s.dims() - 2;
  for (int d = 0; d < g.n; ++d) {
    if (s.dim_size(2 + d) < 0) return c.Error("the input's spatial dims must be known");
    g.in.push_back(s.dim_size(2 + d));
  }
  g.kernel = c.attrs().ints("kernel_shape");
  g.strides = c.attrs().ints("strides");
  g.dilations = c.attrs().ints("dilations");
  g.pads = c.attrs().ints("pads");
  if (g.strides.empty()) g.strides.assign(g.n, 1);
  if (g.dilations.empty()) g.dilations.assign(g.n, 1);
  if (g.pads.empty()) g.pads.assign(2 * g.n, 0);
  if (static_cast<int>(g.kernel.size()) != g.n || static_cast<int>(g.strides.size()) != g.n ||
      static_cast<int>(g.dilations.size()) != g.n || static_cast<int>(g.pads.size()) != 2 * g.n) {
    return c.Error("kernel_shape, strides, dilations and pads must match ", g.n, " spatial dims");
  }
  const std::string auto_pad = c.attrs().s("auto_pad", "NOTSET");
  const bool ceil = c.attrs().i("ceil_mode", 0) != 0;
  for (int d = 0; d < g.n; ++d) {
    const int64_t k = g.kernel[d], st = g.strides[d], dl = g.dilations[d];
    if (k < 1 || st < 1 || dl < 1 || k > 4096 || g.pads[d] < 0 || g.pads[g.n + d] < 0) {
      return c.Error("kernel (at most 4096), strides and dilations must be positive, pads >= 0");
    }
    const int64_t span = (k - 1) * dl + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t out = (g.in[d] + st - 1) / st;
      const int64_t total = std::max<int64_t>((out - 1) * st + span - g.in[d], 0);
      const int64_t small = total / 2;
      g.pads[d] = auto_pad == "SAME_UPPER" ? small : total - small;
      g.pads[g.n + d] = total - g.pads[d];
    } else if (auto_pad == "VALID") {
      g.pads[d] = g.pads[g.n + d] = 0;
    }
    const int64_t padded = g.in[d] + g.pads[d] + g.pads[g.n + d];
    if (padded < span) return c.Error("the window is larger than the padded input");
    int64_t out = (padded - span) / st + 1;
    if (ceil && (padded - span) % st != 0) {
      ++out;
      if ((out - 1) * st >= g.in[d] + g.pads[d]) --out;  // a window must start inside
    }
    g.out.push_back(out);
    g.extra.push_back(std::max<int64_t>((out - 1) * st + span - padded, 0));
  }
  return g;
}

// x padded by the geometry's pads (value `pad`) and its ceil_mode extra (value `extra`).
Output PadWith(const NodeContext& c, const Output& x, const PoolGeometry& g, double pad,
               double extra) {
  auto padded = [&](const Output& v, bool with_extra, double value) {
    Tensor p(DT_INT64, TensorShape({2 + g.n, 2}));
    p.matrix<int64_t>().setZero();
    for (int d = 0; d < g.n; ++d) {
      p.matrix<int64_t>()(2 + d, 0) = with_extra ? 0 : g.pads[d];
      p.matrix<int64_t>()(2 + d, 1) = with_extra ? g.extra[d] : g.pads[g.n + d];
    }
    Output out = c.Op("Pad", {v, c.Const(p)});
    if (value == 0) return out;
    Output inside = c.Op("Pad", {c.Op("Fill", {ShapeOf(c, v), c.Const(Tensor(true))}), c.Const(p)});
    return c.Op("SelectV2", {inside, out, ScalarLike(c, v, value)});
  };
  return padded(padded(x, false, pad), true, extra);
}

// The windows over a padded tensor, combined with `op`. Max and sum are separable, so the
// window is taken one spatial dim at a time: sum(k) slices rather than prod(k).
Output Taps(const NodeContext& c, const Output& xp, const PoolGeometry& g, const char* op) {
  Output in = xp;
  for (int d = 0; d < g.n; ++d) {
    Output acc;
    for (int64_t t = 0; t < g.kernel[d]; ++t) {
      std::vector<int64_t> begin(2 + g.n, 0), end(2 + g.n, 0), stride(2 + g.n, 1);
      begin[2 + d] = t * g.dilations[d];
      end[2 + d] = begin[2 + d] + (g.out[d] - 1) * g.strides[d] + 1;
      stride[2 + d] = g.strides[d];
      const int64_t others = ((int64_t{1} << (2 + g.n)) - 1) & ~(int64_t{1} << (2 + d));
      Output s = c.Op("StridedSlice", {in, c.Int64s(begin), c.Int64s(end), c.Int64s(stride)},
                      {{"begin_mask", others}, {"end_mask", others}});
      acc = acc.node() == nullptr ? s : c.Op(op, {acc, s});
    }
    in = acc;
  }
  return in;
}

}  // namespace

// Used by the pool converters when the NHWC kernels cannot pool this window.
absl::Status PoolBySlices(NodeContext& c, bool max) {
  Output x = c.input(0);
  RILL_ASSIGN_OR_RETURN(PoolGeometry g, Geometry(c, x));
  if (max) {
    // Integers pool as doubles (exact to 2^53), so the padding can be -inf.
    const DataType dt = x.type();
    const bool integer = dt != DT_FLOAT && dt != DT_DOUBLE;
    if (integer) x = c.Op("Cast", {x}, {{"DstT", DT_DOUBLE}});
    const double lowest = -std::numeric_limits<double>::infinity();
    Output y = Taps(c, PadWith(c, x, g, lowest, lowest), g, "Maximum");
    c.set_output(0, integer ? c.Op("Cast", {y}, {{"DstT", dt}}) : y);
    return absl::OkStatus();
  }
  Output sum = Taps(c, PadWith(c, x, g, 0, 0), g, "Add");
  // Elements each window counts: the input, and the pads too with count_include_pad.
  const bool include = c.attrs().i("count_include_pad", 0) != 0;
  Output ones = c.Op("OnesLike", {x});
  Output count = Taps(c, PadWith(c, ones, g, include ? 1 : 0, 0), g, "Add");
  c.set_output(0, c.Op("Div", {sum, count}));
  return absl::OkStatus();
}

}  // namespace rill::onnx::internal
