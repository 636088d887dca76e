#include "rill/runtime/step_graph.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "rill/runtime/arena.h"

namespace rill {
namespace {

// The parts of a split plan, in the order they run.
enum Part : char { kBefore = 0, kBody = 1, kAfter = 2 };

bool IsCopy(const PlanNode& pn) { return pn.node->type_string() == "_Copy"; }

// A stateful op whose state is only the variables it updates (Assign, the optimizers'
// Apply ops) replays as recorded, and so does a random op whose kernel reads its stream's
// counter from the device while recorded; any other would repeat its first run.
bool UpdatesOnlyVariables(const PlanNode& pn) {
  if (!pn.node->op_def().is_stateful || pn.node->IsVariable()) return true;
  // A random op's stream advances at every launch (DeviceBase::ReplayCounter).
  if (pn.kernel != nullptr && pn.kernel->AdvancesThroughReplayCounters()) return true;
  for (bool ref : pn.input_is_ref) {
    if (ref) return true;
  }
  return false;
}

// Plan nodes in an order that respects every edge (plan.nodes puts copies last).
std::vector<int> TopologicalOrder(const ExecutionPlan& plan) {
  std::vector<int> indegree(plan.nodes.size(), 0);
  for (const PlanNode& pn : plan.nodes) {
    for (int c : pn.consumers) ++indegree[c];
  }
  std::vector<int> order;
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    if (indegree[i] == 0) order.push_back(static_cast<int>(i));
  }
  for (size_t k = 0; k < order.size(); ++k) {
    for (int c : plan.nodes[order[k]].consumers) {
      if (--indegree[c] == 0) order.push_back(c);
    }
  }
  return order;
}

class Splitter {
 public:
  explicit Splitter(const ExecutionPlan& plan)
      : plan_(plan),
        part_(plan.nodes.size(), kBefore),
        producer_(plan.num_slots, -1),
        constant_(plan.num_slots, 0) {
    for (size_t i = 0; i < plan.nodes.size(); ++i) {
      const PlanNode& pn = plan.nodes[i];
      for (int o = 0; o < pn.node->num_outputs(); ++o) {
        producer_[pn.first_output_slot + o] = static_cast<int>(i);
      }
    }
    for (const auto& [slot, value] : plan.constants) constant_[slot] = 1;
    preds_.assign(plan.nodes.size(), {});
    for (size_t i = 0; i < plan.nodes.size(); ++i) {
      for (int c : plan.nodes[i].consumers) preds_[c].push_back(static_cast<int>(i));
    }
  }

  ReplayPlan Split() {
    ReplayPlan rp;
    if (plan_.has_async) return Refuse("it has an asynchronous node (a collective)");
    if (plan_.has_dead_values) return Refuse("a Switch decides in each run which nodes run");
    for (const PlanNode& pn : plan_.nodes) {
      if (!pn.device->IsHost() && pn.device->CanCapture()) rp.device = pn.device;
    }
    if (rp.device == nullptr) return Refuse("no node runs on a device that can record");
    const std::vector<int> order = TopologicalOrder(plan_);
    // Every node is placed, so that a plan with several blockers names them all at once
    // (a later one may follow from an earlier).
    std::vector<std::string> whys;
    for (int id : order) {
      std::string why = Place(id, &rp);
      if (!why.empty()) whys.push_back(std::move(why));
    }
    if (!whys.empty()) return Refuse(JoinReasons(whys));
    for (int id : order) {
      if (plan_.nodes[id].preset) continue;
      (part_[id] == kBefore ? rp.before : part_[id] == kBody ? rp.body : rp.after).push_back(id);
    }
    std::string why = Edges(&rp);
    if (!why.empty()) return Refuse(why);
    return rp;
  }

 private:
  // The first few reasons, then how many more.
  static std::string JoinReasons(const std::vector<std::string>& whys) {
    constexpr size_t kShown = 3;
    std::string joined;
    for (size_t i = 0; i < whys.size() && i < kShown; ++i) {
      absl::StrAppend(&joined, i == 0 ? "" : "; ", whys[i]);
    }
    if (whys.size() > kShown) absl::StrAppend(&joined, "; and ", whys.size() - kShown, " more");
    return joined;
  }

  static ReplayPlan Refuse(std::string why) {
    ReplayPlan refused;
    refused.why_not = std::move(why);
    return refused;
  }

  Part LatestInput(int id) const {
    Part latest = kBefore;
    for (int pred : preds_[id]) latest = std::max(latest, part_[pred]);
    return latest;
  }

