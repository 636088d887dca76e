// ONNX ops that make, reshape and cast tensors. Shapes known while importing are folded
// into constants (Shape of a fully known shape is a Const), so that the shape arithmetic
// exporters write around Reshape costs nothing at run time.
#include <algorithm>

#include "rill/runtime/onnx/converter.h"
#include "rill/runtime/onnx/layout.h"
#include "rill/runtime/onnx/tensor_proto.h"

namespace rill::onnx::internal {
namespace {

std::string ConstantSupport(const SupportView& v) {
  for (const char* a : {"sparse_value", "value_string", "value_strings"}) {
    if (v.attrs.has(a)) return absl::StrCat("attribute '", a, "' is not supported");
  }
  if (const auto* t = v.attrs.tensor("value"); t != nullptr) {
    if (FromOnnxType(t->data_type()) == DT_INVALID) {
      return absl::StrCat("dtype ", OnnxTypeName(t->data_type()), " is not supported");
    }
  }
  return "";
}

absl::Status ConvertConstant(NodeContext& c) {
  const NodeAttrs& a = c.attrs();
  Tensor t;
  if (const auto* p = a.tensor("value"); p != nullptr) {
    RILL_ASSIGN_OR_RETURN(t, TensorFromProto(*p, "attribute 'value'"));
  } else if (a.has("value_float")) {
    t = Tensor(a.f("value_float", 0));
  } else if (a.has("value_int")) {
    t = Tensor(a.i("value_int", 0));
  } else if (a.has("value_floats")) {
    std::vector<float> v = a.floats("value_floats");
    t = Tensor(DT_FLOAT, TensorShape({static_cast<int64_t>(v.size())}));
    std::copy(v.begin(), v.end(), t.flat<float>().data());
  } else if (a.has("value_ints")) {
    std::vector<int64_t> v = a.ints("value_ints");
    t = Tensor(DT_INT64, TensorShape({static_cast<int64_t>(v.size())}));
    std::copy(v.begin(), v.end(), t.flat<int64_t>().data());
  } else {
    return c.Error("has no value attribute");
  }
  c.set_output(0, c.Const(t));
  return absl::OkStatus();
}

std::string CastSupport(const SupportView& v) {
  const int64_t to = v.attrs.i("to", 0);
  if (FromOnnxType(static_cast<int32_t>(to)) == DT_INVALID) {
    return absl::StrCat("cast to ", OnnxTypeName(static_cast<int32_t>(to)), " is not supported");
  }
  return "";
}

absl::Status ConvertCast(NodeContext& c) {
  const DataType to = FromOnnxType(static_cast<int32_t>(c.attrs().i("to", 0)));
  Output x = c.input(0);
  c.set_output(0, x.type() == to ? c.Op("Identity", {x}) : c.Op("Cast", {x}, {{"DstT", to}}));
  return absl::OkStatus();
}

absl::Status ConvertCastLike(NodeContext& c) {
  Output x = c.input(0);
  const DataType to = c.input(1).type();
  c.set_output(0, x.type() == to ? c.Op("Identity", {x}) : c.Op("Cast", {x}, {{"DstT", to}}));
  return absl::OkStatus();
}

// Shape, with opset 15's start and end (clamped to the rank, as Python slicing).
absl::Status ConvertShape(NodeContext& c) {
  Output x = c.input(0);
  Output shape = ShapeOf(c, x);
  if (!c.attrs().has("start") && !c.attrs().has("end")) {
    c.set_output(0, shape);
    return absl::OkStatus();
  }
  const int64_t rank = RankOf(x);
  if (rank < 0) return c.Error("start and end need the input's rank, which is not known");
  auto clamp = [rank](int64_t v) { return std::clamp(v < 0 ? v + rank : v, int64_t{0}, rank); };
  const int64_t start = clamp(c.attrs().i("start", 0)), end = clamp(c.attrs().i("end", rank));
  const PartialTensorShape& s = x.shape();
  if (s.IsFullyDefined()) {
    std::vector<int64_t> dims;
    for (int64_t d = start; d < end; ++d) dims.push_back(s.dim_size(static_cast<int>(d)));
    c.set_output(0, c.Int64s(dims));
  } else {
    c.set_output(0, c.Op("Slice", {shape, c.Int64s({start}),
                                   c.Int64s({std::max<int64_t>(end - start, 0)})}));
  }
  return absl::OkStatus();
}

absl::Status ConvertSize(NodeContext& c) {
  const PartialTensorShape& s = c.input(0).shape();
  if (!s.unknown_rank() && s.IsFullyDefined()) {
    int64_t n = 1;
    for (int64_t d : s.dim_sizes()) n *= d;
    c.set_output(0, c.Const(Tensor(n)));
  } else {
    c.set_output(0, c.Op("Size", {c.input(0)}, {{"out_type", DT_INT64}}));
  }
  return absl::OkStatus();
}

// Where a Reshape shape holds 0, the input's dim at that position (ONNX without allowzero):
// folded when the shape is a constant and those dims are known, else computed.
Output ResolveZeros(const NodeContext& c, const Output& x, const Output& shape) {
  if (const Tensor* t = c.constant_input(1); t != nullptr) {
    absl::StatusOr<std::vector<int64_t>> dims = c.ConstInts(1, "the shape");
    const PartialTensorShape& in = x.shape();
    bool known = dims.ok();
    for (size_t i = 0; known && i < dims->size(); ++i) {
      if ((*dims)[i] != 0) continue;
      known = !in.unknown_rank() && static_cast<int>(i) < in.dims() && in.dim_size(i) >= 0;
      if (known) (*dims)[i] = in.dim_size(i);
    }
    if (known) return c.Int64s(*dims);
  }
  // shape[i] == 0 ? concat(shape(x), zeros)[i] : shape[i]
  Output s64 = shape.type() == DT_INT64 ? shape : c.Op("Cast", {shape}, {{"DstT", DT_INT64}});
  // The shape's length, a constant when the graph knows it (so the result keeps its rank).
  const PartialTensorShape& len = s64.shape();
  Output n = !len.unknown_rank() && len.dims() == 1 && len.dim_size(0) >= 0
                 ? c.Int64s({len.dim_size(0)})
                 : c.Op("Shape", {s64}, {{"out_type", DT_INT64}});
  Output padded = c.Op(
      "ConcatV2", {ShapeOf(c, x), c.Op("Fill", {n, c.Const(Tensor(int64_t{0}))}), ScalarI32(c, 0)});
  Output head = c.Op("Slice", {padded, c.Int64s({0}), n});
  Output zero = c.Op("Equal", {s64, c.Const(Tensor(int64_t{0}))});
  return c.Op("SelectV2", {zero, head, s64});
}

absl::Status ConvertReshape(NodeContext& c) {
  Output shape = c.input(1);
  if (c.attrs().i("allowzero", 0) == 0) shape = ResolveZeros(c, c.input(0), shape);
  c.set_output(0, c.Op("Reshape", {c.input(0), shape}));
  return absl::OkStatus();
}

// Flatten to [prod(dims before axis), prod(dims from axis)].
absl::Status ConvertFlatten(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank < 0) return c.Error("the input's rank is not known");
  int64_t axis = c.attrs().i("axis", 1);
  if (axis < 0) axis += rank;  // axis may equal the rank: [prod(all), 1]
  if (axis < 0 || axis > rank)
    return c.Error("axis ", c.attrs().i("axis", 1), " is out of range for rank ", rank);
  const PartialTensorShape& s = x.shape();
  if (s.IsFullyDefined()) {
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < rank; ++d) (d < axis ? outer : inner) *= s.dim_size(d);
    c.set_output(0, c.Op("Reshape", {x, c.Int64s({outer, inner})}));
    return absl::OkStatus();
  }
  Output shape = ShapeOf(c, x);
  auto prod = [&](int64_t begin, int64_t size) {
    return c.Op("Prod",
                {c.Op("Slice", {shape, c.Int64s({begin}), c.Int64s({size})}), c.Int64s({0})},
                {{"keep_dims", true}});
  };
  Output dims = c.Op("ConcatV2", {prod(0, axis), prod(axis, rank - axis), ScalarI32(c, 0)});
  c.set_output(0, c.Op("Reshape", {x, dims}));
  return absl::OkStatus();
}

