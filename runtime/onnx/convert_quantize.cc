// ONNX's linear quantization as compositions of rill's elementwise ops (so that each runs on
// whichever device its inputs are placed on): QuantizeLinear, y = saturate(round(x / scale)
// + zero_point), rounding half to even (Round is rint) and saturating to uint8's range;
// DequantizeLinear, y = (x - zero_point) * scale; DynamicQuantizeLinear, which takes its
// scale and zero point from x's range widened to hold 0. A scale per channel (opset 13's 1-D
// scale with `axis`) is reshaped to broadcast along that axis. rill has no int8, so the
// quantized side is uint8 (a model with int8 values is refused for their dtype, as
// everywhere).
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

constexpr double kQuantMax = 255;  // uint8's largest value (its smallest is 0)

// A scale or zero point for x: as is when it is a scalar (or a 1-element tensor, which
// broadcasts alike), else a 1-D [C] reshaped to [1, .., C, .., 1] with C at `axis`.
absl::StatusOr<Output> PerAxis(const NodeContext& c, const Output& v, const Output& x) {
  const int64_t v_rank = RankOf(v);
  if (v_rank == 0) return v;
  if (v_rank != 1) {
    return c.Error("the scale and zero point must be scalars or 1-D (per axis), not of rank ",
                   v_rank);
  }
  RILL_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(c, x, 1));
  std::vector<int64_t> shape(RankOf(x), 1);
  shape[axis] = -1;
  return c.Op("Reshape", {v, c.Int64s(shape)});
}

Output ToFloat(const NodeContext& c, const Output& v) {
  return v.type() == DT_FLOAT ? v : c.Op("Cast", {v}, {{"DstT", DT_FLOAT}});
}

// round(v) saturated to [0, 255], as uint8.
Output SaturateToUint8(const NodeContext& c, const Output& v) {
  Output r = c.Op("Round", {v});
  Output clipped = c.Op("ClipByValue", {r, ScalarLike(c, r, 0), ScalarLike(c, r, kQuantMax)});
  return c.Op("Cast", {clipped}, {{"DstT", DT_UINT8}});
}

absl::Status CheckUint8ZeroPoint(const NodeContext& c, int i) {
  if (c.has_input(i) && c.input(i).type() != DT_UINT8) {
    return c.Error("the zero point is ", DataTypeString(c.input(i).type()),
                   "; rill quantizes to uint8 only");
  }
  return absl::OkStatus();
}

absl::Status ConvertQuantizeLinear(NodeContext& c) {
  RILL_RETURN_IF_ERROR(CheckUint8ZeroPoint(c, 2));
  Output x = ToFloat(c, c.input(0));
  RILL_ASSIGN_OR_RETURN(Output scale, PerAxis(c, ToFloat(c, c.input(1)), x));
  Output q = c.Op("Div", {x, scale});
  if (c.has_input(2)) {
    RILL_ASSIGN_OR_RETURN(Output zp, PerAxis(c, ToFloat(c, c.input(2)), x));
    q = c.Op("Add", {c.Op("Round", {q}), zp});  // rounded before the shift, as ONNX's
  }
  c.set_output(0, SaturateToUint8(c, q));
  return absl::OkStatus();
}

absl::Status ConvertDequantizeLinear(NodeContext& c) {
  Output x = c.input(0);
  if (x.type() != DT_UINT8 && x.type() != DT_INT32) {
    return c.Error("x is ", DataTypeString(x.type()), "; rill dequantizes uint8 and int32");
  }
  if (x.type() == DT_INT32 && c.has_input(2)) {
    return c.Error("an int32 input takes no zero point (ONNX: it is 0)");
  }
  RILL_RETURN_IF_ERROR(CheckUint8ZeroPoint(c, 2));
  Output xf = ToFloat(c, x);
  RILL_ASSIGN_OR_RETURN(Output scale, PerAxis(c, c.input(1), xf));
  if (c.has_input(2)) {
    RILL_ASSIGN_OR_RETURN(Output zp, PerAxis(c, ToFloat(c, c.input(2)), xf));
    xf = c.Op("Sub", {xf, zp});
  }
  c.set_output(0, c.Op("Mul", {xf, scale}));
  return absl::OkStatus();
}

// scale = (max(x, 0) - min(x, 0)) / 255; zero_point = saturate(round(-min / scale)).
absl::Status ConvertDynamicQuantizeLinear(NodeContext& c) {
  Output x = c.input(0);
  if (x.type() != DT_FLOAT) return c.Error("x is ", DataTypeString(x.type()), ", not float");
  Output flat = c.Op("Reshape", {x, c.Int64s({-1})});
  Output zero = ScalarLike(c, x, 0);
  Output axis = c.Int64s({0});
  Output lo = c.Op("Minimum", {c.Op("Min", {flat, axis}), zero});
  Output hi = c.Op("Maximum", {c.Op("Max", {flat, axis}), zero});
  Output scale = c.Op("Div", {c.Op("Sub", {hi, lo}), ScalarLike(c, x, kQuantMax)});
  Output zp = SaturateToUint8(c, c.Op("Neg", {c.Op("Div", {lo, scale})}));
  Output q = c.Op("Add", {c.Op("Round", {c.Op("Div", {x, scale})}), ToFloat(c, zp)});
  c.set_output(0, SaturateToUint8(c, q));
  c.set_output(1, scale);
  c.set_output(2, zp);
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertQuantizeRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"QuantizeLinear", 10, nullptr, ConvertQuantizeLinear});
  r->Register({"DequantizeLinear", 10, nullptr, ConvertDequantizeLinear});
  r->Register({"DynamicQuantizeLinear", 11, nullptr, ConvertDynamicQuantizeLinear});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
