// BuildPlan: the passes of runtime/passes/ in order, then pass 4 (partition: value slots
// and the _Copy nodes between devices) and pass 5b (instantiate: each node's kernel from
// one registry lookup), which write the ExecutionPlan itself.
#include "rill/runtime/plan.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "rill/core/async_kernel.h"
#include "rill/runtime/copy.h"
#include "rill/runtime/passes/passes.h"

namespace rill {
namespace {

absl::Status CheckFeeds(const PlanRequest& req, absl::flat_hash_set<const Node*>* fed) {
  for (const NodeOut& f : req.feeds) {
    if (f.node->num_outputs() != 1 || f.index != 0) {
      return errors::InvalidArgument("cannot feed output ", f.index, " of ", f.node->DebugName(),
                                     ": only output 0 of single-output nodes can be fed");
    }
    if (f.node->op_def().outputs[0].is_ref) {
      return errors::InvalidArgument("cannot feed variable '", f.node->name(),
                                     "'; assign to it instead");
    }
    fed->insert(f.node);
  }
  return absl::OkStatus();
}

// Pass 4, partition, and pass 5b, instantiate. Every value gets a slot: feeds first, then
// each node's outputs, then copies as they are made. An input produced on another device
// than its reader's (or read on the host by a kernel that wants it there) is routed
// through one _Copy node per (value, device), shared by all readers on that device;
// fetched values leave on the host. A variable's value is not a slot: it is read when its
// reader runs (TensorFlow's reference semantics: a read ordered after an update by a
// control dependency sees the update).
class Partitioner {
 public:
  Partitioner(ExecutionPlan* plan, const PlanGraph& pg, const PlanContext& ctx)
      : plan_(plan), pg_(pg), ctx_(ctx), host_(pg.host) {}

  absl::Status Run(const std::vector<const Node*>& order) {
    AssignSlots(order);
    for (size_t i = 0; i < order.size(); ++i) {
      RILL_RETURN_IF_ERROR(AddNode(static_cast<int>(i), order[i]));
    }
    RILL_RETURN_IF_ERROR(AddFetches());
    ChainCollectives(plan_);
    Finish();
    return absl::OkStatus();
  }

 private:
  Device* DeviceOf(const Node* n) const { return pg_.DeviceOf(n); }
  bool OutputsOnHost(const Node* n) const {
    auto it = def_.find(n);
    return it != def_.end() && it->second != nullptr && it->second->host_memory_outputs &&
           !DeviceOf(n)->IsHost();
  }
  Var* VarOf(const Node* n) const {
    if (!n->IsVariable() || pg_.fed.contains(n)) return nullptr;
    return ctx_.resources->LookupOrCreateVar(n->name(), n->output_type(0), n->output_shape(0));
  }

  void AssignSlots(const std::vector<const Node*>& order) {
    for (const NodeOut& f : pg_.feeds) {
      if (!first_slot_.contains(f.node)) first_slot_[f.node] = slots_++;
      plan_->feed_slots.push_back(first_slot_[f.node]);
    }
    size_t total_inputs = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      const Node* n = order[i];
      index_[n] = static_cast<int>(i);
      first_slot_[n] = slots_;
      slots_ += n->num_outputs();
      total_inputs += n->num_inputs();
      def_[n] = KernelRegistry::Global()->Find(*n, DeviceOf(n)->device_type());
    }
    // Copies are appended; reserve so references into `nodes` stay valid.
    plan_->nodes.reserve(order.size() + total_inputs + pg_.fetches.size());
    plan_->nodes.resize(order.size());
    plan_->slot_uses.assign(slots_, 0);
    plan_->slot_pinned.assign(slots_, false);
    for (int s : plan_->feed_slots) plan_->slot_pinned[s] = true;
  }

