// ImportModel: parse and check the model, list what cannot be converted, then build. The
// graph is built twice: first into a scratch graph, where any error stops the import with
// nothing added to the caller's graph, then into the caller's scope (names are made unique
// by the scope, so the second build meets no error the first did not).
#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "onnx/checker.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/state_ops.h"
#include "rill/runtime/file_util.h"
#include "rill/runtime/onnx/converter.h"
#include "rill/runtime/onnx/layout.h"
#include "rill/runtime/onnx/model_view.h"
#include "rill/runtime/onnx/onnx.h"
#include "rill/runtime/onnx/tensor_proto.h"

namespace rill::onnx {
namespace {

using internal::ModelView;

// A name a rill node can carry: characters other than letters, digits and _ . - / become
// '_', and slashes at either end are dropped.
std::string NodeName(const std::string& onnx_name, const std::string& fallback) {
  std::string s = onnx_name.empty() ? fallback : onnx_name;
  for (char& c : s) {
    const bool ok =
        std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '/';
    if (!ok) c = '_';
  }
  while (!s.empty() && s.front() == '/') s.erase(s.begin());
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s.empty() ? fallback : s;
}

absl::Status AddPlaceholders(const Scope& scope, const ModelView& m, ImportedModel* out,
                             std::map<std::string, Output>* values) {
  for (const auto& in : m.graph().input()) {
    if (m.IsInitializer(in.name())) continue;
    RILL_ASSIGN_OR_RETURN(auto type, m.InputType(in));
    auto p = ops::Placeholder(scope.WithOpName(NodeName(in.name(), "input")), type.first,
                              ops::Placeholder::Shape(type.second));
    RILL_RETURN_IF_ERROR(scope.status());
    (*values)[in.name()] = p;
    out->input_names.push_back(in.name());
    out->inputs.push_back(p);
  }
  return absl::OkStatus();
}

void AddInitializers(const Scope& scope, const ModelView& m, const ImportOptions& options,
                     ImportedModel* out, std::map<std::string, Output>* values) {
  for (const auto& [name, tensor] : m.initializers()) {
    const Scope s = scope.WithOpName(NodeName(name, "initializer"));
    const bool variable =
        options.trainable && DataTypeIsFloating(tensor.dtype()) && !m.MustStayConstant(name);
    if (variable) {
      ops::Variable v(s, tensor);
      (*values)[name] = v;
      out->variables.push_back(v);
    } else {
      (*values)[name] = ops::Const(s, tensor);
    }
  }
}

// The values of one graph being converted, by ONNX name. A subgraph's reach those of the
// graphs around it (ONNX subgraphs read outer values by name): a constant is copied into
// the subgraph's own graph, any other value becomes a Capture (an argument of the function
// the subgraph becomes).
class ValueScope {
 public:
  ValueScope(Scope scope, ValueScope* parent, std::vector<internal::Capture>* captures)
      : scope_(std::move(scope)), parent_(parent), captures_(captures) {}
  const Scope& scope() const { return scope_; }
  // `twin`: the value's channels-last form (runtime/onnx/layout.h), when there is one.
  void Set(const std::string& name, Output o, Output twin = Output()) {
    values_[name] = o;
    if (twin.node() != nullptr) {
      twins_[name] = twin;
    } else {
      twins_.erase(name);
    }
  }
  // The channels-last twin of `name` in this graph, or an empty Output.
  Output Twin(const std::string& name) const {
    if (auto it = twins_.find(name); it != twins_.end()) return it->second;
    if (values_.count(name) != 0 || parent_ == nullptr) return Output();
    if (scope_.graph() != parent_->scope_.graph()) return Output();  // not across functions
    return parent_->Twin(name);
  }

  // The value named `name`; an empty Output when no graph around has it.
  absl::StatusOr<Output> Get(const std::string& name) {
    if (auto it = values_.find(name); it != values_.end()) return it->second;
    if (parent_ == nullptr) return Output();
    RILL_ASSIGN_OR_RETURN(Output outer, parent_->Get(name));
    if (!outer.valid()) return Output();
    if (scope_.graph() == parent_->scope_.graph()) return outer;  // a branch put inline
    Output inner;
    if (outer.node()->IsConstant()) {
      inner =
          ops::Const(scope_.WithOpName(NodeName(name, "outer")), *outer.node()->constant_value());
    } else {
      inner = ops::Placeholder(scope_.WithOpName(NodeName(name, "outer")), outer.type(),
                               ops::Placeholder::Shape(outer.shape()));
      captures_->push_back({name, outer, inner});
    }
    RILL_RETURN_IF_ERROR(scope_.status());
    values_[name] = inner;
    return inner;
  }

 private:
  Scope scope_;
  ValueScope* parent_;
  std::vector<internal::Capture>* captures_;
  std::map<std::string, Output> values_;
  std::map<std::string, Output> twins_;
};

// Converts a model's graph and, for the converters of If and Loop, its subgraphs.
class Importer final : public internal::SubgraphConverter {
 public:
  explicit Importer(const ModelView& m) : m_(m) {}

