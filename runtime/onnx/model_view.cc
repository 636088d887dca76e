#include "rill/runtime/onnx/model_view.h"

#include "absl/strings/str_join.h"
#include "onnx/checker.h"
#include "rill/core/limits.h"
#include "rill/core/status.h"
#include "rill/runtime/onnx/tensor_proto.h"

namespace rill::onnx::internal {
namespace {

bool DefaultDomain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

// Why a graph input or initializer of this type cannot be imported ("" when it can).
std::string TypeProblem(const ::onnx::TypeProto& t) {
  if (!t.has_tensor_type())
    return "only tensor values are supported (not sequences, maps, optionals)";
  const int32_t et = t.tensor_type().elem_type();
  if (FromOnnxType(et) == DT_INVALID) {
    return absl::StrCat("dtype ", OnnxTypeName(et), " is not supported");
  }
  return "";
}

}  // namespace

absl::StatusOr<std::unique_ptr<ModelView>> ModelView::Parse(absl::string_view bytes,
                                                            const ImportOptions& options) {
  std::unique_ptr<ModelView> m(new ModelView);
  if (bytes.size() > static_cast<size_t>(kMaxModelBytes) ||
      !m->model_.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return errors::InvalidArgument("not an ONNX model: the ", bytes.size(),
                                   " bytes do not parse as a ModelProto");
  }
  if (options.check_model) {
    try {
      ::onnx::checker::check_model(m->model_);
    } catch (const std::exception& e) {
      return errors::InvalidArgument("not a valid ONNX model (ONNX's checker): ", e.what());
    }
  }
  for (const auto& [name, value] : options.constant_inputs) {
    bool found = false;
    for (const auto& in : m->model_.graph().input()) found = found || in.name() == name;
    if (!found)
      return errors::InvalidArgument("constant_inputs names '", name,
                                     "', which is not a graph input");
    ::onnx::TensorProto* t = m->model_.mutable_graph()->add_initializer();
    RILL_RETURN_IF_ERROR(TensorToProto(value, t));
    t->set_name(name);
  }
  for (const auto& o : m->model_.opset_import()) {
    if (DefaultDomain(o.domain())) m->opset_ = o.version();
  }
  m->FindConstants();
  return m;
}

void ModelView::FindConstants() {
  for (const auto& t : graph().initializer()) {
    init_names_.insert(t.name());
    constants_.insert(t.name());
  }
  for (const auto& in : graph().input()) {
    if (!IsInitializer(in.name())) graph_inputs_.insert(in.name());
    if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
      ranks_[in.name()] = in.type().tensor_type().shape().dim_size();
    }
  }
  for (const auto& t : graph().initializer()) ranks_[t.name()] = t.dims_size();
  for (const auto& n : graph().node()) {
    if (n.op_type() == "Constant" && DefaultDomain(n.domain())) {
      for (const auto& o : n.output()) constants_.insert(o);
    }
    const Converter* c = ConverterFor(n);
    if (c == nullptr) continue;
    for (int i : c->const_inputs) {
      if (i < n.input_size() && IsInitializer(n.input(i))) keep_const_.insert(n.input(i));
    }
  }
}

const Converter* ModelView::ConverterFor(const ::onnx::NodeProto& node) const {
  if (!DefaultDomain(node.domain())) return nullptr;
  return ConverterRegistry::Global()->Find(node.op_type(), opset_);
}

std::string ModelView::NodeProblem(const ::onnx::NodeProto& node,
                                   std::vector<std::string>* inputs) const {
  if (!DefaultDomain(node.domain())) return "ops of this domain are not supported";
  const Converter* c = ConverterFor(node);
  if (c == nullptr) {
    if (ConverterRegistry::Global()->Find(node.op_type(), kMaxOpset) != nullptr) {
      return absl::StrCat("rill converts this op from a later opset only");
    }
    return "rill has no converter for this op";
  }
  NodeAttrs attrs(node);
  SupportView view{node, attrs, opset_, {}};
  for (const auto& in : node.input()) {
    view.input_is_constant.push_back(constants_.count(in) != 0);
    auto r = ranks_.find(in);
    view.input_ranks.push_back(r == ranks_.end() ? -1 : r->second);
  }
  std::vector<std::string> why;
  for (int i : c->const_inputs) {
    if (i < node.input_size() && graph_inputs_.count(node.input(i)) != 0) {
      inputs->push_back(node.input(i));
      why.push_back(absl::StrCat("input ", i, " ('", node.input(i), "')"));
    }
  }
  if (!why.empty()) {
    return absl::StrCat(absl::StrJoin(why, " and "),
                        " must be known when the model is imported, and is a graph input");
  }
  return c->support != nullptr ? c->support(view) : "";
}

std::vector<UnsupportedNode> ModelView::Unsupported() const {
  std::vector<UnsupportedNode> out;
  if (opset_ > kMaxOpset) {
    out.push_back(
        {"",
         "(model)",
         "",
         opset_,
         absl::StrCat("opset ", opset_, " is newer than ", kMaxOpset, ", the newest rill imports"),
         {}});
    return out;
  }
  for (const auto& in : graph().input()) {
    if (IsInitializer(in.name())) continue;
    std::string why = TypeProblem(in.type());
    if (!why.empty()) out.push_back({in.name(), "(graph input)", "", opset_, why, {}});
  }
  for (const auto& t : graph().initializer()) {
    if (FromOnnxType(t.data_type()) == DT_INVALID) {
      out.push_back({t.name(),
                     "(initializer)",
                     "",
                     opset_,
                     absl::StrCat("dtype ", OnnxTypeName(t.data_type()), " is not supported"),
                     {}});
    }
  }
  for (const auto& node : graph().node()) {
    std::vector<std::string> needs;
    std::string why = NodeProblem(node, &needs);
    if (!why.empty())
      out.push_back({node.name(), node.op_type(), node.domain(), opset_, why, needs});
  }
  return out;
}

absl::StatusOr<std::pair<DataType, PartialTensorShape>> ModelView::InputType(
    const ::onnx::ValueInfoProto& in) const {
  const std::string why = TypeProblem(in.type());
  if (!why.empty()) return errors::InvalidArgument("graph input '", in.name(), "': ", why);
  const auto& tt = in.type().tensor_type();
  PartialTensorShape shape;  // unknown rank when the model gives no shape
  if (tt.has_shape()) {
    std::vector<int64_t> dims;
    for (const auto& d : tt.shape().dim()) dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
    for (int64_t d : dims) {
      if (d < -1) return errors::InvalidArgument("graph input '", in.name(), "' has dim ", d);
    }
    if (dims.size() > static_cast<size_t>(kMaxTensorRank)) {
      return errors::InvalidArgument("graph input '", in.name(), "' has rank ", dims.size(),
                                     "; at most ", kMaxTensorRank, " is supported");
    }
    shape = PartialTensorShape(dims);
  }
  return std::make_pair(FromOnnxType(tt.elem_type()), shape);
}

absl::Status ModelView::DecodeInitializers() {
  inits_.clear();
  for (const auto& t : graph().initializer()) {
    RILL_ASSIGN_OR_RETURN(Tensor v,
                          TensorFromProto(t, absl::StrCat("initializer '", t.name(), "'")));
    inits_.emplace_back(t.name(), std::move(v));
  }
  return absl::OkStatus();
}

}  // namespace rill::onnx::internal
