// ONNX's integer convolution and matrix product (ConvInteger, MatMulInteger) and their
// quantized forms (QLinearConv, QLinearMatMul), over uint8 values (rill has no int8). The
// operands minus their zero points are exact in float64, and so is every sum of their
// products below 2^53, so the Conv and MatMul converters run on them in float64 and the
// result is exact: Cast to int32 for the integer ops; for the quantized ones scaled by
// x_scale * w_scale / y_scale (a float32 product, as ONNX's reference computes it), rounded
// half to even, shifted by y_zero_point and saturated to uint8.
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

Output AsDouble(const NodeContext& c, const Output& v) {
  return c.Op("Cast", {v}, {{"DstT", DT_DOUBLE}});
}

// v - zero_point in float64. A 1-D zero point of `per` entries applies along v's `axis`
// (a filter's output channels, a matrix's rows); a scalar or absent one is plain.
absl::StatusOr<Output> Centered(const NodeContext& c, const Output& v, int zp, int64_t axis) {
  Output x = AsDouble(c, v);
  if (!c.has_input(zp)) return x;
  Output z = AsDouble(c, c.input(zp));
  const int64_t rank = RankOf(z), v_rank = RankOf(v);
  if (rank == 1 && v_rank >= 1) {
    std::vector<int64_t> shape(v_rank, 1);
    shape[axis < 0 ? axis + v_rank : axis] = -1;
    z = c.Op("Reshape", {z, c.Int64s(shape)});
  } else if (rank != 0 && !(rank == 1 && v_rank < 0)) {
    return c.Error("zero point ", zp, " must be a scalar or 1-D, not of rank ", rank);
  }
  return c.Op("Sub", {x, z});
}

// The converter of `op` (Conv or MatMul) on this node's attributes and `inputs`.
absl::StatusOr<Output> Delegate(const NodeContext& c, const char* op, std::vector<Output> inputs) {
  const Converter* conv = ConverterRegistry::Global()->Find(op, c.opset());
  if (conv == nullptr) return c.Error("no ", op, " converter at opset ", c.opset());
  NodeContext inner(c.node(), c.attrs(), c.opset(), c.scope(), std::move(inputs));
  RILL_RETURN_IF_ERROR(conv->convert(inner));
  if (inner.outputs().empty() || inner.outputs()[0].node() == nullptr) {
    return c.Error(op, " made no output");
  }
  return inner.outputs()[0];
}

// Conv's own limits (pads, dilations) hold for the integer convolutions too.
std::string ConvLikeSupport(const SupportView& v) {
  const Converter* conv = ConverterRegistry::Global()->Find("Conv", v.opset);
  return conv == nullptr || conv->support == nullptr ? "" : conv->support(v);
}

absl::Status ConvertConvInteger(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(const Output x, Centered(c, c.input(0), 2, 1));
  RILL_ASSIGN_OR_RETURN(const Output w, Centered(c, c.input(1), 3, 0));
  RILL_ASSIGN_OR_RETURN(const Output y, Delegate(c, "Conv", {x, w}));
  c.set_output(0, c.Op("Cast", {y}, {{"DstT", DT_INT32}}));
  return absl::OkStatus();
}

absl::Status ConvertMatMulInteger(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(const Output a, Centered(c, c.input(0), 2, -2));  // per row
  RILL_ASSIGN_OR_RETURN(const Output b, Centered(c, c.input(1), 3, -1));  // per column
  RILL_ASSIGN_OR_RETURN(const Output y, Delegate(c, "MatMul", {a, b}));
  c.set_output(0, c.Op("Cast", {y}, {{"DstT", DT_INT32}}));
  return absl::OkStatus();
}

// acc (exact integers in float64) requantized: rint(acc * scale) + zero point, saturated
// to uint8. `scale` is float32 (ONNX's reference multiplies float32 scales).
Output Requantized(const NodeContext& c, const Output& acc, const Output& scale, int y_zp) {
  Output r = c.Op("Round", {c.Op("Mul", {acc, AsDouble(c, scale)})});
  if (c.has_input(y_zp)) r = c.Op("Add", {r, AsDouble(c, c.input(y_zp))});
  r = c.Op("ClipByValue", {r, ScalarLike(c, r, 0), ScalarLike(c, r, 255)});
  return c.Op("Cast", {r}, {{"DstT", DT_UINT8}});
}

// x_scale * w_scale / y_scale in float32; a per-channel w_scale along `axis` of a result of
// rank `rank`.
Output ScaleRatio(const NodeContext& c, int x_scale, int w_scale, int y_scale, int64_t axis,
                  int64_t rank) {
  Output w = c.input(w_scale);
  if (RankOf(w) == 1 && rank > 0) {
    std::vector<int64_t> shape(rank, 1);
    shape[axis] = -1;
    w = c.Op("Reshape", {w, c.Int64s(shape)});
  }
  return c.Op("Div", {c.Op("Mul", {c.input(x_scale), w}), c.input(y_scale)});
}

// QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B): B is int32, added to
// the integer accumulator per output channel.
absl::Status ConvertQLinearConv(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(const Output x, Centered(c, c.input(0), 2, 1));
  RILL_ASSIGN_OR_RETURN(const Output w, Centered(c, c.input(3), 5, 0));
  std::vector<Output> inputs = {x, w};
  if (c.has_input(8)) inputs.push_back(AsDouble(c, c.input(8)));
  RILL_ASSIGN_OR_RETURN(const Output acc, Delegate(c, "Conv", inputs));
  c.set_output(0, Requantized(c, acc, ScaleRatio(c, 1, 4, 6, 1, RankOf(acc)), 7));
  return absl::OkStatus();
}

// QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp).
absl::Status ConvertQLinearMatMul(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(const Output a, Centered(c, c.input(0), 2, -2));
  RILL_ASSIGN_OR_RETURN(const Output b, Centered(c, c.input(3), 5, -1));
  RILL_ASSIGN_OR_RETURN(const Output acc, Delegate(c, "MatMul", {a, b}));
  const int64_t rank = RankOf(acc);
  c.set_output(0, Requantized(c, acc, ScaleRatio(c, 1, 4, 6, rank - 1, rank), 7));
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertIntegerRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"ConvInteger", 10, ConvLikeSupport, ConvertConvInteger});
  r->Register({"MatMulInteger", 10, nullptr, ConvertMatMulInteger});
  r->Register({"QLinearConv", 10, ConvLikeSupport, ConvertQLinearConv});
  r->Register({"QLinearMatMul", 10, nullptr, ConvertQLinearMatMul});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