  // Decides node `id`'s part from its inputs' parts; "" or why the plan does not qualify.
  std::string Place(int id, ReplayPlan* rp) {
    const PlanNode& pn = plan_.nodes[id];
    const Part latest = LatestInput(id);
    const std::string node = pn.node->DebugName();
    if (pn.preset) return "";
    if (pn.device->IsHost()) {
      // Never recorded, but run again when a recording fails: no side effects allowed (a
      // Variable node does nothing itself).
      if (pn.node->op_def().is_stateful && !pn.node->IsVariable()) {
        return node + " is stateful and runs on the host";
      }
      part_[id] = latest == kBefore ? kBefore : ReadsOnlyBodyMetadata(id) ? kBody : kAfter;
      return "";
    }
    if (pn.device != rp->device) return "its nodes run on two devices";
    if (IsCopy(pn)) {  // an upload from the host
      if (latest != kBefore) return BackFromTheHost(id);
      part_[id] = kBefore;
      return "";
    }
    if (latest == kAfter) return BackFromTheHost(id);
    part_[id] = kBody;
    if (!UpdatesOnlyVariables(pn)) return node + " is stateful (a replay would repeat its run)";
    for (size_t i = 0; i < pn.input_vars.size(); ++i) {
      Var* var = pn.input_vars[i];
      if (var != nullptr && pn.input_var_devices[i] != rp->device) {
        return node + " reads a variable of another device";
      }
      if (pn.input_is_ref[i]) {  // updated through the Variable node's slot
        const int from = producer_[pn.input_slots[i]];
        var = from >= 0 ? plan_.nodes[from].var : nullptr;
      }
      if (var != nullptr && std::find(rp->vars.begin(), rp->vars.end(), var) == rp->vars.end()) {
        rp->vars.push_back(var);
      }
    }
    if (pn.var != nullptr &&
        std::find(rp->vars.begin(), rp->vars.end(), pn.var) == rp->vars.end()) {
      rp->vars.push_back(pn.var);
    }
    return "";
  }

  // Whether host node `id` reads only constants and host values the body made (a shape on
  // the device, or what a host node computed from such values), all fixed for a memory
  // layout: it then runs inside the body, while it is recorded, and its values are part
  // of the recording as the device's shape nodes' are (placer pass 6 puts integer work on
  // such values on the host: a shape's slice before a reduction's gradient).
  bool ReadsOnlyBodyMetadata(int id) const {
    const PlanNode& pn = plan_.nodes[id];
    for (int pred : preds_[id]) {
      if (!plan_.nodes[pred].preset && part_[pred] != kBody) return false;
    }
    for (size_t i = 0; i < pn.input_slots.size(); ++i) {
      if (pn.input_vars[i] != nullptr) return false;
      const int from = producer_[pn.input_slots[i]];
      if (constant_[pn.input_slots[i]]) continue;
      if (from < 0 || !MakesHostValues(plan_.nodes[from])) return false;
    }
    return true;
  }

  static bool MakesHostValues(const PlanNode& pn) {
    return pn.device->IsHost() || pn.outputs_on_host;
  }

  // Why node `id` (on the device) cannot be recorded: an input of it was made on the host
  // from a value of the step, so the step would wait for the device in its middle. Names
  // the first host node on that path.
  std::string BackFromTheHost(int id) const {
    const PlanNode& pn = plan_.nodes[id];
    std::string via = "a host node";
    for (int pred : preds_[id]) {
      if (part_[pred] != kAfter) continue;
      via = absl::StrCat(plan_.nodes[pred].node->DebugName(), " on ",
                         plan_.nodes[pred].device->name());
      break;
    }
    return absl::StrCat("a value goes to the host and back inside the step (", via, ", before ",
                        pn.node->DebugName(), ")");
  }