  absl::Status ConvertNodes(const ::onnx::GraphProto& g, ValueScope* values) {
    ValueScope* enclosing = std::exchange(current_, values);
    absl::Status s;
    for (const auto& node : g.node()) {
      s = ConvertNode(node, values);
      if (!s.ok()) break;
    }
    current_ = enclosing;
    return s;
  }

  absl::StatusOr<std::vector<Output>> Convert(const ::onnx::GraphProto& g, const Scope& scope,
                                              const std::map<std::string, Output>& bound,
                                              const std::vector<std::string>& first,
                                              std::vector<internal::Capture>* captures) override {
    ValueScope values(scope, current_, captures);
    for (const auto& [name, o] : bound) values.Set(name, o);
    for (const std::string& name : first) {
      RILL_ASSIGN_OR_RETURN(Output o, values.Get(name));
      if (!o.valid()) return errors::InvalidArgument("no value named '", name, "' to capture");
    }
    for (const auto& t : g.initializer()) {
      RILL_ASSIGN_OR_RETURN(
          Tensor v, internal::TensorFromProto(t, absl::StrCat("initializer '", t.name(), "'")));
      values.Set(t.name(), ops::Const(scope.WithOpName(NodeName(t.name(), "initializer")), v));
    }
    RILL_RETURN_IF_ERROR(scope.status());
    RILL_RETURN_IF_ERROR(ConvertNodes(g, &values));
    std::vector<Output> outs;
    for (const auto& o : g.output()) {
      RILL_ASSIGN_OR_RETURN(Output v, values.Get(o.name()));
      if (!v.valid()) {
        return errors::InvalidArgument("subgraph '", g.name(), "': output '", o.name(),
                                       "' is computed by no node");
      }
      outs.push_back(v);
    }
    return outs;
  }

 private:
  absl::Status ConvertNode(const ::onnx::NodeProto& node, ValueScope* values) {
    const internal::Converter* conv = m_.ConverterFor(node);
    if (conv == nullptr) {  // only inside a subgraph the support checks did not reach
      return errors::InvalidArgument("ONNX node '", node.name(), "' (", node.op_type(),
                                     "): rill has no converter for this op");
    }
    std::vector<Output> inputs, twins;
    for (const std::string& name : node.input()) {
      twins.push_back(name.empty() ? Output() : values->Twin(name));
      if (name.empty()) {
        inputs.emplace_back();
        continue;
      }
      RILL_ASSIGN_OR_RETURN(Output in, values->Get(name));
      if (!in.valid()) {
        return errors::InvalidArgument("ONNX node '", node.name(), "' (", node.op_type(),
                                       "): input '", name, "' is not produced by an earlier node");
      }
      inputs.push_back(in);
    }
    const internal::NodeAttrs attrs(node);
    // A node's name, else its first output's (a node may have none: the fuzzer's third
    // find, where reading output 0 threw from protobuf), else its op type.
    const std::string first = node.output_size() > 0 ? node.output(0) : std::string();
    const std::string name = NodeName(node.name(), NodeName(first, node.op_type()));
    const Scope& scope = values->scope();
    const Scope node_scope = scope.NewSubScope(name);
    // An elementwise node over channels-last twins converts on them: its outputs are twins.
    std::optional<std::vector<Output>> nhwc;
    int rank = 4;  // of the values whose twins nhwc holds
    if (m_.opset() >= 7 && internal::IsLayoutFree(node.op_type())) {  // 7: numpy broadcasting
      nhwc = internal::ChannelsLastInputs(node_scope, inputs, twins, &rank);
    }
    if (nhwc) inputs = *nhwc;
    internal::NodeContext ctx(node, attrs, m_.opset(), node_scope, std::move(inputs), this,
                              nhwc ? std::vector<Output>() : std::move(twins));
    absl::Status s = conv->convert(ctx);
    if (s.ok() && !scope.ok()) s = scope.status();
    if (!s.ok()) {
      if (absl::StrContains(s.message(), "ONNX node '")) return s;
      return absl::Status(s.code(), absl::StrCat("ONNX node '", node.name(), "' (", node.op_type(),
                                                 ", opset ", m_.OpsetOf(node), "): ", s.message()));
    }
    for (int i = 0; i < node.output_size(); ++i) {
      if (node.output(i).empty()) continue;
      if (i >= static_cast<int>(ctx.outputs().size()) || ctx.outputs()[i].node() == nullptr) {
        return ctx.Error("output ", i, " ('", node.output(i), "') is not computed by rill");
      }
      const Output out = ctx.outputs()[i];
      if (nhwc) {  // the NCHW value is pruned from the plan when nothing reads it
        values->Set(node.output(i), internal::ToNchw(ctx, out, rank), out);
      } else {
        const auto& t = ctx.nhwc_outputs();
        values->Set(node.output(i), out, i < static_cast<int>(t.size()) ? t[i] : Output());
      }
    }
    return absl::OkStatus();
  }