// The default perm reverses the dims.
absl::Status ConvertTranspose(NodeContext& c) {
  Output x = c.input(0);
  std::vector<int64_t> perm = c.attrs().ints("perm");
  if (!c.attrs().has("perm")) {
    const int64_t rank = RankOf(x);
    if (rank < 0) return c.Error("the input's rank is not known, and no perm is given");
    for (int64_t d = rank - 1; d >= 0; --d) perm.push_back(d);
  }
  c.set_output(0, c.Op("Transpose", {x, c.Int64s(perm)}));
  return absl::OkStatus();
}

// Axes of Squeeze and Unsqueeze: an attribute before opset 13, input 1 from 13 on.
absl::StatusOr<std::vector<int64_t>> AxesOf(const NodeContext& c, int64_t input_since) {
  if (c.opset() < input_since) return c.attrs().ints("axes");
  if (!c.has_input(1)) return std::vector<int64_t>{};
  return c.ConstInts(1, "axes");
}

absl::Status ConvertSqueeze(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesOf(c, 13));
  c.set_output(0, c.Op("Squeeze", {c.input(0)}, {{"squeeze_dims", axes}}));
  return absl::OkStatus();
}

// Unsqueeze: axes index the output; inserted one by one in ascending order.
absl::Status ConvertUnsqueeze(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesOf(c, 13));
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  const int64_t out_rank = rank < 0 ? -1 : rank + static_cast<int64_t>(axes.size());
  for (int64_t& a : axes) {
    if (a < 0 && out_rank < 0) return c.Error("negative axes need the input's rank");
    if (a < 0) a += out_rank;
    if (a < 0 || (out_rank >= 0 && a >= out_rank)) return c.Error("axis out of range");
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) return c.Error("repeated axes");
  for (int64_t a : axes) x = c.Op("ExpandDims", {x, c.Const(Tensor(a))});
  c.set_output(0, c.Op("Identity", {x}));
  return absl::OkStatus();
}