  // The values crossing from one part to the next, and the host values the body reads.
  std::string Edges(ReplayPlan* rp) {
    for (int id : rp->body) {
      const PlanNode& pn = plan_.nodes[id];
      for (size_t i = 0; i < pn.input_slots.size(); ++i) {
        if (pn.input_vars[i] != nullptr) continue;
        const int slot = pn.input_slots[i];
        const int from = producer_[slot];
        if (constant_[slot] || (from >= 0 && part_[from] == kBody)) continue;
        // A kernel that only checks the value on the host and reads it on the device has
        // it checked and uploaded by the executor before each launch.
        if ((from < 0 || plan_.nodes[from].device->IsHost()) &&
            pn.kernel->UploadsCheckedHostInput(static_cast<int>(i))) {
          AddOnce(&rp->checked_host_slots, slot);
          continue;
        }
        if (from < 0) return pn.node->DebugName() + " reads a feed on the host";
        if (plan_.nodes[from].device->IsHost()) {
          return absl::StrCat(pn.node->DebugName(), " reads on the host a value made in the run (",
                              plan_.nodes[from].node->DebugName(), ")");
        }
        AddOnce(&rp->in_slots, slot);
      }
    }
    for (int id : rp->after) {
      for (int slot : plan_.nodes[id].input_slots) {
        const int from = producer_[slot];
        if (from < 0 || part_[from] != kBody || plan_.nodes[from].preset) continue;
        if (MakesHostValues(plan_.nodes[from])) {
          return plan_.nodes[from].node->DebugName() + " makes a host value read after it";
        }
        AddOnce(&rp->out_slots, slot);
      }
    }
    for (int slot : plan_.fetch_slots) {
      const int from = producer_[slot];
      if (from >= 0 && part_[from] == kBody && !plan_.nodes[from].preset) {
        return plan_.nodes[from].node->DebugName() + " is fetched on the device";
      }
    }
    return "";
  }

  static void AddOnce(std::vector<int>* v, int x) {
    if (std::find(v->begin(), v->end(), x) == v->end()) v->push_back(x);
  }

  const ExecutionPlan& plan_;
  std::vector<Part> part_;
  std::vector<int> producer_;   // per slot: the node that makes it, or -1 (a feed)
  std::vector<char> constant_;  // per slot: a preset constant's value
  std::vector<std::vector<int>> preds_;
};

}  // namespace

ReplayPlan AnalyzeForReplay(const ExecutionPlan& plan) { return Splitter(plan).Split(); }

StepGraph::~StepGraph() {
  // The pool's blocks go back before the graph (so the pool can be freed with it); the
  // graph waits for its launches before the feeds' buffers and the arena go.
  outputs.clear();
  host_inputs.clear();
  graph.reset();
  inputs.clear();
  if (arena != nullptr) arena->Unref();
}

absl::StatusOr<Tensor> StepGraph::RecordHostInput(int input, const Tensor& host,
                                                  HostInputCheck check) {
  if (recording_node == nullptr || device == nullptr) {
    return errors::Internal("a checked host input recorded outside a recording");
  }
  const size_t i = static_cast<size_t>(input);
  if (input < 0 || i >= recording_node->input_slots.size() ||
      recording_node->input_vars[i] != nullptr) {  // a variable is read, not a slot
    return errors::FailedPrecondition("input ", input, " of ", recording_node->node->DebugName(),
                                      " cannot be uploaded before each replay");
  }
  return Keep(input, host, std::move(check));
}

absl::StatusOr<Tensor> StepGraph::RecordFixedHostValue(const Tensor& host) {
  if (recording_node == nullptr || device == nullptr) {
    return errors::Internal("a host value recorded outside a recording");
  }
  return Keep(-1, host, nullptr);
}

absl::StatusOr<Tensor> StepGraph::Keep(int input, const Tensor& host, HostInputCheck check) {
  // Held by the recording, so its pool never hands the memory to other recorded work.
  Tensor buffer(device->allocator(), host.dtype(), host.shape());
  if (!buffer.IsInitialized()) {
    return errors::ResourceExhausted("no memory on ", device->name(), " for ", host.TotalBytes(),
                                     " bytes of a host value of ",
                                     recording_node->node->DebugName(), " in a recorded step");
  }
  host_inputs.push_back({recording_node, input, std::move(check), buffer, host});
  return buffer;
}

bool StepGraph::VariablesUnchanged(const ReplayPlan& rp) const {
  for (size_t i = 0; i < rp.vars.size(); ++i) {
    Var* v = rp.vars[i];
    std::lock_guard<std::mutex> lock(v->mu());
    const Tensor& t = v->value();
    if (!t.IsInitialized() || t.data() != var_data[i] || t.shape() != var_shapes[i]) return false;
  }
  return true;
}

void StepGraph::NoteVariables(const ReplayPlan& rp) {
  var_data.clear();
  var_shapes.clear();
  for (Var* v : rp.vars) {
    std::lock_guard<std::mutex> lock(v->mu());
    const Tensor& t = v->value();
    var_data.push_back(t.IsInitialized() ? t.data() : nullptr);
    var_shapes.push_back(t.IsInitialized() ? t.shape() : TensorShape());
  }
}

}  // namespace rill
