#include "rill/runtime/plan.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "rill/runtime/copy.h"

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
      return errors::InvalidArgument(
          "You must feed a value for placeholder tensor '", n->name(), "' (Placeholder)",
          " with dtype ", DataTypeString(n->output_type(0)), " and shape ", shape.DebugString());
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
    if (f.node->num_outputs() != 1 || f.index != 0) {
      return errors::InvalidArgument("cannot feed output ", f.index, " of ", f.node->DebugName(),
                                     ": only output 0 of single-output nodes can be fed");
    }
    if (f.node->op_def().outputs[0].is_ref) {
      return errors::InvalidArgument("cannot feed variable '", f.node->name(),
                                     "'; assign to it instead");
    }
    fed.insert(f.node);
  }
  RILL_ASSIGN_OR_RETURN(std::vector<const Node*> pruned, Prune(req, fed));
  RILL_RETURN_IF_ERROR(PlaceNodes(*ctx.graph, *ctx.devices, *ctx.placement, pruned, ctx.placed));
  absl::flat_hash_set<const Node*> in_plan(pruned.begin(), pruned.end());
  std::vector<const Node*> order = Order(pruned, in_plan);

  // Slots: feeds first, then each node's outputs, then copies as they are made.
  absl::flat_hash_map<const Node*, int> first_slot, index;
  int slots = 0;
  for (const NodeOut& f : req.feeds) {
    if (!first_slot.contains(f.node)) first_slot[f.node] = slots++;
    plan->feed_slots.push_back(first_slot[f.node]);
    plan->feed_nodes.push_back(f.node);
  }
  size_t total_inputs = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const Node* n = order[i];
    index[n] = static_cast<int>(i);
    first_slot[n] = slots;
    slots += n->num_outputs();
    total_inputs += n->num_inputs();
  }
  // Copies are appended; reserve so references into `nodes` stay valid.
  plan->nodes.reserve(order.size() + total_inputs + req.fetches.size());
  plan->nodes.resize(order.size());
  plan->slot_uses.assign(slots, 0);
  plan->slot_pinned.assign(slots, false);
  for (int s : plan->feed_slots) plan->slot_pinned[s] = true;

  Device* host = ctx.devices->cpu();
  auto device_of = [&](const Node* n) { return ctx.placed->at(n).device; };
  // A variable's value is read when its consumer runs (TensorFlow's reference semantics:
  // a read ordered after an update by a control dependency sees the update).
  auto var_of = [&](const Node* n) -> Var* {
    if (!n->IsVariable() || fed.contains(n)) return nullptr;
    return ctx.resources->LookupOrCreateVar(n->name(), n->output_type(0), n->output_shape(0));
  };

  // Whether `n`'s kernel makes its outputs in host memory although placed on a device.
  auto outputs_on_host = [&](const Node* n) {
    Device* d = device_of(n);
    if (d->IsHost()) return false;
    const KernelDef* def = KernelRegistry::Global()->Find(*n, d->device_type());
    return def != nullptr && def->host_memory_outputs;
  };

  // The slot that holds value `in` on device `dst`, inserting a _Copy node the first time
  // a value is needed on a device other than its producer's; sets *producer to the plan
  // node that fills that slot (-1 for a feed on the host).
  absl::flat_hash_map<std::pair<int, const Device*>, int> copies;
  auto route = [&](NodeOut in, Device* dst, int* producer) -> absl::StatusOr<int> {
    const bool is_fed = fed.contains(in.node);
    const int slot = first_slot.at(in.node) + (is_fed ? 0 : in.index);
    const int src_index = is_fed ? -1 : index.at(in.node);
    Device* src = is_fed || outputs_on_host(in.node) ? host : device_of(in.node);
    if (src == dst) {
      *producer = src_index;
      return slot;
    }
    auto key = std::make_pair(slot, static_cast<const Device*>(dst));
    if (auto it = copies.find(key); it != copies.end()) {
      *producer = it->second;
      return plan->nodes[it->second].first_output_slot;
    }
    RILL_ASSIGN_OR_RETURN(
        Node * node,
        AddCopyNode(&plan->copy_nodes, absl::StrCat(in.node->name(), ":", in.index),
                    in.node->output_type(in.index), in.node->output_shape(in.index), *src, *dst));
    const int ci = static_cast<int>(plan->nodes.size());
    PlanNode& cn = plan->nodes.emplace_back();
    cn.node = node;
    cn.device = dst;
    cn.kernel = MakeCopyKernel(*node, src, dst, ctx.resources);
    cn.input_slots = {slot};
    cn.input_vars = {nullptr};
    cn.input_var_devices = {nullptr};
    cn.input_is_ref = {false};
    cn.first_output_slot = slots++;
    plan->slot_uses.push_back(0);
    plan->slot_pinned.push_back(false);
    ++plan->slot_uses[slot];
    if (src_index >= 0) {
      plan->nodes[src_index].consumers.push_back(ci);
      cn.num_predecessors = 1;
    }
    copies[key] = ci;
    *producer = ci;
    return cn.first_output_slot;
  };

  // Kernels, inputs, edges.
  for (size_t i = 0; i < order.size(); ++i) {
    const Node* n = order[i];
    PlanNode& pn = plan->nodes[i];
    pn.node = n;
    pn.device = device_of(n);
    pn.first_output_slot = first_slot[n];
    RILL_ASSIGN_OR_RETURN(pn.kernel,
                          CreateKernel(*n, pn.device, ctx.resources, ctx.kernel_options));
    // A kernel on a GPU only queues work on the stream: handing it to a pool thread (a
    // wake-up of tens of microseconds) would cost more than it saves, so it runs inline.
    pn.expensive = pn.kernel->IsExpensive() && pn.device->IsHost();
    pn.outputs_on_host = outputs_on_host(n);
    const KernelDef* def = KernelRegistry::Global()->Find(*n, pn.device->device_type());
    auto on_host = [&](int k) { return def != nullptr && def->ReadsOnHost(k, n->num_inputs()); };
    for (int k = 0; k < n->num_inputs(); ++k) {
      NodeOut in = n->input(k);
      Var* var = n->input_is_ref(k) ? nullptr : var_of(in.node);
      pn.input_is_ref.push_back(n->input_is_ref(k));
      pn.input_vars.push_back(var);
      pn.input_var_devices.push_back(var ? device_of(in.node) : nullptr);
      pn.reads_variables |= var != nullptr;
      int producer = -1, slot;
      if (var != nullptr || n->input_is_ref(k)) {
        // Read (or updated) in place: no copy, only the ordering edge.
        slot = first_slot.at(in.node) + in.index;
        producer = index.at(in.node);
      } else {
        RILL_ASSIGN_OR_RETURN(slot, route(in, on_host(k) ? host : pn.device, &producer));
      }
      pn.input_slots.push_back(slot);
      ++plan->slot_uses[slot];
      if (producer >= 0) {
        plan->nodes[producer].consumers.push_back(static_cast<int>(i));
        ++pn.num_predecessors;
      }
    }
    for (const Node* c : n->control_inputs()) {
      if (!in_plan.contains(c)) continue;
      plan->nodes[index[c]].consumers.push_back(static_cast<int>(i));
      ++pn.num_predecessors;
    }
  }

  // Fetches leave on the host. A copy made for fetches alone may finish by the step's
  // Sync (the executor reads fetches after it) instead of making the host wait mid-step.
  for (const NodeOut& f : req.fetches) {
    Var* var = var_of(f.node);
    int slot = first_slot.at(f.node) + (fed.contains(f.node) ? 0 : f.index);
    if (var == nullptr) {
      int producer;
      const size_t before = plan->nodes.size();
      RILL_ASSIGN_OR_RETURN(slot, route(f, host, &producer));
      if (producer >= 0 && static_cast<size_t>(producer) >= before) {  // a new _Copy to the host
        PlanNode& cn = plan->nodes[producer];
        cn.kernel = MakeCopyKernel(*cn.node, device_of(f.node), host, ctx.resources, true);
      }
    }
    plan->fetch_slots.push_back(slot);
    plan->fetch_producers.push_back(f.node);
    plan->fetch_vars.push_back(var);
    plan->fetch_var_devices.push_back(var ? device_of(f.node) : nullptr);
    plan->slot_pinned[slot] = true;
  }
  plan->num_slots = slots;
  plan->compute_ns = std::vector<std::atomic<int64_t>>(plan->nodes.size());
  for (auto& c : plan->compute_ns) c.store(-1, std::memory_order_relaxed);
  plan->host = host;
  for (const PlanNode& pn : plan->nodes) {
    if (!pn.device->IsHost() && std::find(plan->sync_devices.begin(), plan->sync_devices.end(),
                                          pn.device) == plan->sync_devices.end()) {
      plan->sync_devices.push_back(pn.device);
    }
  }
  for (size_t i = 0; i < plan->nodes.size(); ++i) {
    if (plan->nodes[i].num_predecessors == 0) plan->roots.push_back(static_cast<int>(i));
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
