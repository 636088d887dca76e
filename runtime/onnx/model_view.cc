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

// Adds a graph's own initializers, inputs and Constant nodes to `info`.
void AddGraphValues(const ::onnx::GraphProto& g, GraphInfo* info) {
  for (const auto& in : g.input()) {
    info->constants.erase(in.name());  // an input of the same name hides an outer constant
    info->runtime_inputs.insert(in.name());
    if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
      info->ranks[in.name()] = in.type().tensor_type().shape().dim_size();
    }
  }
  for (const auto& t : g.initializer()) {
    info->runtime_inputs.erase(t.name());
    info->constants.insert(t.name());
    info->ranks[t.name()] = t.dims_size();
  }
  for (const auto& n : g.node()) {
    if (n.op_type() == "Constant" && DefaultDomain(n.domain())) {
      for (const auto& o : n.output()) info->constants.insert(o);
    }
  }
}

// Why a subgraph's own inputs, initializers or outputs cannot be imported, onto *out.
void GraphValueProblems(const ::onnx::NodeProto& node, const ::onnx::GraphProto& g, int64_t opset,
                        std::vector<UnsupportedNode>* out) {
  auto add = [&](const std::string& what, const std::string& why) {
    out->push_back({node.name(),
                    node.op_type(),
                    node.domain(),
                    opset,
                    absl::StrCat("subgraph '", g.name(), "' ", what, ": ", why),
                    {}});
  };
  // A subgraph's inputs and outputs may leave their types out (then they come from the
  // values bound to them).
  auto untyped = [](const ::onnx::ValueInfoProto& v) {
    return v.type().value_case() == ::onnx::TypeProto::VALUE_NOT_SET;
  };
  for (const auto& in : g.input()) {
    if (untyped(in)) continue;
    std::string why = TypeProblem(in.type());
    if (!why.empty()) add(absl::StrCat("input '", in.name(), "'"), why);
  }
  for (const auto& o : g.output()) {
    if (untyped(o)) continue;
    std::string why = TypeProblem(o.type());
    if (!why.empty()) add(absl::StrCat("output '", o.name(), "'"), why);
  }
  for (const auto& t : g.initializer()) {
    if (FromOnnxType(t.data_type()) == DT_INVALID) {
      add(absl::StrCat("initializer '", t.name(), "'"),
          absl::StrCat("dtype ", OnnxTypeName(t.data_type()), " is not supported"));
    }
  }
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
    if (DefaultDomain(o.domain())) {
      m->opset_ = o.version();
    } else {
      m->domain_opsets_[o.domain()] = o.version();
    }
  }
  m->FindConstants();
  return m;
}

void ModelView::FindConstants() {
  for (const auto& t : graph().initializer()) init_names_.insert(t.name());
  AddGraphValues(graph(), &top_);
  KeepConstants(graph().node());
}

void ModelView::KeepConstants(const google::protobuf::RepeatedPtrField<::onnx::NodeProto>& nodes) {
  for (const auto& n : nodes) {
    for (const auto& a : n.attribute()) {
      if (a.has_g()) KeepConstants(a.g().node());
    }
    const Converter* c = ConverterFor(n);
    if (c == nullptr) continue;
    for (int i : c->const_inputs) {
      if (i < n.input_size() && IsInitializer(n.input(i))) keep_const_.insert(n.input(i));
    }
  }
}

int64_t ModelView::OpsetOf(const ::onnx::NodeProto& node) const {
  if (DefaultDomain(node.domain())) return opset_;
  auto it = domain_opsets_.find(node.domain());
  return it == domain_opsets_.end() ? 0 : it->second;
}

const Converter* ModelView::ConverterFor(const ::onnx::NodeProto& node) const {
  if (DefaultDomain(node.domain()))
    return ConverterRegistry::Global()->Find(node.op_type(), opset_);
  auto it = domain_opsets_.find(node.domain());
  if (it == domain_opsets_.end()) return nullptr;
  return ConverterRegistry::Global()->Find(absl::StrCat(node.domain(), ":", node.op_type()),
                                           it->second);
}

std::string ModelView::NodeProblem(const ::onnx::NodeProto& node, const GraphInfo& info,
                                   std::vector<std::string>* inputs) const {
  const Converter* c = ConverterFor(node);
  if (c == nullptr && !DefaultDomain(node.domain())) {
    return "rill has no converter for this op of this domain and opset";
  }
  if (c == nullptr) {
    if (ConverterRegistry::Global()->Find(node.op_type(), kMaxOpset) != nullptr) {
      return absl::StrCat("rill converts this op from a later opset only");
    }
    return "rill has no converter for this op";
  }
  NodeAttrs attrs(node);
  SupportView view{node, attrs, opset_, {}};
  for (const auto& in : node.input()) {
    view.input_is_constant.push_back(info.constants.count(in) != 0);
    auto r = info.ranks.find(in);
    view.input_ranks.push_back(r == info.ranks.end() ? -1 : r->second);
  }
  std::vector<std::string> why;
  for (int i : c->const_inputs) {
    if (i < node.input_size() && info.runtime_inputs.count(node.input(i)) != 0) {
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
  CollectUnsupported(graph().node(), top_, 0, &out);
  return out;
}

void ModelView::CollectUnsupported(
    const google::protobuf::RepeatedPtrField<::onnx::NodeProto>& nodes, const GraphInfo& info,
    int depth, std::vector<UnsupportedNode>* out) const {
  for (const auto& node : nodes) {
    std::vector<std::string> needs;
    std::string why = NodeProblem(node, info, &needs);
    if (!why.empty())
      out->push_back({node.name(), node.op_type(), node.domain(), OpsetOf(node), why, needs});
    for (const auto& a : node.attribute()) {
      if (!a.has_g()) continue;
      if (depth >= kMaxSubgraphDepth) {
        out->push_back({node.name(),
                        node.op_type(),
                        node.domain(),
                        opset_,
                        absl::StrCat("subgraphs nested more than ", kMaxSubgraphDepth, " deep"),
                        {}});
        continue;
      }
      GraphValueProblems(node, a.g(), opset_, out);
      GraphInfo sub = info;
      AddGraphValues(a.g(), &sub);
      CollectUnsupported(a.g().node(), sub, depth + 1, out);
    }
  }
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