  // The slot that holds value `in` on device `dst`, inserting a _Copy node the first time
  // a value is needed on a device other than its producer's; sets *producer to the plan
  // node that fills that slot (-1 for a feed on the host).
  absl::StatusOr<int> Route(NodeOut in, Device* dst, int* producer) {
    const bool is_fed = pg_.fed.contains(in.node);
    const int slot = first_slot_.at(in.node) + (is_fed ? 0 : in.index);
    int src_index = is_fed ? -1 : index_.at(in.node);
    if (src_index >= 0 && plan_->nodes[src_index].preset) src_index = -1;  // there at the start
    Device* src = is_fed || OutputsOnHost(in.node) ? host_ : DeviceOf(in.node);
    if (src == dst) {
      *producer = src_index;
      return slot;
    }
    auto key = std::make_pair(slot, static_cast<const Device*>(dst));
    if (auto it = copies_.find(key); it != copies_.end()) {
      *producer = it->second;
      return plan_->nodes[it->second].first_output_slot;
    }
    RILL_ASSIGN_OR_RETURN(
        Node * node,
        AddCopyNode(&plan_->copy_nodes, absl::StrCat(in.node->name(), ":", in.index),
                    in.node->output_type(in.index), in.node->output_shape(in.index), *src, *dst));
    const int ci = static_cast<int>(plan_->nodes.size());
    PlanNode& cn = plan_->nodes.emplace_back();
    cn.node = node;
    cn.device = dst;
    cn.kernel = MakeCopyKernel(*node, src, dst, ctx_.resources);
    cn.input_slots = {slot};
    cn.input_vars = {nullptr};
    cn.input_var_devices = {nullptr};
    cn.input_is_ref = {false};
    cn.first_output_slot = slots_++;
    plan_->slot_uses.push_back(0);
    plan_->slot_pinned.push_back(false);
    ++plan_->slot_uses[slot];
    if (src_index >= 0) {
      plan_->nodes[src_index].consumers.push_back(ci);
      cn.num_predecessors = 1;
    }
    copies_[key] = ci;
    *producer = ci;
    return cn.first_output_slot;
  }

  absl::Status Instantiate(PlanNode& pn, const Node* n) {
    const KernelDef* def = def_.at(n);
    if (def == nullptr) {  // CreateKernel's NotFound names node, dtype and devices
      return CreateKernel(*n, pn.device, ctx_.resources, ctx_.kernel_options).status();
    }
    RILL_ASSIGN_OR_RETURN(pn.kernel,
                          CreateKernel(*def, *n, pn.device, ctx_.resources, ctx_.kernel_options));
    // A kernel on a GPU only queues work on the stream: handing it to a pool thread (a
    // wake-up of tens of microseconds) would cost more than it saves, so it runs inline.
    pn.expensive = pn.kernel->IsExpensive() && pn.device->IsHost();
    pn.async = dynamic_cast<AsyncOpKernel*>(pn.kernel.get()) != nullptr;
    plan_->has_async |= pn.async;
    pn.outputs_on_host = OutputsOnHost(n);
    return absl::OkStatus();
  }

  absl::Status AddNode(int i, const Node* n) {
    PlanNode& pn = plan_->nodes[i];
    pn.node = n;
    pn.device = DeviceOf(n);
    pn.first_output_slot = first_slot_[n];
    RILL_RETURN_IF_ERROR(Instantiate(pn, n));
    pn.var = VarOf(n);
    if (n->IsConstant() && pn.device->IsHost() && n->control_inputs().empty() &&
        n->constant_value() != nullptr) {
      pn.preset = true;  // what its kernel would do each run (ConstOp shares the value)
      plan_->constants.push_back({pn.first_output_slot, *n->constant_value()});
      plan_->slot_pinned[pn.first_output_slot] = true;
      return absl::OkStatus();
    }
    const KernelDef* def = def_.at(n);
    for (int k = 0; k < n->num_inputs(); ++k) {
      NodeOut in = n->input(k);
      Var* var = n->input_is_ref(k) ? nullptr : VarOf(in.node);
      pn.input_is_ref.push_back(n->input_is_ref(k));
      pn.input_vars.push_back(var);
      pn.input_var_devices.push_back(var ? DeviceOf(in.node) : nullptr);
      pn.reads_variables |= var != nullptr;
      int producer = -1, slot;
      if (var != nullptr || n->input_is_ref(k)) {
        // Read (or updated) in place: no copy, only the ordering edge.
        slot = first_slot_.at(in.node) + in.index;
        producer = index_.at(in.node);
      } else {
        Device* dst = def->ReadsOnHost(k, n->num_inputs()) ? host_ : pn.device;
        RILL_ASSIGN_OR_RETURN(slot, Route(in, dst, &producer));
      }
      pn.input_slots.push_back(slot);
      ++plan_->slot_uses[slot];
      if (producer >= 0 && !plan_->nodes[producer].preset) {
        plan_->nodes[producer].consumers.push_back(i);
        ++pn.num_predecessors;
      }
    }
    for (const Node* c : n->control_inputs()) {
      auto it = index_.find(c);
      // A fed or preset node: its value is there before the run.
      if (it == index_.end() || plan_->nodes[it->second].preset) continue;
      plan_->nodes[it->second].consumers.push_back(i);
      pn.control_inputs.push_back(it->second);
      ++pn.num_predecessors;
    }
    pn.kills_outputs = n->type_string() == "Switch";
    pn.is_merge = n->type_string() == "Merge";
    plan_->has_dead_values |= pn.kills_outputs;
    return absl::OkStatus();
  }

