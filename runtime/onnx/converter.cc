#include "rill/runtime/onnx/converter.h"

#include <cmath>
#include <limits>

#include "rill/ops/array_ops.h"

namespace rill::onnx::internal {

using ::onnx::TensorProto;

DataType FromOnnxType(int32_t t) {
  switch (t) {
    case TensorProto::FLOAT:
      return DT_FLOAT;
    case TensorProto::DOUBLE:
      return DT_DOUBLE;
    case TensorProto::INT32:
      return DT_INT32;
    case TensorProto::INT64:
      return DT_INT64;
    case TensorProto::UINT8:
      return DT_UINT8;
    case TensorProto::BOOL:
      return DT_BOOL;
    case TensorProto::INT8:
      return DT_INT8;
    case TensorProto::INT16:
      return DT_INT16;
    case TensorProto::UINT16:
      return DT_UINT16;
    case TensorProto::UINT32:
      return DT_UINT32;
    case TensorProto::UINT64:
      return DT_UINT64;
    default:
      return DT_INVALID;
  }
}

int32_t ToOnnxType(DataType dt) {
  switch (dt) {
    case DT_FLOAT:
      return TensorProto::FLOAT;
    case DT_DOUBLE:
      return TensorProto::DOUBLE;
    case DT_INT32:
      return TensorProto::INT32;
    case DT_INT64:
      return TensorProto::INT64;
    case DT_UINT8:
      return TensorProto::UINT8;
    case DT_BOOL:
      return TensorProto::BOOL;
    case DT_INT8:
      return TensorProto::INT8;
    case DT_INT16:
      return TensorProto::INT16;
    case DT_UINT16:
      return TensorProto::UINT16;
    case DT_UINT32:
      return TensorProto::UINT32;
    case DT_UINT64:
      return TensorProto::UINT64;
    default:
      return TensorProto::UNDEFINED;
  }
}

const char* OnnxTypeName(int32_t t) {
  if (!TensorProto::DataType_IsValid(t)) return "an unknown dtype";
  // DataType_Name returns a reference to a static string.
  return TensorProto::DataType_Name(static_cast<TensorProto::DataType>(t)).c_str();
}

NodeAttrs::NodeAttrs(const ::onnx::NodeProto& node) {
  for (const auto& a : node.attribute()) attrs_[a.name()] = &a;
}

const ::onnx::AttributeProto* NodeAttrs::get(const std::string& name) const {
  auto it = attrs_.find(name);
  return it == attrs_.end() ? nullptr : it->second;
}

int64_t NodeAttrs::i(const std::string& name, int64_t dflt) const {
  const auto* a = get(name);
  return a != nullptr && a->has_i() ? a->i() : dflt;
}

float NodeAttrs::f(const std::string& name, float dflt) const {
  const auto* a = get(name);
  return a != nullptr && a->has_f() ? a->f() : dflt;
}

std::string NodeAttrs::s(const std::string& name, const std::string& dflt) const {
  const auto* a = get(name);
  return a != nullptr && a->has_s() ? a->s() : dflt;
}

std::vector<int64_t> NodeAttrs::ints(const std::string& name) const {
  const auto* a = get(name);
  return a == nullptr ? std::vector<int64_t>{}
                      : std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::vector<float> NodeAttrs::floats(const std::string& name) const {
  const auto* a = get(name);
  return a == nullptr ? std::vector<float>{}
                      : std::vector<float>(a->floats().begin(), a->floats().end());
}

const ::onnx::TensorProto* NodeAttrs::tensor(const std::string& name) const {
  const auto* a = get(name);
  return a != nullptr && a->has_t() ? &a->t() : nullptr;
}

NodeContext::NodeContext(const ::onnx::NodeProto& node, const NodeAttrs& attrs, int64_t opset,
                         const Scope& scope, std::vector<Output> inputs,
                         SubgraphConverter* subgraphs, std::vector<Output> nhwc_inputs)
    : node_(node),
      attrs_(attrs),
      opset_(opset),
      scope_(scope),
      inputs_(std::move(inputs)),
      subgraphs_(subgraphs),
      nhwc_inputs_(std::move(nhwc_inputs)) {}

const Tensor* NodeContext::constant_input(int i) const {
  if (!has_input(i) || !inputs_[i].node()->IsConstant()) return nullptr;
  const AttrMap& attrs = inputs_[i].node()->attrs();
  auto it = attrs.find("value");
  return it == attrs.end() ? nullptr : std::get_if<Tensor>(&it->second);
}

absl::StatusOr<std::vector<int64_t>> NodeContext::ConstInts(int i, const char* what) const {
  const Tensor* t = constant_input(i);
  if (t == nullptr) return Error(what, " must be known when the model is imported");
  std::vector<int64_t> v;
  v.reserve(t->NumElements());
  if (t->dtype() == DT_INT64) {
    for (int64_t k = 0; k < t->NumElements(); ++k) v.push_back(t->flat<int64_t>()(k));
  } else if (t->dtype() == DT_INT32) {
    for (int64_t k = 0; k < t->NumElements(); ++k) v.push_back(t->flat<int32_t>()(k));
  } else {
    return Error(what, " must be int32 or int64, got ", DataTypeString(t->dtype()));
  }
  return v;
}

Operation NodeContext::OpNode(const std::string& op, std::vector<Output> inputs,
                              std::vector<std::pair<std::string, AttrValue>> attrs) const {
  ops::internal::NodeBuilder b(scope_, op);
  for (const Output& in : inputs) b.Input(in);
  for (auto& [name, v] : attrs) b.Attr(name, std::move(v));
  return b.Finalize();
}

Output NodeContext::Op(const std::string& op, std::vector<Output> inputs,
                       std::vector<std::pair<std::string, AttrValue>> attrs) const {
  Operation n = OpNode(op, std::move(inputs), std::move(attrs));
  return n.node() != nullptr && n.num_outputs() > 0 ? Output(n.node(), 0) : Output();
}

Output NodeContext::Const(const Tensor& t) const { return ops::Const(scope_, t); }

Output NodeContext::Int64s(const std::vector<int64_t>& v) const {
  Tensor t(DT_INT64, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t k = 0; k < v.size(); ++k) t.flat<int64_t>()(k) = v[k];
  return Const(t);
}

Output NodeContext::Int32s(const std::vector<int64_t>& v) const {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t k = 0; k < v.size(); ++k) t.flat<int32_t>()(k) = static_cast<int32_t>(v[k]);
  return Const(t);
}

void NodeContext::set_output(int i, Output o) {
  if (static_cast<int>(outputs_.size()) <= i) outputs_.resize(i + 1);
  outputs_[i] = o;
}

void NodeContext::set_nhwc_output(int i, Output o) {
  if (static_cast<int>(nhwc_outputs_.size()) <= i) nhwc_outputs_.resize(i + 1);
  nhwc_outputs_[i] = o;
}

ConverterRegistry* ConverterRegistry::Global() {
  static auto* r = new ConverterRegistry;
  return r;
}

bool ConverterRegistry::Register(Converter c) {
  std::string key = c.op_type;
  converters_.emplace(std::move(key), std::move(c));
  return true;
}

const Converter* ConverterRegistry::Find(const std::string& op_type, int64_t opset) const {
  const Converter* best = nullptr;
  auto [lo, hi] = converters_.equal_range(op_type);
  for (auto it = lo; it != hi; ++it) {
    if (it->second.since <= opset && (best == nullptr || it->second.since > best->since)) {
      best = &it->second;
    }
  }
  return best;
}

// v in T, as rill's Cast converts: NaN is 0 for integers, and values beyond T's range
// saturate (a model's attribute may hold anything; a plain cast of those is undefined).
template <typename T>
T Saturate(double v) {
  if (std::isnan(v))
    return std::numeric_limits<T>::has_quiet_NaN ? std::numeric_limits<T>::quiet_NaN() : T(0);
  if (v <= static_cast<double>(std::numeric_limits<T>::lowest()))
    return std::numeric_limits<T>::lowest();
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

// A scalar of x's dtype.
Output ScalarLike(const NodeContext& c, const Output& like, double v) {
  Tensor t(like.type(), TensorShape({}));
  switch (like.type()) {
    case DT_DOUBLE:
      t.scalar<double>()() = v;
      break;
    case DT_INT32:
      t.scalar<int32_t>()() = Saturate<int32_t>(v);
      break;
    case DT_INT64:
      t.scalar<int64_t>()() = Saturate<int64_t>(v);
      break;
    case DT_UINT8:
      t.scalar<uint8_t>()() = Saturate<uint8_t>(v);
      break;
    default:  // float, and the float of an op that will refuse a mismatched dtype
      t = Tensor(DT_FLOAT, TensorShape({}));
      t.scalar<float>()() = std::isinf(v) ? static_cast<float>(v) : Saturate<float>(v);
  }
  return c.Const(t);
}

Output ScalarI32(const NodeContext& c, int64_t v) {
  return c.Const(Tensor(static_cast<int32_t>(v)));
}

Output ShapeOf(const NodeContext& c, const Output& x, DataType dt) {
  const PartialTensorShape& s = x.shape();
  if (!s.unknown_rank() && s.IsFullyDefined()) {
    std::vector<int64_t> dims(s.dim_sizes().begin(), s.dim_sizes().end());
    return dt == DT_INT32 ? c.Int32s(dims) : c.Int64s(dims);
  }
  return c.Op("Shape", {x}, {{"out_type", dt}});
}

// The size of x's dim `axis` as a scalar of `dt`.
Output DimOf(const NodeContext& c, const Output& x, int64_t axis, DataType dt) {
  // Any other dtype (a model's indices may claim one) is made from int64 by a Cast, which
  // refuses what it cannot convert.
  if (dt != DT_INT32 && dt != DT_INT64) {
    return c.Op("Cast", {DimOf(c, x, axis, DT_INT64)}, {{"DstT", dt}});
  }
  const PartialTensorShape& s = x.shape();
  if (!s.unknown_rank() && axis < s.dims() && s.dim_size(axis) >= 0) {
    Tensor t(dt, TensorShape({}));
    if (dt == DT_INT32) {
      t.scalar<int32_t>()() = static_cast<int32_t>(s.dim_size(axis));
    } else {
      t.scalar<int64_t>()() = s.dim_size(axis);
    }
    return c.Const(t);
  }
  return c.Op("StridedSlice",
              {ShapeOf(c, x, dt), c.Int64s({axis}), c.Int64s({axis + 1}), c.Int64s({1})},
              {{"shrink_axis_mask", int64_t{1}}});
}

Output ScalarInput(const NodeContext& c, int i, DataType dt) {
  Output v = c.Op("Reshape", {c.input(i), c.Int64s({})});
  return v.type() == dt ? v : c.Op("Cast", {v}, {{"DstT", dt}});
}

// The axes from 2 to the rank: the spatial dims of NC... tensors.
absl::StatusOr<std::vector<int64_t>> SpatialAxes(const NodeContext& c, const Output& x) {
  const int64_t rank = RankOf(x);
  if (rank < 2) return c.Error("the input's rank is not known or below 2");
  std::vector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d) axes.push_back(d);
  return axes;
}

absl::StatusOr<int64_t> AxisAttr(const NodeContext& c, const Output& x, int64_t dflt) {
  const int64_t rank = RankOf(x);
  if (rank < 0) return c.Error("the input's rank is not known");
  const int64_t axis = NormalizeAxis(c.attrs().i("axis", dflt), rank);
  if (axis < 0)
    return c.Error("axis ", c.attrs().i("axis", dflt), " is out of range for rank ", rank);
  return axis;
}

int64_t NormalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) return -1;
  return axis < 0 ? axis + rank : axis;
}

int64_t RankOf(const Output& o) {
  const PartialTensorShape& s = o.shape();
  return s.unknown_rank() ? -1 : s.dims();
}

Output AppendAlongNewAxis(const Scope& s, const Output& acc, const Output& x) {
  // acc as [n, x's dims...] (an empty vector reshapes to [0, ...]), then x as one more row.
  auto shape = ops::Concat(s, {ops::Const(s, {-1}), ops::Shape(s, x)}, 0);
  return ops::Concat(s, {ops::Reshape(s, acc, shape), ops::ExpandDims(s, x, 0)}, 0);
}

}  // namespace rill::onnx::internal
