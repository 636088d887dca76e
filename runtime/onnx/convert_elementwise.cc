// Elementwise ONNX ops: one rill op each where TensorFlow has the same op, else a short
// composition of rill ops with the formula of ONNX's operator spec. ONNX's broadcasting
// from opset 7 on is numpy's, as rill's binary ops are.
#include <cmath>

#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

ConvertFn Unary(std::string op) {
  return [op](NodeContext& c) {
    c.set_output(0, c.Op(op, {c.input(0)}));
    return absl::OkStatus();
  };
}

// Before opset 7 a binary op broadcast only with broadcast=1, and `axis` placed the second
// operand inside the first: trailing dims of 1 make that numpy's rule.
Output SecondOperand(const NodeContext& c) {
  Output b = c.input(1);
  if (c.opset() >= 7 || !c.attrs().has("axis") || c.attrs().i("broadcast", 0) == 0) return b;
  const int64_t ra = RankOf(c.input(0)), rb = RankOf(b);
  const int64_t axis =
      c.attrs().i("axis", 0) < 0 ? c.attrs().i("axis", 0) + ra : c.attrs().i("axis", 0);
  for (int64_t k = 0; k < ra - axis - rb; ++k)
    b = c.Op("ExpandDims", {b, c.Const(Tensor(int64_t{-1}))});
  return b;
}

std::string LegacyBroadcast(const SupportView& v) {
  if (v.opset < 7 && v.attrs.has("axis") && v.attrs.i("broadcast", 0) != 0 &&
      v.attrs.i("axis", 0) < 0) {
    return "a negative legacy broadcast axis";
  }
  return "";
}

ConvertFn Binary(std::string op) {
  return [op](NodeContext& c) {
    Output b = SecondOperand(c);
    if (RankOf(c.input(0)) < 0 && c.opset() < 7 && c.attrs().has("axis")) {
      return c.Error("the legacy broadcast axis needs the first operand's rank");
    }
    c.set_output(0, c.Op(op, {c.input(0), b}));
    return absl::OkStatus();
  };
}

// Sum, Mean, Max, Min of any number of inputs, folded pairwise with broadcasting.
ConvertFn Variadic(std::string op, bool mean) {
  return [op, mean](NodeContext& c) {
    Output acc = c.input(0);
    for (int i = 1; i < c.num_inputs(); ++i) acc = c.Op(op, {acc, c.input(i)});
    if (mean && c.num_inputs() > 1) acc = c.Op("Div", {acc, ScalarLike(c, acc, c.num_inputs())});
    c.set_output(0, acc);
    return absl::OkStatus();
  };
}

// Whether input 1 is a constant 2 that broadcasts to nothing larger than input 0 (x^2 is
// then a Square: one multiply, fusable, instead of pow per element; the STFT magnitudes of
// Silero VAD square this way).
bool SquaresInput(const NodeContext& c) {
  const Tensor* e = c.constant_input(1);
  const DataType t = c.input(0).type();
  if (e == nullptr || e->NumElements() != 1 || (t != DT_FLOAT && t != DT_DOUBLE)) return false;
  const int64_t rank = RankOf(c.input(0));
  if (e->dims() > 0 && (rank < 0 || e->dims() > rank)) return false;
  switch (e->dtype()) {
    case DT_FLOAT:
      return e->base<float>()[0] == 2.f;
    case DT_DOUBLE:
      return e->base<double>()[0] == 2.0;
    case DT_INT32:
      return e->base<int32_t>()[0] == 2;
    case DT_INT64:
      return e->base<int64_t>()[0] == 2;
    default:
      return false;
  }
}

absl::Status ConvertPow(NodeContext& c) {
  if (c.opset() >= 7 && SquaresInput(c)) {
    c.set_output(0, c.Op("Square", {c.input(0)}));
    return absl::OkStatus();
  }
  Output y = SecondOperand(c);
  if (y.type() != c.input(0).type()) {
    y = c.Op("Cast", {y}, {{"DstT", c.input(0).type()}});
  }
  c.set_output(0, c.Op("Pow", {c.input(0), y}));
  return absl::OkStatus();
}