// Channels-last inputs concatenate along the axis's NHWC position, giving a twin.
bool ConcatChannelsLast(NodeContext& c) {
  std::vector<Output> in;
  for (int i = 0; i < c.num_inputs(); ++i) {
    if (c.nhwc_input(i).node() == nullptr) return false;
    in.push_back(c.nhwc_input(i));
  }
  const int rank = in.empty() ? 0 : static_cast<int>(RankOf(c.input(0)));
  const int64_t axis = NhwcAxis(c.attrs().i("axis", 0), rank);
  if (in.empty() || axis < 0) return false;
  in.push_back(ScalarI32(c, axis));
  SetChannelsLast(c, 0, c.Op("ConcatV2", in), rank);
  return true;
}

absl::Status ConvertConcat(NodeContext& c) {
  if (ConcatChannelsLast(c)) return absl::OkStatus();
  std::vector<Output> in;
  for (int i = 0; i < c.num_inputs(); ++i) in.push_back(c.input(i));
  in.push_back(ScalarI32(c, c.attrs().i("axis", 0)));
  c.set_output(0, c.Op("ConcatV2", in));
  return absl::OkStatus();
}

// Expand broadcasts both ways (numpy's rule on x's shape and `shape`): x times ones.
absl::Status ConvertExpand(NodeContext& c) {
  Output x = c.input(0);
  Output shape = c.input(1);
  if (x.type() == DT_BOOL) {
    Output f = c.Op("Fill", {shape, c.Const(Tensor(false))});
    c.set_output(0, c.Op("LogicalOr", {x, f}));
  } else {
    c.set_output(0, c.Op("Mul", {x, c.Op("Fill", {shape, ScalarLike(c, x, 1)})}));
  }
  return absl::OkStatus();
}

absl::Status ConvertConstantOfShape(NodeContext& c) {
  Tensor value(0.f);
  if (const auto* p = c.attrs().tensor("value"); p != nullptr) {
    RILL_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(*p, "attribute 'value'"));
    if (t.NumElements() != 1) return c.Error("value must hold one element");
    value.CopyFrom(t, TensorShape({}));
  }
  c.set_output(0, c.Op("Fill", {c.input(0), c.Const(value)}));
  return absl::OkStatus();
}

absl::Status ConvertWhere(NodeContext& c) {
  c.set_output(0, c.Op("SelectV2", {c.input(0), c.input(1), c.input(2)}));
  return absl::OkStatus();
}

absl::Status ConvertRange(NodeContext& c) {
  c.set_output(0, c.Op("Range", {c.input(0), c.input(1), c.input(2)}));
  return absl::OkStatus();
}

absl::Status ConvertTile(NodeContext& c) {
  c.set_output(0, c.Op("Tile", {c.input(0), c.input(1)}));
  return absl::OkStatus();
}

