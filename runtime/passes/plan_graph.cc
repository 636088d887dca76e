#include "rill/runtime/passes/plan_graph.h"

#include "absl/strings/str_cat.h"
#include "rill/core/kernel.h"

namespace rill {

UseCounts::UseCounts(const PlanGraph& g) {
  for (const NodeOut& f : g.fetches) fetched_.insert({f.node, f.index});
  const absl::flat_hash_set<const Node*> live = Reachable(g);
  for (int id = 0; id < g.graph->num_nodes(); ++id) {  // readers in id order: stable rules
    const Node* n = g.graph->node(id);
    if (!live.contains(n)) continue;
    for (int i = 0; i < n->num_inputs(); ++i) {
      consumers_[{n->input(i).node, n->input(i).index}].push_back(n);
    }
    for (const Node* c : n->control_inputs()) ++control_[c];
  }
}

const std::vector<const Node*>& UseCounts::consumers(NodeOut out) const {
  static const std::vector<const Node*> kNone;
  auto it = consumers_.find({out.node, out.index});
  return it == consumers_.end() ? kNone : it->second;
}

int UseCounts::data(NodeOut out) const { return static_cast<int>(consumers(out).size()); }
int UseCounts::control(const Node* n) const {
  auto it = control_.find(n);
  return it == control_.end() ? 0 : it->second;
}
bool UseCounts::fetched(NodeOut out) const { return fetched_.contains({out.node, out.index}); }

NodeOut GraphRewriter::Map(NodeOut old) const {
  auto it = outputs_.find(old.node);
  if (it == outputs_.end() || old.index < 0 || old.index >= static_cast<int>(it->second.size())) {
    return {};
  }
  return it->second[old.index];
}

std::vector<Node*> GraphRewriter::MapControl(const Node* old) const {
  auto it = control_.find(old);
  return it == control_.end() ? std::vector<Node*>{} : it->second;
}

NodeSpec GraphRewriter::SpecOf(const Node& old) const {
  NodeSpec spec;
  spec.name = old.name();
  spec.op = old.type_string();
  spec.attrs = old.attrs();
  spec.device = old.requested_device();
  // Placement is decided before the copy, so colocation has done its work (and the node
  // it names may not be in this graph).
  for (int i = 0; i < old.num_inputs(); ++i) spec.inputs.push_back(Map(old.input(i)));
  for (const Node* c : old.control_inputs()) {
    for (Node* m : MapControl(c)) {
      if (std::find(spec.control_inputs.begin(), spec.control_inputs.end(), m) ==
          spec.control_inputs.end()) {
        spec.control_inputs.push_back(m);
      }
    }
  }
  return spec;
}

absl::StatusOr<Node*> GraphRewriter::Add(NodeSpec spec, Device* device,
                                         std::vector<std::string> replaces) {
  for (const NodeOut& in : spec.inputs) {
    if (in.node == nullptr) {
      return errors::Internal("graph optimizer, ", pass_, ": an input of '", spec.name, "' (",
                              spec.op, ") was not rewritten before it");
    }
  }
  absl::StatusOr<Node*> n = out_.graph->AddNode(std::move(spec));
  if (!n.ok()) return errors::Annotate(n.status(), absl::StrCat("graph optimizer, ", pass_, ": "));
  out_.device[*n] = device;
  if (!replaces.empty()) out_.replaces[*n] = std::move(replaces);
  return *n;
}

void GraphRewriter::Replace(const Node& old, std::vector<NodeOut> outputs,
                            std::vector<Node*> control) {
  outputs_[&old] = std::move(outputs);
  control_[&old] = std::move(control);
}

std::vector<std::string> GraphRewriter::NamesOf(const Node& old) const {
  auto it = in_.replaces.find(&old);
  return it == in_.replaces.end() ? std::vector<std::string>{old.name()} : it->second;
}

std::string GraphRewriter::FreeName(const std::string& base) const {
  std::string name = base;
  for (int k = 1; in_.graph->HasNode(name) || out_.graph->HasNode(name); ++k) {
    name = absl::StrCat(base, "_", k);
  }
  return name;
}

absl::StatusOr<Node*> GraphRewriter::Copy(const Node& old) {
  std::vector<std::string> replaces;
  if (auto it = in_.replaces.find(&old); it != in_.replaces.end()) replaces = it->second;
  RILL_ASSIGN_OR_RETURN(Node * n, Add(SpecOf(old), in_.DeviceOf(&old), std::move(replaces)));
  std::vector<NodeOut> outs;
  for (int k = 0; k < n->num_outputs(); ++k) outs.push_back({n, k});
  Replace(old, std::move(outs), {n});
  return n;
}

absl::flat_hash_set<const Node*> Reachable(const PlanGraph& g) {
  absl::flat_hash_set<const Node*> seen(g.fed.begin(), g.fed.end());
  std::vector<const Node*> stack;
  auto visit = [&](const Node* n) {
    if (seen.insert(n).second) stack.push_back(n);
  };
  for (const NodeOut& f : g.fetches) visit(f.node);
  for (const Node* t : g.targets) visit(t);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    for (int i = 0; i < n->num_inputs(); ++i) visit(n->input(i).node);
    for (const Node* c : n->control_inputs()) visit(c);
  }
  return seen;
}