absl::Status ConvertXor(NodeContext& c) {
  c.set_output(0, c.Op("NotEqual", {c.input(0), SecondOperand(c)}));
  return absl::OkStatus();
}

absl::Status ConvertPRelu(NodeContext& c) {
  Output x = c.input(0), slope = c.input(1);
  // Before opset 7 a slope of one value per channel applies along dim 1.
  const int64_t rx = RankOf(x);
  if (c.opset() < 7 && RankOf(slope) == 1 && rx > 2) {
    std::vector<int64_t> shape(rx - 1, 1);
    shape[0] = -1;
    slope = c.Op("Reshape", {slope, c.Int64s(shape)});
  }
  Output neg = c.Op("Less", {x, ScalarLike(c, x, 0)});
  c.set_output(0, c.Op("SelectV2", {neg, c.Op("Mul", {x, slope}), x}));
  return absl::OkStatus();
}

absl::Status ConvertLeakyRelu(NodeContext& c) {
  c.set_output(0, c.Op("LeakyRelu", {c.input(0)}, {{"alpha", c.attrs().f("alpha", 0.01f)}}));
  return absl::OkStatus();
}

absl::Status ConvertElu(NodeContext& c) {
  const float alpha = c.attrs().f("alpha", 1.f);
  Output x = c.input(0);
  Output elu = c.Op("Elu", {x});
  if (alpha != 1.f) {
    Output neg = c.Op("Less", {x, ScalarLike(c, x, 0)});
    elu = c.Op("SelectV2", {neg, c.Op("Mul", {elu, ScalarLike(c, x, alpha)}), x});
  }
  c.set_output(0, elu);
  return absl::OkStatus();
}

absl::Status ConvertSelu(NodeContext& c) {
  const float alpha = c.attrs().f("alpha", 1.67326319217681884765625f);
  const float gamma = c.attrs().f("gamma", 1.05070102214813232421875f);
  Output x = c.input(0);
  // gamma * (x > 0 ? x : alpha * (exp(x) - 1)); TensorFlow's Selu has ONNX's defaults.
  Output neg = c.Op("Mul", {c.Op("Expm1", {x}), ScalarLike(c, x, alpha)});
  Output pos = c.Op("Greater", {x, ScalarLike(c, x, 0)});
  c.set_output(0, c.Op("Mul", {c.Op("SelectV2", {pos, x, neg}), ScalarLike(c, x, gamma)}));
  return absl::OkStatus();
}

absl::Status ConvertCelu(NodeContext& c) {
  const float alpha = c.attrs().f("alpha", 1.f);
  Output x = c.input(0);
  // max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
  Output e = c.Op(
      "Mul", {c.Op("Expm1", {c.Op("Div", {x, ScalarLike(c, x, alpha)})}), ScalarLike(c, x, alpha)});
  c.set_output(0, c.Op("Add", {c.Op("Maximum", {x, ScalarLike(c, x, 0)}),
                               c.Op("Minimum", {e, ScalarLike(c, x, 0)})}));
  return absl::OkStatus();
}

Output HardSigmoid(const NodeContext& c, const Output& x, float alpha, float beta) {
  Output lin = c.Op("Add", {c.Op("Mul", {x, ScalarLike(c, x, alpha)}), ScalarLike(c, x, beta)});
  return c.Op("Minimum", {c.Op("Maximum", {lin, ScalarLike(c, x, 0)}), ScalarLike(c, x, 1)});
}

absl::Status ConvertHardSigmoid(NodeContext& c) {
  c.set_output(0,
               HardSigmoid(c, c.input(0), c.attrs().f("alpha", 0.2f), c.attrs().f("beta", 0.5f)));
  return absl::OkStatus();
}

absl::Status ConvertHardSwish(NodeContext& c) {
  Output x = c.input(0);
  c.set_output(0, c.Op("Mul", {x, HardSigmoid(c, x, 1.f / 6.f, 0.5f)}));
  return absl::OkStatus();
}

