// rill ops written as ONNX (opset 13) nodes: one node where ONNX has the op, a few where it
// does not (Relu6 is a Clip, Rsqrt a Reciprocal of a Sqrt). rill's convolutions and pools
// are channels-last and ONNX's channels-first: each is written between Transposes.
#include <algorithm>
#include <string>
#include <vector>

#include "rill/runtime/onnx/converter.h"
#include "rill/runtime/onnx/exporter.h"

namespace rill::onnx::internal {
namespace {

const std::vector<int64_t> kToNchw = {0, 3, 1, 2};
const std::vector<int64_t> kToNhwc = {0, 2, 3, 1};

ExportFn Same(std::string op) {
  return [op](ExportContext& c) {
    std::vector<std::string> in;
    for (int i = 0; i < c.node().num_inputs(); ++i) in.push_back(c.In(i));
    c.Add(op, in, {c.Out(0)});
    return absl::OkStatus();
  };
}

absl::Status ExportMatMul(ExportContext& c) {
  const bool ta = c.Attr<bool>("transpose_a"), tb = c.Attr<bool>("transpose_b");
  if (!ta && !tb) {
    c.Add("MatMul", {c.In(0), c.In(1)}, {c.Out(0)});
  } else {
    auto* n = c.Add("Gemm", {c.In(0), c.In(1)}, {c.Out(0)});
    SetInt(n, "transA", ta);
    SetInt(n, "transB", tb);
  }
  return absl::OkStatus();
}

absl::Status ExportBiasAdd(ExportContext& c) {
  if (c.Attr<std::string>("data_format") == "NHWC") {
    c.Add("Add", {c.In(0), c.In(1)}, {c.Out(0)});  // numpy broadcasting on the last dim
    return absl::OkStatus();
  }
  const int64_t rank = c.InRank(0);
  if (rank < 2) return c.Error("NCHW BiasAdd needs the input's rank");
  std::vector<int64_t> shape(rank - 1, 1);
  shape[0] = -1;
  const std::string b = c.Temp("bias");
  c.Add("Reshape", {c.In(1), c.Int64s("shape", shape)}, {b});
  c.Add("Add", {c.In(0), b}, {c.Out(0)});
  return absl::OkStatus();
}

// [1, h, w, 1] (NHWC) lists as ONNX's [h, w].
std::vector<int64_t> Spatial(const std::vector<int64_t>& nhwc) { return {nhwc[1], nhwc[2]}; }

absl::Status SetPadding(ExportContext& c, ::onnx::NodeProto* n) {
  const std::string p = c.Attr<std::string>("padding");
  if (p == "EXPLICIT" && c.HasAttr("explicit_paddings")) {  // NHWC pairs -> ONNX's begins, ends
    const auto e = c.Attr<std::vector<int64_t>>("explicit_paddings");
    if (e.size() != 8) return c.Error("explicit_paddings of ", e.size(), " values");
    SetInts(n, "pads", {e[2], e[4], e[3], e[5]});
    return absl::OkStatus();
  }
  if (p != "SAME" && p != "VALID") return c.Error("padding '", p, "'");
  SetString(n, "auto_pad", p == "SAME" ? "SAME_UPPER" : "VALID");
  return absl::OkStatus();
}

// Conv2D, or DepthwiseConv2dNative as a Conv of one group per input channel: its filter
// [kH, kW, C, m] holds the values of ONNX's [C * m, 1, kH, kW] in HWIO order.
absl::Status ExportConv(ExportContext& c, bool depthwise) {
  if (c.Attr<std::string>("data_format") != "NHWC") return c.Error("data_format NCHW");
  const std::string x = c.Transposed(c.In(0), kToNchw, "x_nchw");
  std::string filter = c.In(1);
  int64_t groups = 1;
  if (depthwise) {
    const NodeOut in = c.node().input(1);
    const PartialTensorShape& s = in.node->output_shape(in.index);
    if (s.unknown_rank() || s.dims() != 4 || s.dim_size(2) < 0) {
      return c.Error("a depthwise filter's channels must be known, got ", s.DebugString());
    }
    groups = s.dim_size(2);
    filter = c.Temp("w_hwio");
    c.Add("Reshape", {c.In(1), c.Int64s("shape", {0, 0, 1, -1})}, {filter});
  }
  const std::string w = c.Transposed(filter, {3, 2, 0, 1}, "w_oihw");  // [kH,kW,I,O] -> OIHW
  const std::string y = c.Temp("y_nchw");
  auto* n = c.Add("Conv", {x, w}, {y});
  if (depthwise) SetInt(n, "group", groups);
  SetInts(n, "strides", Spatial(c.Attr<std::vector<int64_t>>("strides")));
  SetInts(n, "dilations", Spatial(c.Attr<std::vector<int64_t>>("dilations")));
  RILL_RETURN_IF_ERROR(SetPadding(c, n));
  SetInts(c.Add("Transpose", {y}, {c.Out(0)}), "perm", kToNhwc);
  return absl::OkStatus();
}

ExportFn Pool(std::string op) {
  return [op](ExportContext& c) -> absl::Status {
    if (c.HasAttr("data_format") && c.Attr<std::string>("data_format") != "NHWC") {
      return c.Error("data_format NCHW");
    }
    const std::string x = c.Transposed(c.In(0), kToNchw, "x_nchw");
    const std::string y = c.Temp("y_nchw");
    auto* n = c.Add(op, {x}, {y});
    SetInts(n, "kernel_shape", Spatial(c.Attr<std::vector<int64_t>>("ksize")));
    SetInts(n, "strides", Spatial(c.Attr<std::vector<int64_t>>("strides")));
    RILL_RETURN_IF_ERROR(SetPadding(c, n));
    SetInts(c.Add("Transpose", {y}, {c.Out(0)}), "perm", kToNhwc);
    return absl::OkStatus();
  };
}

// An input that ONNX wants as int64 (shapes, axes): cast when rill holds int32.
std::string AsInt64(ExportContext& c, int i) {
  const NodeOut in = c.node().input(i);
  if (in.node->output_type(in.index) == DT_INT64) return c.In(i);
  const std::string out = c.Temp("int64");
  SetInt(c.Add("Cast", {c.In(i)}, {out}), "to", ::onnx::TensorProto::INT64);
  return out;
}

absl::Status ExportReshape(ExportContext& c) {
  c.Add("Reshape", {c.In(0), AsInt64(c, 1)}, {c.Out(0)});
  return absl::OkStatus();
}

// Softmax and LogSoftmax normalize rill's last dim: opset 13's axis -1.
ExportFn LastAxis(std::string op) {
  return [op](ExportContext& c) {
    SetInt(c.Add(op, {c.In(0)}, {c.Out(0)}), "axis", -1);
    return absl::OkStatus();
  };
}

absl::Status ExportRelu6(ExportContext& c) {
  const DataType dt = c.node().output_type(0);
  Tensor zero(dt, TensorShape({})), six(dt, TensorShape({}));
  if (dt == DT_DOUBLE) {
    zero.scalar<double>()() = 0;
    six.scalar<double>()() = 6;
  } else {
    zero.scalar<float>()() = 0;
    six.scalar<float>()() = 6;
  }
  c.Add("Clip", {c.In(0), c.Initializer("zero", zero), c.Initializer("six", six)}, {c.Out(0)});
  return absl::OkStatus();
}

absl::Status ExportLeakyRelu(ExportContext& c) {
  SetFloat(c.Add("LeakyRelu", {c.In(0)}, {c.Out(0)}), "alpha", c.Attr<float>("alpha"));
  return absl::OkStatus();
}

// ONNX's Mod: fmod 1 is C's remainder (TruncateMod, and Mod, its older name); fmod 0 is
// Python's (FloorMod), which ONNX defines for integers only.
ExportFn ExportMod(bool truncate) {
  return [truncate](ExportContext& c) -> absl::Status {
    const DataType dt = c.node().output_type(0);
    if (!truncate && (dt == DT_FLOAT || dt == DT_DOUBLE)) {
      return c.Error("FloorMod of floats (ONNX's Mod with fmod 0 takes integers only)");
    }
    SetInt(c.Add("Mod", {c.In(0), c.In(1)}, {c.Out(0)}), "fmod", truncate ? 1 : 0);
    return absl::OkStatus();
  };
}

absl::Status ExportRsqrt(ExportContext& c) {
  const std::string s = c.Temp("sqrt");
  c.Add("Sqrt", {c.In(0)}, {s});
  c.Add("Reciprocal", {s}, {c.Out(0)});
  return absl::OkStatus();
}

absl::Status ExportSquare(ExportContext& c) {
  c.Add("Mul", {c.In(0), c.In(0)}, {c.Out(0)});
  return absl::OkStatus();
}

absl::Status ExportCast(ExportContext& c) {
  const int32_t to = ToOnnxType(c.Attr<DataType>("DstT"));
  if (to == ::onnx::TensorProto::UNDEFINED) return c.Error("no ONNX dtype for the cast");
  SetInt(c.Add("Cast", {c.In(0)}, {c.Out(0)}), "to", to);
  return absl::OkStatus();
}

// Reductions over constant axes: ReduceSum takes them as an input in opset 13, the others
// as an attribute.
ExportFn Reduce(std::string op) {
  return [op](ExportContext& c) -> absl::Status {
    const Tensor* axes = c.ConstIn(1);
    if (axes == nullptr) return c.Error("reduction axes must be a constant");
    std::vector<int64_t> ax;
    for (int64_t i = 0; i < axes->NumElements(); ++i) {
      ax.push_back(axes->dtype() == DT_INT64 ? axes->flat<int64_t>()(i) : axes->flat<int32_t>()(i));
    }
    const bool keep = c.Attr<bool>("keep_dims");
    ::onnx::NodeProto* n;
    if (op == "ReduceSum") {
      n = c.Add(op, {c.In(0), c.Int64s("axes", ax)}, {c.Out(0)});
    } else {
      n = c.Add(op, {c.In(0)}, {c.Out(0)});
      SetInts(n, "axes", ax);
    }
    SetInt(n, "keepdims", keep);
    return absl::OkStatus();
  };
}

absl::Status ExportConcat(ExportContext& c) {
  const int n = c.node().num_inputs() - 1;
  const Tensor* axis = c.ConstIn(n);
  if (axis == nullptr) return c.Error("the axis must be a constant");
  std::vector<std::string> in;
  for (int i = 0; i < n; ++i) in.push_back(c.In(i));
  const int64_t a = axis->dtype() == DT_INT64 ? axis->flat<int64_t>()(0) : axis->flat<int32_t>()(0);
  SetInt(c.Add("Concat", in, {c.Out(0)}), "axis", a);
  return absl::OkStatus();
}

absl::Status ExportTranspose(ExportContext& c) {
  const Tensor* perm = c.ConstIn(1);
  if (perm == nullptr) return c.Error("the permutation must be a constant");
  std::vector<int64_t> p;
  for (int64_t i = 0; i < perm->NumElements(); ++i) {
    p.push_back(perm->dtype() == DT_INT64 ? perm->flat<int64_t>()(i) : perm->flat<int32_t>()(i));
  }
  SetInts(c.Add("Transpose", {c.In(0)}, {c.Out(0)}), "perm", p);
  return absl::OkStatus();
}

absl::Status ExportShape(ExportContext& c) {
  if (c.node().output_type(0) == DT_INT64) {
    c.Add("Shape", {c.In(0)}, {c.Out(0)});
    return absl::OkStatus();
  }
  const std::string s = c.Temp("shape");
  c.Add("Shape", {c.In(0)}, {s});
  SetInt(c.Add("Cast", {s}, {c.Out(0)}), "to", ToOnnxType(c.node().output_type(0)));
  return absl::OkStatus();
}

// ONNX's Einsum (opset 12) follows NumPy's, which has no output label written twice.
absl::Status ExportEinsum(ExportContext& c) {
  const std::string& eq = c.node().attr<std::string>("equation");
  const std::string out = eq.substr(eq.find("->") + 2);
  for (char ch : out) {
    if (ch != '.' && std::count(out.begin(), out.end(), ch) > 1) {
      return c.Error("equation '", eq, "' writes a diagonal (label '", std::string(1, ch),
                     "' twice in the output), which ONNX's Einsum cannot");
    }
  }
  std::vector<std::string> in;
  for (int i = 0; i < c.node().num_inputs(); ++i) in.push_back(c.In(i));
  SetString(c.Add("Einsum", in, {c.Out(0)}), "equation", eq);
  return absl::OkStatus();
}

[[maybe_unused]] const bool kExportOpsRegistered = [] {
  auto* r = ExporterRegistry::Global();
  const std::pair<const char*, const char*> same[] = {{"Identity", "Identity"},
                                                      {"StopGradient", "Identity"},
                                                      {"PreventGradient", "Identity"},
                                                      {"Snapshot", "Identity"},
                                                      {"IsNan", "IsNaN"},
                                                      {"IsInf", "IsInf"},
                                                      {"Rint", "Round"},
                                                      {"Relu", "Relu"},
                                                      {"Sigmoid", "Sigmoid"},
                                                      {"Tanh", "Tanh"},
                                                      {"Elu", "Elu"},
                                                      {"Selu", "Selu"},
                                                      {"Softplus", "Softplus"},
                                                      {"Exp", "Exp"},
                                                      {"Log", "Log"},
                                                      {"Neg", "Neg"},
                                                      {"Abs", "Abs"},
                                                      {"Sqrt", "Sqrt"},
                                                      {"Floor", "Floor"},
                                                      {"Ceil", "Ceil"},
                                                      {"Erf", "Erf"},
                                                      {"Reciprocal", "Reciprocal"},
                                                      {"Sign", "Sign"},
                                                      {"Add", "Add"},
                                                      {"AddV2", "Add"},
                                                      {"Sub", "Sub"},
                                                      {"Mul", "Mul"},
                                                      {"Div", "Div"},
                                                      {"RealDiv", "Div"},
                                                      {"Maximum", "Max"},
                                                      {"Minimum", "Min"},
                                                      {"Pow", "Pow"},
                                                      {"Equal", "Equal"},
                                                      {"Less", "Less"},
                                                      {"Greater", "Greater"},
                                                      {"LessEqual", "LessOrEqual"},
                                                      {"GreaterEqual", "GreaterOrEqual"},
                                                      {"LogicalAnd", "And"},
                                                      {"LogicalOr", "Or"},
                                                      {"LogicalNot", "Not"},
                                                      {"SelectV2", "Where"},
                                                      {"AddN", "Sum"}};
  for (const auto& [op, onnx_op] : same) r->Register(op, Same(onnx_op));
  r->Register("MatMul", ExportMatMul);
  r->Register("BiasAdd", ExportBiasAdd);
  r->Register("Conv2D", [](ExportContext& c) { return ExportConv(c, false); });
  r->Register("DepthwiseConv2dNative", [](ExportContext& c) { return ExportConv(c, true); });
  r->Register("MaxPool", Pool("MaxPool"));
  r->Register("AvgPool", Pool("AveragePool"));
  r->Register("Reshape", ExportReshape);
  r->Register("Softmax", LastAxis("Softmax"));
  r->Register("LogSoftmax", LastAxis("LogSoftmax"));
  r->Register("Relu6", ExportRelu6);
  r->Register("LeakyRelu", ExportLeakyRelu);
  r->Register("Rsqrt", ExportRsqrt);
  r->Register("TruncateMod", ExportMod(true));
  r->Register("Mod", ExportMod(true));
  r->Register("FloorMod", ExportMod(false));
  r->Register("Square", ExportSquare);
  r->Register("Cast", ExportCast);
  r->Register("Sum", Reduce("ReduceSum"));
  r->Register("Mean", Reduce("ReduceMean"));
  r->Register("Max", Reduce("ReduceMax"));
  r->Register("Min", Reduce("ReduceMin"));
  r->Register("Prod", Reduce("ReduceProd"));
  r->Register("ConcatV2", ExportConcat);
  r->Register("Transpose", ExportTranspose);
  r->Register("Shape", ExportShape);
  r->Register("Einsum", ExportEinsum);
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
