// ExportModel: the nodes that compute the requested outputs from the given inputs, written
// as an ONNX model (opset 13) that ONNX's checker accepts. Placeholders become graph
// inputs, Consts and Variables (their current values, read through a Session) initializers,
// every other node what its exporter writes (export_ops.cc). A graph with ops no exporter
// covers is one InvalidArgument listing them all.
#include <set>

#include "absl/strings/str_join.h"
#include "onnx/checker.h"
#include "rill/runtime/file_util.h"
#include "rill/runtime/onnx/converter.h"
#include "rill/runtime/onnx/exporter.h"
#include "rill/runtime/onnx/onnx.h"
#include "rill/runtime/onnx/tensor_proto.h"
#include "rill/runtime/session.h"

namespace rill::onnx {
namespace {

using internal::ValueName;

// The nodes `outputs` depend on, inputs first; feeds (the given inputs) end the walk.
std::vector<const Node*> NodesToExport(const std::vector<Output>& outputs,
                                       const std::set<const Node*>& feeds) {
  std::vector<const Node*> order;
  std::set<const Node*> done;
  std::vector<std::pair<const Node*, int>> stack;  // (node, next input to visit)
  for (const Output& o : outputs) stack.push_back({o.node(), 0});
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    if (done.count(n)) {
      stack.pop_back();
      continue;
    }
    if (!feeds.count(n) && next < n->num_inputs()) {
      const Node* in = n->input(next++).node;
      if (!done.count(in)) stack.push_back({in, 0});
      continue;
    }
    done.insert(n);
    order.push_back(n);
    stack.pop_back();
  }
  return order;
}

void SetValueInfo(::onnx::ValueInfoProto* v, const std::string& name, DataType dt,
                  const PartialTensorShape& shape) {
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(internal::ToOnnxType(dt));
  auto* s = t->mutable_shape();
  if (shape.unknown_rank()) return;
  for (int d = 0; d < shape.dims(); ++d) {
    auto* dim = s->add_dim();
    if (shape.dim_size(d) >= 0) {
      dim->set_dim_value(shape.dim_size(d));
    } else {
      dim->set_dim_param(absl::StrCat(name, "_dim", d));
    }
  }
}

absl::Status AddInitializer(::onnx::GraphProto* g, const std::string& name, const Tensor& t) {
  ::onnx::TensorProto* p = g->add_initializer();
  RILL_RETURN_IF_ERROR(internal::TensorToProto(t, p));
  p->set_name(name);
  return absl::OkStatus();
}

// Variables' current values, read through the session.
absl::Status AddVariables(::onnx::GraphProto* g, const std::vector<const Node*>& vars,
                          const ExportOptions& options) {
  if (vars.empty()) return absl::OkStatus();
  if (options.session == nullptr) {
    return errors::InvalidArgument("the graph has variables ('", vars[0]->name(),
                                   "'): ExportOptions::session must hold their values");
  }
  std::vector<Output> fetch;
  for (const Node* v : vars) fetch.emplace_back(const_cast<Node*>(v), 0);
  std::vector<Tensor> values;
  RILL_RETURN_IF_ERROR(options.session->Run(fetch, &values));
  for (size_t i = 0; i < vars.size(); ++i) {
    RILL_RETURN_IF_ERROR(AddInitializer(g, ValueName(vars[i]->name(), 0), values[i]));
  }
  return absl::OkStatus();
}

absl::Status ExportNodes(::onnx::GraphProto* g, const std::vector<const Node*>& nodes,
                         const std::set<const Node*>& feeds, const ExportOptions& options) {
  std::set<std::string> missing;
  for (const Node* n : nodes) {
    if (feeds.count(n) || n->IsConstant() || n->IsVariable() || n->IsPlaceholder()) continue;
    if (internal::ExporterRegistry::Global()->Find(n->type_string()) == nullptr) {
      missing.insert(n->type_string());
    }
  }
  if (!missing.empty()) {
    return errors::InvalidArgument("no ONNX exporter for op(s) ", absl::StrJoin(missing, ", "));
  }
  std::vector<const Node*> vars;
  for (const Node* n : nodes) {
    if (feeds.count(n)) continue;
    if (n->IsVariable()) {
      vars.push_back(n);
    } else if (n->IsConstant()) {
      RILL_RETURN_IF_ERROR(
          AddInitializer(g, ValueName(n->name(), 0), std::get<Tensor>(n->attrs().at("value"))));
    } else if (n->IsPlaceholder()) {
      return errors::InvalidArgument("placeholder '", n->name(),
                                     "' feeds the outputs but is not among the inputs");
    } else {
      internal::ExportContext c(g, *n);
      RILL_RETURN_IF_ERROR((*internal::ExporterRegistry::Global()->Find(n->type_string()))(c));
    }
  }
  return AddVariables(g, vars, options);
}

}  // namespace

absl::StatusOr<std::string> ExportModel(const std::vector<Output>& inputs,
                                        const std::vector<Output>& outputs,
                                        const ExportOptions& options) {
  if (outputs.empty()) return errors::InvalidArgument("ExportModel needs at least one output");
  std::set<const Node*> feeds;
  for (const Output& in : inputs) {
    if (!in.valid()) return errors::InvalidArgument("an input of ExportModel is empty");
    feeds.insert(in.node());
  }
  for (const Output& o : outputs) {
    if (!o.valid()) return errors::InvalidArgument("an output of ExportModel is empty");
  }
  ::onnx::ModelProto m;
  m.set_ir_version(7);  // opset 13's
  m.set_producer_name(options.producer);
  auto* opset = m.add_opset_import();
  opset->set_domain("");
  opset->set_version(13);
  ::onnx::GraphProto* g = m.mutable_graph();
  g->set_name(options.graph_name);
  for (const Output& in : inputs) {
    SetValueInfo(g->add_input(), ValueName(in.node()->name(), in.index()), in.type(), in.shape());
  }
  RILL_RETURN_IF_ERROR(ExportNodes(g, NodesToExport(outputs, feeds), feeds, options));
  for (const Output& o : outputs) {
    SetValueInfo(g->add_output(), ValueName(o.node()->name(), o.index()), o.type(), o.shape());
  }
  try {
    ::onnx::checker::check_model(m);
  } catch (const std::exception& e) {
    return errors::Internal("the exported model fails ONNX's checker: ", e.what());
  }
  return m.SerializeAsString();
}

absl::Status ExportModelFile(const std::string& path, const std::vector<Output>& inputs,
                             const std::vector<Output>& outputs, const ExportOptions& options) {
  RILL_ASSIGN_OR_RETURN(std::string bytes, ExportModel(inputs, outputs, options));
  return WriteFileAtomically(path, bytes, "ONNX model");
}

}  // namespace rill::onnx