absl::Status ConvertThresholdedRelu(NodeContext& c) {
  Output x = c.input(0);
  Output keep = c.Op("Greater", {x, ScalarLike(c, x, c.attrs().f("alpha", 1.f))});
  c.set_output(0, c.Op("SelectV2", {keep, x, c.Op("ZerosLike", {x})}));
  return absl::OkStatus();
}

absl::Status ConvertSoftsign(NodeContext& c) {
  Output x = c.input(0);
  c.set_output(0, c.Op("Div", {x, c.Op("Add", {c.Op("Abs", {x}), ScalarLike(c, x, 1)})}));
  return absl::OkStatus();
}

// IsNaN and IsInf take floats (ONNX's checker does not check dtypes).
absl::Status FloatInput(const NodeContext& c) {
  const DataType dt = c.input(0).type();
  if (dt == DT_FLOAT || dt == DT_DOUBLE) return absl::OkStatus();
  return c.Error("the input must be float or double, got ", DataTypeString(dt));
}

absl::Status ConvertIsNaN(NodeContext& c) {
  RILL_RETURN_IF_ERROR(FloatInput(c));
  c.set_output(0, c.Op("IsNan", {c.input(0)}));
  return absl::OkStatus();
}

absl::Status ConvertIsInf(NodeContext& c) {
  RILL_RETURN_IF_ERROR(FloatInput(c));
  Output x = c.input(0);
  const bool pos = c.attrs().i("detect_positive", 1) != 0;
  const bool neg = c.attrs().i("detect_negative", 1) != 0;
  if (pos && neg) {
    c.set_output(0, c.Op("IsInf", {x}));
    return absl::OkStatus();
  }
  const double inf = std::numeric_limits<double>::infinity();
  Output p = c.Op("Equal", {x, ScalarLike(c, x, inf)});
  Output n = c.Op("Equal", {x, ScalarLike(c, x, -inf)});
  if (pos || neg) {
    c.set_output(0, pos ? p : n);
  } else {
    c.set_output(0, c.Op("LogicalAnd", {p, n}));  // false everywhere
  }
  return absl::OkStatus();
}

// Clip: bounds are attributes before opset 11 and optional inputs from 11 on; a missing
// bound does not clip. min(max(x, lo), hi), as numpy's clip.
absl::Status ConvertClip(NodeContext& c) {
  Output x = c.input(0);
  Output lo, hi;
  if (c.opset() < 11) {
    lo = ScalarLike(c, x, c.attrs().f("min", -std::numeric_limits<float>::max()));
    hi = ScalarLike(c, x, c.attrs().f("max", std::numeric_limits<float>::max()));
  } else {
    lo = c.input(1);
    hi = c.input(2);
  }
  if (lo.node() != nullptr) x = c.Op("Maximum", {x, lo});
  if (hi.node() != nullptr) x = c.Op("Minimum", {x, hi});
  c.set_output(0, c.Op("Identity", {x}));
  return absl::OkStatus();
}

// Shrink: x + bias below -lambd, x - bias above lambd, 0 between.
absl::Status ConvertShrink(NodeContext& c) {
  Output x = c.input(0);
  const float bias = c.attrs().f("bias", 0.f), lambd = c.attrs().f("lambd", 0.5f);
  Output zero = c.Op("ZerosLike", {x});
  Output low = c.Op("Less", {x, ScalarLike(c, x, -lambd)});
  Output high = c.Op("Greater", {x, ScalarLike(c, x, lambd)});
  Output y = c.Op("SelectV2", {high, c.Op("Sub", {x, ScalarLike(c, x, bias)}), zero});
  c.set_output(0, c.Op("SelectV2", {low, c.Op("Add", {x, ScalarLike(c, x, bias)}), y}));
  return absl::OkStatus();
}

// Mod: fmod=0 (integers only) is Python's % (the sign of y): TensorFlow's FloorMod; fmod=1 is
// C's fmod (the sign of x): TruncateMod. Both refuse an integer divisor of zero.
absl::Status ConvertMod(NodeContext& c) {
  Output x = c.input(0), y = c.input(1);
  const bool is_float = x.type() == DT_FLOAT || x.type() == DT_DOUBLE;
  if (c.attrs().i("fmod", 0) == 0) {
    if (is_float) return c.Error("fmod 0 is for integers; floating inputs need fmod 1");
    c.set_output(0, c.Op("FloorMod", {x, y}));
    return absl::OkStatus();
  }
  c.set_output(0, c.Op("TruncateMod", {x, y}));
  return absl::OkStatus();
}

