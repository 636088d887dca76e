#include "rill/runtime/plan.h"

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace rill {
namespace {

// Pass 1: every node the fetches and targets need, stopping at fed outputs.
absl::StatusOr<std::vector<const Node*>> Prune(const PlanRequest& req,
                                               const absl::flat_hash_set<const Node*>& fed) {
  std::vector<const Node*> stack, out;
  absl::flat_hash_set<const Node*> seen;
  auto visit = [&](const Node* n) {
    if (!fed.contains(n) && seen.insert(n).second) stack.push_back(n);
  };
  for (const NodeOut& f : req.fetches) visit(f.node);
  for (const Node* t : req.targets) visit(t);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n->IsPlaceholder()) {
      const auto& shape = n->attr<PartialTensorShape>("shape");
      return errors::InvalidArgument("You must feed a value for placeholder tensor '", n->name(),
                                     "' with dtype ", DataTypeString(n->output_type(0)),
                                     " and shape ", shape.DebugString());
    }
    out.push_back(n);
    for (int i = 0; i < n->num_inputs(); ++i) visit(n->input(i).node);
    for (const Node* c : n->control_inputs()) visit(c);
  }
  return out;
}

// Pass 3: Kahn's order over the pruned nodes, by node id among ready ones (stable).
std::vector<const Node*> Order(const std::vector<const Node*>& nodes,
                               const absl::flat_hash_set<const Node*>& in_plan) {
  absl::flat_hash_map<const Node*, int> pending;
  absl::flat_hash_map<const Node*, std::vector<const Node*>> out_edges;
  for (const Node* n : nodes) {
    int p = 0;
    auto add = [&](const Node* src) {
      if (!in_plan.contains(src)) return;
      ++p;
      out_edges[src].push_back(n);
    };
    for (int i = 0; i < n->num_inputs(); ++i) add(n->input(i).node);
    for (const Node* c : n->control_inputs()) add(c);
    pending[n] = p;
  }
  std::vector<const Node*> ready, order;
  for (const Node* n : nodes)
    if (pending[n] == 0) ready.push_back(n);
  std::sort(ready.begin(), ready.end(), [](auto* a, auto* b) { return a->id() > b->id(); });
  while (!ready.empty()) {
    const Node* n = ready.back();
    ready.pop_back();
    order.push_back(n);
    for (const Node* c : out_edges[n]) {
      if (--pending[c] == 0) ready.push_back(c);
    }
  }
  return order;  // the graph is acyclic by construction, so every node is here
}

}  // namespace

absl::StatusOr<std::unique_ptr<ExecutionPlan>> BuildPlan(const PlanRequest& req,
                                                         const PlanContext& ctx) {
  auto plan = std::make_unique<ExecutionPlan>();
  absl::flat_hash_set<const Node*> fed;
  for (const NodeOut& f : req.feeds) {
    if (f.node->op_def().outputs[f.index].is_ref) {
      return errors::InvalidArgument("cannot feed variable '", f.node->name(),
                                     "'; assign to it instead");
    }
    if (f.node->num_outputs() != 1) {
      return errors::InvalidArgument("cannot feed ", f.node->DebugName(),
                                     ": only single-output nodes can be fed");
    }
    fed.insert(f.node);
  }
  RILL_ASSIGN_OR_RETURN(std::vector<const Node*> pruned, Prune(req, fed));
  RILL_RETURN_IF_ERROR(PlaceNodes(*ctx.graph, *ctx.devices, *ctx.placement, pruned, ctx.placed));
  absl::flat_hash_set<const Node*> in_plan(pruned.begin(), pruned.end());
  std::vector<const Node*> order = Order(pruned, in_plan);

  // Slots: feeds first, then each node's outputs.
  absl::flat_hash_map<const Node*, int> first_slot, index;
  int slots = 0;
  for (const NodeOut& f : req.feeds) {
    if (!first_slot.contains(f.node)) first_slot[f.node] = slots++;
    plan->feed_slots.push_back(first_slot[f.node]);
    plan->feed_nodes.push_back(f.node);
  }
  plan->nodes.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const Node* n = order[i];
    index[n] = static_cast<int>(i);
    first_slot[n] = slots;
    slots += n->num_outputs();
  }
  plan->num_slots = slots;
  plan->slot_uses.assign(slots, 0);
  plan->slot_pinned.assign(slots, false);
  for (int s : plan->feed_slots) plan->slot_pinned[s] = true;
  // A variable's value is read when its consumer runs (TensorFlow's reference semantics:
  // a read ordered after an update by a control dependency sees the update).
  auto var_of = [&](const Node* n) -> Var* {
    if (!n->IsVariable() || fed.contains(n)) return nullptr;
    return ctx.resources->LookupOrCreateVar(n->name(), n->output_type(0), n->output_shape(0));
  };
  for (const NodeOut& f : req.fetches) {
    int s = first_slot.at(f.node) + (fed.contains(f.node) ? 0 : f.index);
    plan->fetch_slots.push_back(s);
    plan->fetch_producers.push_back(f.node);
    plan->fetch_vars.push_back(var_of(f.node));
    plan->slot_pinned[s] = true;
  }

  // Kernels, inputs, edges.
  for (size_t i = 0; i < order.size(); ++i) {
    const Node* n = order[i];
    PlanNode& pn = plan->nodes[i];
    pn.node = n;
    pn.device = ctx.placed->at(n).device;
    pn.first_output_slot = first_slot[n];
    RILL_ASSIGN_OR_RETURN(pn.kernel, CreateKernel(*n, pn.device, ctx.resources));
    pn.expensive = pn.kernel->IsExpensive();
    for (int k = 0; k < n->num_inputs(); ++k) {
      NodeOut in = n->input(k);
      int s = first_slot.at(in.node) + (fed.contains(in.node) ? 0 : in.index);
      pn.input_slots.push_back(s);
      pn.input_vars.push_back(n->input_is_ref(k) ? nullptr : var_of(in.node));
      pn.reads_variables |= pn.input_vars.back() != nullptr;
      ++plan->slot_uses[s];
      if (!fed.contains(in.node)) {
        plan->nodes[index[in.node]].consumers.push_back(static_cast<int>(i));
        ++pn.num_predecessors;
      }
    }
    for (const Node* c : n->control_inputs()) {
      if (!in_plan.contains(c)) continue;
      plan->nodes[index[c]].consumers.push_back(static_cast<int>(i));
      ++pn.num_predecessors;
    }
    if (pn.num_predecessors == 0) plan->roots.push_back(static_cast<int>(i));
  }
  for (PlanNode& pn : plan->nodes) {
    for (size_t k = 0; k < pn.input_slots.size() && k < 64; ++k) {
      int s = pn.input_slots[k];
      if (plan->slot_uses[s] == 1 && !plan->slot_pinned[s]) pn.forwardable |= uint64_t{1} << k;
    }
  }
  return plan;
}

}  // namespace rill
