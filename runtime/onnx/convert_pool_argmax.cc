// MaxPool with its Indices output, as rill's MaxPoolWithArgmax (TensorFlow's op): the
// input goes NHWC, padded with -inf where ONNX gives pads (padding never wins, so the max
// is a real element), and each argmax, ((n * Hp + h) * Wp + w) * C + c over the padded
// input, becomes ONNX's index into the NCHW input: ((n * C + c) * H + h) * W + w, or with
// storage_order 1 (column major) (n * C + c) * H * W + w * H + h. MaxUnpool scatters values
// back to such indices.
#include <limits>

#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

struct PoolWindow {
  std::vector<int64_t> kernel, strides, pads;  // pads: top, left, bottom, right
  std::string padding;                         // for the op: "SAME" or "VALID"
};

absl::StatusOr<PoolWindow> WindowOf(const NodeContext& c, int64_t h, int64_t w) {
  PoolWindow p;
  p.kernel = c.attrs().ints("kernel_shape");
  p.strides = c.attrs().ints("strides");
  p.pads = c.attrs().ints("pads");
  if (p.strides.empty()) p.strides = {1, 1};
  if (p.pads.empty()) p.pads = {0, 0, 0, 0};
  if (p.kernel.size() != 2 || p.strides.size() != 2 || p.pads.size() != 4) {
    return c.Error("kernel_shape, strides and pads must match 2 spatial dims");
  }
  const std::string auto_pad = c.attrs().s("auto_pad", "NOTSET");
  p.padding = auto_pad == "SAME_UPPER" ? "SAME" : "VALID";
  if (auto_pad == "VALID" || auto_pad == "SAME_UPPER") p.pads = {0, 0, 0, 0};
  if (auto_pad == "SAME_LOWER") {  // the odd pad before
    const int64_t in[2] = {h, w};
    for (int d = 0; d < 2; ++d) {
      const int64_t out = (in[d] + p.strides[d] - 1) / p.strides[d];
      const int64_t total = std::max<int64_t>((out - 1) * p.strides[d] + p.kernel[d] - in[d], 0);
      p.pads[d] = total - total / 2;
      p.pads[2 + d] = total / 2;
    }
  }
  return p;
}

absl::Status ConvertMaxPoolWithIndicesImpl(NodeContext& c) {
  Output x = c.input(0);
  const PartialTensorShape& s = x.shape();
  if (s.unknown_rank() || s.dims() != 4 || s.dim_size(1) < 0 || s.dim_size(2) < 0 ||
      s.dim_size(3) < 0) {
    return c.Error("the Indices output needs the input's channels and spatial dims");
  }
  const int64_t C = s.dim_size(1), H = s.dim_size(2), W = s.dim_size(3);
  RILL_ASSIGN_OR_RETURN(PoolWindow p, WindowOf(c, H, W));
  const DataType dtype = x.type();
  const bool cast = dtype != DT_FLOAT && dtype != DT_DOUBLE;
  if (cast) x = c.Op("Cast", {x}, {{"DstT", DT_DOUBLE}});
  x = c.Op("Transpose", {x, c.Int64s({0, 2, 3, 1})});
  const int64_t hp = H + p.pads[0] + p.pads[2], wp = W + p.pads[1] + p.pads[3];
  if (hp != H || wp != W) {
    Tensor pads(DT_INT64, TensorShape({4, 2}));
    pads.matrix<int64_t>().setZero();
    for (int d = 0; d < 2; ++d) {
      pads.matrix<int64_t>()(1 + d, 0) = p.pads[d];
      pads.matrix<int64_t>()(1 + d, 1) = p.pads[2 + d];
    }
    x = c.Op("PadV2",
             {x, c.Const(pads), ScalarLike(c, x, -std::numeric_limits<double>::infinity())});
  }
  Operation pool = c.OpNode("MaxPoolWithArgmax", {x},
                            {{"ksize", std::vector<int64_t>{1, p.kernel[0], p.kernel[1], 1}},
                             {"strides", std::vector<int64_t>{1, p.strides[0], p.strides[1], 1}},
                             {"padding", p.padding},
                             {"Targmax", DT_INT64},
                             {"include_batch_in_index", true}});
  if (pool.node() == nullptr) return absl::OkStatus();
  Output y = c.Op("Transpose", {Output(pool.node(), 0), c.Int64s({0, 3, 1, 2})});
  if (cast) y = c.Op("Cast", {y}, {{"DstT", dtype}});
  c.set_output(0, y);
  // The argmax's parts, then ONNX's index.
  auto div = [&](const Output& a, int64_t b) { return c.Op("FloorDiv", {a, c.Int64s({b})}); };
  auto mod = [&](const Output& a, int64_t b) { return c.Op("FloorMod", {a, c.Int64s({b})}); };
  auto add = [&](const Output& a, const Output& b) { return c.Op("Add", {a, b}); };
  auto mul = [&](const Output& a, int64_t b) { return c.Op("Mul", {a, c.Int64s({b})}); };
  const Output a = Output(pool.node(), 1);
  const Output ch = mod(a, C), pos = div(a, C);
  const Output w = c.Op("Sub", {mod(pos, wp), c.Int64s({p.pads[1]})});
  const Output h = c.Op("Sub", {mod(div(pos, wp), hp), c.Int64s({p.pads[0]})});
  const Output plane = add(mul(div(div(pos, wp), hp), C), ch);  // n * C + c
  const Output in_plane =
      c.attrs().i("storage_order", 0) == 0 ? add(mul(h, W), w) : add(mul(w, H), h);
  c.set_output(1, c.Op("Transpose", {add(mul(plane, H * W), in_plane), c.Int64s({0, 3, 1, 2})}));
  return absl::OkStatus();
}