  const ModelView& m_;
  ValueScope* current_ = nullptr;  // the graph whose nodes are being converted
};

absl::StatusOr<ImportedModel> Build(const Scope& scope, const ModelView& m,
                                    const ImportOptions& options) {
  ImportedModel out;
  out.opset = m.opset();
  out.producer = m.model().producer_name();
  std::map<std::string, Output> values;
  RILL_RETURN_IF_ERROR(AddPlaceholders(scope, m, &out, &values));
  AddInitializers(scope, m, options, &out, &values);
  RILL_RETURN_IF_ERROR(scope.status());
  ValueScope top(scope, nullptr, nullptr);
  for (const auto& [name, o] : values) top.Set(name, o);
  Importer importer(m);
  RILL_RETURN_IF_ERROR(importer.ConvertNodes(m.graph(), &top));
  for (const auto& o : m.graph().output()) {
    RILL_ASSIGN_OR_RETURN(Output v, top.Get(o.name()));
    if (!v.valid()) {
      return errors::InvalidArgument("the model's output '", o.name(), "' is computed by no node");
    }
    out.output_names.push_back(o.name());
    out.outputs.push_back(v);
  }
  return out;
}

std::string DescribeUnsupported(const std::vector<UnsupportedNode>& nodes) {
  std::vector<std::string> lines;
  std::set<std::string> types;
  for (const UnsupportedNode& n : nodes) {
    types.insert(n.op_type);
    lines.push_back(absl::StrCat("  node '", n.node_name, "' (", n.op_type, ", domain '",
                                 n.domain.empty() ? "ai.onnx" : n.domain, "', opset ", n.opset,
                                 "): ", n.reason));
  }
  return absl::StrCat("the ONNX model has ", nodes.size(), " node(s) rill cannot import (",
                      absl::StrJoin(types, ", "), "):\n", absl::StrJoin(lines, "\n"));
}

}  // namespace

Output ImportedModel::input(absl::string_view onnx_name) const {
  for (size_t i = 0; i < input_names.size(); ++i) {
    if (input_names[i] == onnx_name) return inputs[i];
  }
  return Output();
}

Output ImportedModel::output(absl::string_view onnx_name) const {
  for (size_t i = 0; i < output_names.size(); ++i) {
    if (output_names[i] == onnx_name) return outputs[i];
  }
  return Output();
}

absl::StatusOr<ImportedModel> ImportModel(const Scope& scope, absl::string_view bytes,
                                          const ImportOptions& options) {
  RILL_RETURN_IF_ERROR(scope.status());
  RILL_ASSIGN_OR_RETURN(auto m, ModelView::Parse(bytes, options));
  std::vector<UnsupportedNode> unsupported = m->Unsupported();
  if (!unsupported.empty()) return errors::InvalidArgument(DescribeUnsupported(unsupported));
  RILL_RETURN_IF_ERROR(m->DecodeInitializers());
  {
    Scope scratch = Scope::NewRootScope();
    if (!scope.name_prefix().empty()) scratch = scratch.NewSubScope(scope.name_prefix());
    RILL_RETURN_IF_ERROR(Build(scratch, *m, options).status());
  }
  return Build(scope, *m, options);
}

absl::StatusOr<ImportedModel> ImportModelFile(const Scope& scope, const std::string& path,
                                              const ImportOptions& options) {
  RILL_ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path, "ONNX model", kMaxModelBytes));
  absl::StatusOr<ImportedModel> m = ImportModel(scope, bytes, options);
  if (!m.ok())
    return absl::Status(m.status().code(), absl::StrCat(path, ": ", m.status().message()));
  return m;
}

absl::StatusOr<std::vector<UnsupportedNode>> FindUnsupportedNodes(absl::string_view bytes,
                                                                  const ImportOptions& options) {
  RILL_ASSIGN_OR_RETURN(auto m, ModelView::Parse(bytes, options));
  return m->Unsupported();
}

absl::StatusOr<Tensor> ParseTensorProto(absl::string_view bytes, std::string* name) {
  ::onnx::TensorProto p;
  if (bytes.size() > static_cast<size_t>(kMaxModelBytes) ||
      !p.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return errors::InvalidArgument("not an ONNX TensorProto (", bytes.size(), " bytes)");
  }
  if (name != nullptr) *name = p.name();
  return internal::TensorFromProto(p, absl::StrCat("tensor '", p.name(), "'"));
}

absl::StatusOr<Tensor> ReadTensorProtoFile(const std::string& path, std::string* name) {
  RILL_ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path, "ONNX tensor", kMaxModelBytes));
  absl::StatusOr<Tensor> t = ParseTensorProto(bytes, name);
  if (!t.ok())
    return absl::Status(t.status().code(), absl::StrCat(path, ": ", t.status().message()));
  return t;
}

std::vector<ConverterInfo> SupportedOps() {
  std::map<std::string, int64_t> first;
  for (const auto& [op, c] : internal::ConverterRegistry::Global()->all()) {
    auto [it, fresh] = first.try_emplace(op, c.since);
    if (!fresh) it->second = std::min(it->second, c.since);
  }
  std::vector<ConverterInfo> out;
  for (const auto& [op, since] : first) out.push_back({op, since});
  return out;
}

}  // namespace rill::onnx