  // Fetches leave on the host. A copy made for fetches alone may finish by the step's
  // Sync (the executor reads fetches after it) instead of making the host wait mid-step.
  absl::Status AddFetches() {
    for (const NodeOut& f : pg_.fetches) {
      Var* var = VarOf(f.node);
      int slot = first_slot_.at(f.node) + (pg_.fed.contains(f.node) ? 0 : f.index);
      if (var == nullptr) {
        int producer;
        const size_t before = plan_->nodes.size();
        RILL_ASSIGN_OR_RETURN(slot, Route(f, host_, &producer));
        if (producer >= 0 && static_cast<size_t>(producer) >= before) {  // a new _Copy
          PlanNode& cn = plan_->nodes[producer];
          cn.kernel = MakeCopyKernel(*cn.node, DeviceOf(f.node), host_, ctx_.resources, true);
        }
      }
      plan_->fetch_slots.push_back(slot);
      plan_->fetch_producers.push_back(f.node);
      plan_->fetch_vars.push_back(var);
      plan_->fetch_var_devices.push_back(var ? DeviceOf(f.node) : nullptr);
      plan_->slot_pinned[slot] = true;
    }
    return absl::OkStatus();
  }

  void Finish() {
    plan_->num_slots = slots_;
    plan_->host = host_;
    for (const PlanNode& pn : plan_->nodes) {
      if (!pn.device->IsHost() && std::find(plan_->sync_devices.begin(), plan_->sync_devices.end(),
                                            pn.device) == plan_->sync_devices.end()) {
        plan_->sync_devices.push_back(pn.device);
      }
    }
    for (size_t i = 0; i < plan_->nodes.size(); ++i) {
      const PlanNode& pn = plan_->nodes[i];
      if (pn.num_predecessors == 0 && !pn.preset) plan_->roots.push_back(static_cast<int>(i));
    }
    for (PlanNode& pn : plan_->nodes) {
      for (size_t k = 0; k < pn.input_slots.size() && k < 64; ++k) {
        int s = pn.input_slots[k];
        if (plan_->slot_uses[s] == 1 && !plan_->slot_pinned[s]) pn.forwardable |= uint64_t{1} << k;
      }
      for (int o = 0; o < pn.node->num_outputs() && o < 64; ++o) {
        const int s = pn.first_output_slot + o;
        if (plan_->slot_uses[s] == 0 && !plan_->slot_pinned[s])
          pn.unused_outputs |= uint64_t{1} << o;
      }
    }
  }

  ExecutionPlan* plan_;
  const PlanGraph& pg_;
  const PlanContext& ctx_;
  Device* host_;
  int slots_ = 0;
  absl::flat_hash_map<const Node*, int> first_slot_, index_;
  absl::flat_hash_map<const Node*, const KernelDef*> def_;
  absl::flat_hash_map<std::pair<int, const Device*>, int> copies_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<ExecutionPlan>> BuildPlan(const PlanRequest& req,
                                                         const PlanContext& ctx) {
  absl::flat_hash_set<const Node*> fed;
  RILL_RETURN_IF_ERROR(CheckFeeds(req, &fed));
  RILL_ASSIGN_OR_RETURN(std::vector<const Node*> pruned, Prune(req.fetches, req.targets, fed));
  RILL_RETURN_IF_ERROR(
      PlaceNodes(*ctx.graph, *ctx.devices, *ctx.placement, pruned, fed, ctx.groups, ctx.placed));
  RILL_ASSIGN_OR_RETURN(PlanGraph pg, CopyForPlan(req.feeds, req.fetches, req.targets, pruned,
                                                  *ctx.placed, ctx.devices->cpu()));
  if (ctx.optimize.any()) {
    RILL_ASSIGN_OR_RETURN(pg, Optimize(std::move(pg), ctx.optimize));
  }
  RILL_ASSIGN_OR_RETURN(std::vector<const Node*> live, Prune(pg.fetches, pg.targets, pg.fed));

  auto plan = std::make_unique<ExecutionPlan>();
  for (const NodeOut& f : req.feeds) plan->feed_nodes.push_back(f.node);
  Partitioner partition(plan.get(), pg, ctx);
  RILL_RETURN_IF_ERROR(partition.Run(Order(live)));
  plan->replaces = std::move(pg.replaces);
  plan->graph = std::move(pg.graph);
  return plan;
}

}  // namespace rill