absl::StatusOr<PlanGraph> GraphRewriter::Run(const Visit& visit) {
  const Graph& g = *in_.graph;
  // What an earlier pass left unreachable is dropped (it may read what this pass removes).
  const absl::flat_hash_set<const Node*> live = Reachable(in_);
  out_.host = in_.host;
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node& old = *g.node(id);
    if (!live.contains(&old)) continue;
    bool handled = false;
    // Feeds are the request's; no pass may touch them.
    if (!in_.fed.contains(&old)) {
      RILL_ASSIGN_OR_RETURN(handled, visit(old, *this));
    }
    if (!handled) RILL_RETURN_IF_ERROR(Copy(old).status());
  }
  for (const NodeOut& f : in_.feeds) {
    out_.feeds.push_back(Map(f));
    out_.fed.insert(out_.feeds.back().node);
  }
  for (const NodeOut& f : in_.fetches) {
    NodeOut m = Map(f);
    if (m.node == nullptr) {
      return errors::Internal("graph optimizer, ", pass_, ": fetch of '", f.node->name(), "' lost");
    }
    out_.fetches.push_back(m);
  }
  for (const Node* t : in_.targets) {
    for (Node* m : MapControl(t)) out_.targets.push_back(m);
  }
  return std::move(out_);
}

bool HasKernelFor(const std::string& op, const AttrMap& attrs, const std::string& device_type) {
  for (const KernelDef& k : KernelRegistry::Global()->DefsFor(op)) {
    if (k.device_type != device_type) continue;
    if (k.constraint_attr.empty()) return true;
    auto a = attrs.find(k.constraint_attr);
    if (a != attrs.end() && std::holds_alternative<DataType>(a->second) &&
        std::get<DataType>(a->second) == k.dtype) {
      return true;
    }
  }
  return false;
}

bool AppendAttrKey(const AttrValue& v, std::string* key, int64_t max_tensor_bytes) {
  if (const Tensor* t = std::get_if<Tensor>(&v)) {
    if (!t->IsInitialized() || DataTypeSize(t->dtype()) == 0 ||
        t->TotalBytes() > static_cast<size_t>(max_tensor_bytes)) {
      return false;
    }
    absl::StrAppend(key, DataTypeString(t->dtype()), t->shape().DebugString(), ":");
    key->append(static_cast<const char*>(t->data()), t->TotalBytes());
    return true;
  }
  if (const float* f = std::get_if<float>(&v)) {
    key->append(reinterpret_cast<const char*>(f), sizeof(float));
    return true;
  }
  absl::StrAppend(key, AttrValueDebugString(v));
  return true;
}

}  // namespace rill
