#include "rill/runtime/graph_view.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "rill/runtime/plan.h"
#include "rill/runtime/session.h"

namespace rill {

std::string EdgeLabel(DataType dtype, const PartialTensorShape& shape) {
  return absl::StrCat(DataTypeString(dtype), " ", shape.DebugString());
}

GraphView ViewOfGraph(const Graph& graph, const Session* session) {
  GraphView view;
  view.nodes.reserve(graph.num_nodes());
  for (int i = 0; i < graph.num_nodes(); ++i) {
    Node* n = graph.node(i);  // ids are positions, and inputs come before their users
    GraphViewNode v;
    v.name = n->name();
    v.op = n->type_string();
    v.device = n->requested_device();
    if (session != nullptr) {
      absl::StatusOr<std::string> d = session->AssignedDevice(Operation(n));
      if (d.ok()) v.device = *d;
    }
    for (int k = 0; k < n->num_inputs(); ++k) {
      NodeOut in = n->input(k);
      v.inputs.push_back(
          {in.node->id(), in.index, false,
           EdgeLabel(in.node->output_type(in.index), in.node->output_shape(in.index))});
    }
    for (const Node* c : n->control_inputs()) v.inputs.push_back({c->id(), 0, true, ""});
    view.nodes.push_back(std::move(v));
  }
  return view;
}

GraphView ViewOfPlan(const ExecutionPlan& plan) {
  GraphView view;
  // Which view node (and output) fills each slot.
  std::vector<std::pair<int, int>> slot_source(plan.num_slots, {-1, 0});
  absl::flat_hash_map<const Node*, int> view_index;
  for (size_t i = 0; i < plan.feed_nodes.size(); ++i) {
    const Node* n = plan.feed_nodes[i];
    if (view_index.contains(n)) continue;
    GraphViewNode v;
    v.name = n->name();
    v.op = n->type_string();
    v.device = plan.host->name();
    v.is_fed = true;
    view_index[n] = static_cast<int>(view.nodes.size());
    slot_source[plan.feed_slots[i]] = {view_index[n], 0};
    view.nodes.push_back(std::move(v));
  }
  for (const PlanNode& pn : plan.nodes) {
    const int id = static_cast<int>(view.nodes.size());
    view_index[pn.node] = id;
    for (int k = 0; k < pn.node->num_outputs(); ++k)
      slot_source[pn.first_output_slot + k] = {id, k};
    GraphViewNode v;
    v.name = pn.node->name();
    v.op = pn.node->type_string();
    v.device = pn.device->name();
    v.is_copy = v.op == "_Copy";
    if (auto it = plan.replaces.find(pn.node); it != plan.replaces.end()) v.replaces = it->second;
    view.nodes.push_back(std::move(v));
  }
  // Edges, once every producer has its index.
  for (const PlanNode& pn : plan.nodes) {
    GraphViewNode& v = view.nodes[view_index[pn.node]];
    for (size_t k = 0; k < pn.input_slots.size(); ++k) {
      auto [src, out] = slot_source[pn.input_slots[k]];
      if (src < 0) continue;
      std::string label;
      if (v.is_copy) {
        label = EdgeLabel(pn.node->output_type(0), pn.node->output_shape(0));
      } else {
        NodeOut in = pn.node->input(static_cast<int>(k));
        label = EdgeLabel(in.node->output_type(in.index), in.node->output_shape(in.index));
      }
      v.inputs.push_back({src, out, false, std::move(label)});
    }
    if (v.is_copy) continue;
    for (const Node* c : pn.node->control_inputs()) {
      auto it = view_index.find(c);
      if (it != view_index.end()) v.inputs.push_back({it->second, 0, true, ""});
    }
  }
  return view;
}

}  // namespace rill