// BitShift (unsigned integers; rill has uint8): TensorFlow's LeftShift and RightShift, which
// clamp a shift by the width or more to width - 1 where ONNX leaves it unspecified.
std::string BitShiftSupport(const SupportView& v) {
  const std::string d = v.attrs.s("direction", "");
  return d == "LEFT" || d == "RIGHT" ? "" : absl::StrCat("direction '", d, "'");
}

absl::Status ConvertBitShift(NodeContext& c) {
  const bool left = c.attrs().s("direction", "") == "LEFT";
  c.set_output(0, c.Op(left ? "LeftShift" : "RightShift", {c.input(0), c.input(1)}));
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertElementwiseRegistered = [] {
  auto* r = ConverterRegistry::Global();
  for (const char* op : {"Abs",  "Neg",     "Sqrt", "Exp",      "Log",   "Reciprocal", "Floor",
                         "Ceil", "Sign",    "Sin",  "Cos",      "Tan",   "Asin",       "Acos",
                         "Atan", "Sinh",    "Cosh", "Asinh",    "Acosh", "Atanh",      "Erf",
                         "Relu", "Sigmoid", "Tanh", "Softplus", "Round", "Identity"}) {
    r->Register({op, 1, nullptr, Unary(op)});
  }
  r->Register({"Not", 1, nullptr, Unary("LogicalNot")});
  // Not elementwise, but one TensorFlow op as these are: a determinant per matrix.
  r->Register({"Det", 11, nullptr, Unary("MatrixDeterminant")});
  const std::pair<const char*, const char*> binary[] = {{"Add", "Add"},
                                                        {"Sub", "Sub"},
                                                        {"Mul", "Mul"},
                                                        {"Div", "Div"},
                                                        {"Equal", "Equal"},
                                                        {"Less", "Less"},
                                                        {"Greater", "Greater"},
                                                        {"LessOrEqual", "LessEqual"},
                                                        {"GreaterOrEqual", "GreaterEqual"},
                                                        {"And", "LogicalAnd"},
                                                        {"Or", "LogicalOr"}};
  for (const auto& [onnx_op, op] : binary) r->Register({onnx_op, 1, LegacyBroadcast, Binary(op)});
  r->Register({"Xor", 1, LegacyBroadcast, ConvertXor});
  r->Register({"Pow", 1, LegacyBroadcast, ConvertPow});
  r->Register({"PRelu", 1, nullptr, ConvertPRelu});
  r->Register({"Sum", 1, nullptr, Variadic("Add", false)});
  r->Register({"Mean", 1, nullptr, Variadic("Add", true)});
  r->Register({"Max", 1, nullptr, Variadic("Maximum", false)});
  r->Register({"Min", 1, nullptr, Variadic("Minimum", false)});
  r->Register({"LeakyRelu", 1, nullptr, ConvertLeakyRelu});
  r->Register({"Elu", 1, nullptr, ConvertElu});
  r->Register({"Selu", 1, nullptr, ConvertSelu});
  r->Register({"Celu", 12, nullptr, ConvertCelu});
  r->Register({"HardSigmoid", 1, nullptr, ConvertHardSigmoid});
  r->Register({"HardSwish", 14, nullptr, ConvertHardSwish});
  r->Register({"ThresholdedRelu", 10, nullptr, ConvertThresholdedRelu});
  r->Register({"Softsign", 1, nullptr, ConvertSoftsign});
  r->Register({"IsNaN", 9, nullptr, ConvertIsNaN});
  r->Register({"IsInf", 10, nullptr, ConvertIsInf});
  r->Register({"Clip", 1, nullptr, ConvertClip});
  r->Register({"Shrink", 9, nullptr, ConvertShrink});
  r->Register({"Mod", 10, nullptr, ConvertMod});
  r->Register({"BitShift", 11, BitShiftSupport, ConvertBitShift});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