// Inference: Dropout passes x through; its mask is all true.
std::string DropoutSupport(const SupportView& v) {
  if (v.has_input(2)) {
    return v.constant(2) ? "" : "training_mode must be a constant false";
  }
  return "";
}

absl::Status ConvertDropout(NodeContext& c) {
  if (const Tensor* t = c.constant_input(2); t != nullptr) {
    if (t->dtype() != DT_BOOL || t->NumElements() != 1)
      return c.Error("training_mode must be a bool");
    if (t->flat<bool>()(0)) return c.Error("training_mode true (random dropout) is not supported");
  }
  Output x = c.input(0);
  c.set_output(0, c.Op("Identity", {x}));
  if (c.node().output_size() > 1) {
    c.set_output(1, c.Op("Fill", {ShapeOf(c, x), c.Const(Tensor(true))}));
  }
  return absl::OkStatus();
}

// cols - rows over the last two dims of x (rows x cols): the diagonal index of each element.
Output DiagonalIndex(const NodeContext& c, const Output& x, int64_t rank) {
  Output zero = c.Const(Tensor(int64_t{0})), one = c.Const(Tensor(int64_t{1}));
  Output rows = c.Op("Range", {zero, DimOf(c, x, rank - 2, DT_INT64), one});
  Output cols = c.Op("Range", {zero, DimOf(c, x, rank - 1, DT_INT64), one});
  return c.Op("Sub", {c.Op("ExpandDims", {cols, c.Const(Tensor(int64_t{0}))}),
                      c.Op("ExpandDims", {rows, c.Const(Tensor(int64_t{1}))})});
}

// Trilu keeps the elements on or above (upper) / below (lower) the k-th diagonal.
absl::Status ConvertTrilu(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank < 2) return c.Error("the input must have rank 2 or more, and a known rank");
  Output k = c.has_input(1) ? ScalarInput(c, 1, DT_INT64) : c.Const(Tensor(int64_t{0}));
  Output diag = DiagonalIndex(c, x, rank);
  const bool upper = c.attrs().i("upper", 1) != 0;
  Output keep = c.Op(upper ? "GreaterEqual" : "LessEqual", {diag, k});
  c.set_output(0, c.Op("SelectV2", {keep, x, c.Op("ZerosLike", {x})}));
  return absl::OkStatus();
}

// EyeLike: ones on the k-th diagonal of a matrix shaped like the input.
absl::Status ConvertEyeLike(NodeContext& c) {
  Output x = c.input(0);
  if (RankOf(x) != 2) return c.Error("the input must be a matrix");
  DataType dt = x.type();
  if (c.attrs().has("dtype")) dt = FromOnnxType(static_cast<int32_t>(c.attrs().i("dtype", 0)));
  if (dt == DT_INVALID) return c.Error("dtype is not supported");
  Output on = c.Op("Equal", {DiagonalIndex(c, x, 2), c.Const(Tensor(c.attrs().i("k", 0)))});
  c.set_output(0, c.Op("Cast", {on}, {{"DstT", dt}}));
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertArrayRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"Constant", 1, ConstantSupport, ConvertConstant});
  r->Register({"Cast", 6, CastSupport, ConvertCast});
  r->Register({"CastLike", 15, nullptr, ConvertCastLike});
  r->Register({"Shape", 1, nullptr, ConvertShape});
  r->Register({"Size", 1, nullptr, ConvertSize});
  r->Register({"Reshape", 5, nullptr, ConvertReshape});
  r->Register({"Flatten", 1, nullptr, ConvertFlatten});
  r->Register({"Transpose", 1, nullptr, ConvertTranspose});
  r->Register({"Squeeze", 1, nullptr, ConvertSqueeze, {1}});
  r->Register({"Unsqueeze", 1, nullptr, ConvertUnsqueeze, {1}});
  r->Register({"Concat", 4, nullptr, ConvertConcat});
  r->Register({"Expand", 8, nullptr, ConvertExpand});
  r->Register({"ConstantOfShape", 9, nullptr, ConvertConstantOfShape});
  r->Register({"Where", 9, nullptr, ConvertWhere});
  r->Register({"Range", 11, nullptr, ConvertRange});
  r->Register({"Tile", 6, nullptr, ConvertTile});
  r->Register({"Dropout", 1, DropoutSupport, ConvertDropout});
  r->Register({"Trilu", 14, nullptr, ConvertTrilu});
  r->Register({"EyeLike", 9, nullptr, ConvertEyeLike});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