// The shape MaxPool's input had, as MaxUnpool infers it: per spatial dim
// (in - 1) * stride - pad_begin - pad_end + kernel, after X's batch and channels.
absl::StatusOr<Output> UnpooledShape(const NodeContext& c, const Output& x) {
  const PartialTensorShape& s = x.shape();
  const int64_t spatial = s.unknown_rank() ? -1 : s.dims() - 2;
  std::vector<int64_t> kernel = c.attrs().ints("kernel_shape"), strides = c.attrs().ints("strides"),
                       pads = c.attrs().ints("pads");
  if (strides.empty()) strides.assign(kernel.size(), 1);
  if (pads.empty()) pads.assign(2 * kernel.size(), 0);
  if (spatial < 1 || static_cast<int64_t>(kernel.size()) != spatial ||
      static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(pads.size()) != 2 * spatial) {
    return c.Error("kernel_shape, strides and pads must match X's spatial dims");
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < spatial; ++d) {
    const int64_t in = s.dim_size(static_cast<int>(d) + 2);
    if (in < 0) return c.Error("X's spatial dims must be known");
    dims.push_back((in - 1) * strides[d] - pads[d] - pads[spatial + d] + kernel[d]);
  }
  const Output batch_channels = c.Op("Slice", {ShapeOf(c, x), c.Int64s({0}), c.Int64s({2})});
  return c.Op("ConcatV2", {batch_channels, c.Int64s(dims), ScalarI32(c, 0)});
}

// MaxUnpool: X's values at the flat positions I (MaxPool's Indices, over the whole NCHW
// tensor of the inferred shape), zeros elsewhere; a position outside it is refused by
// ScatterNd. A larger output_shape pads the result with zeros at the end of each dim, as
// ONNX's reference does.
absl::Status ConvertMaxUnpool(NodeContext& c) {
  const Output x = c.input(0);
  RILL_ASSIGN_OR_RETURN(const Output shape, UnpooledShape(c, x));
  const Output count = c.Op("Prod", {shape, ScalarI32(c, 0)}, {{"keep_dims", true}});
  const Output at =
      c.Op("Reshape", {c.Op("Cast", {c.input(1)}, {{"DstT", DT_INT64}}), c.Int64s({-1, 1})});
  const Output flat = c.Op("ScatterNd", {at, c.Op("Reshape", {x, c.Int64s({-1})}), count});
  Output y = c.Op("Reshape", {flat, shape});
  if (c.has_input(2)) {
    const Output extra = c.Op("Sub", {c.Op("Cast", {c.input(2)}, {{"DstT", DT_INT64}}), shape});
    const Output pairs = c.Op("ConcatV2", {c.Op("ZerosLike", {extra}), extra, ScalarI32(c, 0)});
    const Output paddings =
        c.Op("Transpose", {c.Op("Reshape", {pairs, c.Int64s({2, -1})}), c.Int64s({1, 0})});
    y = c.Op("Pad", {y, paddings});
  }
  c.set_output(0, y);
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertPoolArgmaxRegistered = [] {
  ConverterRegistry::Global()->Register({"MaxUnpool", 9, nullptr, ConvertMaxUnpool});
  return true;
}();

}  // namespace

absl::Status ConvertMaxPoolWithIndices(NodeContext& c) { return ConvertMaxPoolWithIndicesImpl(c); }

}  // namespace rill::onnx::internal
