#include "rill/runtime/placer.h"

#include <cstdio>

#include "absl/strings/str_join.h"

namespace rill {
namespace {

std::string DtypeOf(const Node& n) {
  for (const char* attr : {"T", "dtype"}) {
    auto it = n.attrs().find(attr);
    if (it == n.attrs().end()) continue;
    // A list of types (the T of IdentityN, a function's or an ONNX import's inputs) is
    // named in full; anything else under these names is no dtype to report.
    if (const auto* t = std::get_if<DataType>(&it->second)) return DataTypeString(*t);
    if (const auto* ts = std::get_if<std::vector<DataType>>(&it->second)) {
      return absl::StrCat(
          "[",
          absl::StrJoin(*ts, ", ",
                        [](std::string* out, DataType t) { out->append(DataTypeString(t)); }),
          "]");
    }
  }
  return "-";
}

bool HasKernel(const Node& n, const Device& d) {
  return KernelRegistry::Global()->Find(n, d.device_type()) != nullptr;
}

std::string DevicesWithKernel(const Node& n, const DeviceSet& devices) {
  std::vector<std::string> names;
  for (const auto& d : devices.devices())
    if (HasKernel(n, *d)) names.push_back(d->name());
  return names.empty() ? "none" : absl::StrJoin(names, ", ");
}

bool IntegerValues(const Node& n) {
  if (n.num_outputs() == 0) return false;
  for (int o = 0; o < n.num_outputs(); ++o) {
    const DataType t = n.output_type(o);
    if (!DataTypeIsInteger(t) && t != DT_BOOL) return false;
  }
  return true;
}

const KernelDef* DefOn(const Node& n, const PlacementMap& placed) {
  return KernelRegistry::Global()->Find(n, placed.at(&n).device->device_type());
}

// Pass 6. A node that is a group of its own, left on an accelerator by passes 3 and 4, whose
// values are integers, whose inputs
// are all on the host (fed, on the CPU, or made there by a kernel with host-memory
// outputs) and whose every reader reads them on the host (a kernel's host-memory input:
// labels a loss checks, a shape, an axis) runs on the host instead: on the accelerator it
// would cost an upload, a launch and a download the host waits for, inside the step
// (TensorFlow's pin-to-host optimization keeps small integer work there likewise, and so
// overrides a request for the accelerator too: a scope's device request reaches the shape
// arithmetic of the gradients built under it).
// Chains (a labels Cast, then a Reshape and its shape constant) move together: the set is
// the largest one closed under the rule, found by removing nodes that break it until none
// does. A node without readers (only fetched) stays where it is.
void PinHostValues(const DeviceSet& devices, const absl::flat_hash_set<const Node*>& fed,
                   const std::vector<const Node*>& nodes, const std::vector<const Node*>& movable,
                   PlacementMap* placed) {
  Device* host = devices.cpu();
  absl::flat_hash_map<const Node*, std::vector<std::pair<const Node*, int>>> readers;
  for (const Node* n : nodes) {
    for (int i = 0; i < n->num_inputs(); ++i) readers[n->input(i).node].push_back({n, i});
  }
  absl::flat_hash_set<const Node*> pinned;
  for (const Node* n : movable) {
    if (host != nullptr && !placed->at(n).device->IsHost() && !fed.contains(n) &&
        !n->op_def().is_stateful && IntegerValues(*n) && readers.contains(n) &&
        HasKernel(*n, *host)) {
      pinned.insert(n);
    }
  }
  auto on_host = [&](const Node* p) {
    if (fed.contains(p) || pinned.contains(p) || placed->at(p).device->IsHost()) return true;
    const KernelDef* def = DefOn(*p, *placed);
    return def != nullptr && def->host_memory_outputs;
  };
  auto read_on_host = [&](const Node* reader, int i) {
    if (pinned.contains(reader) || placed->at(reader).device->IsHost()) return true;
    const KernelDef* def = DefOn(*reader, *placed);
    return def != nullptr && def->ReadsOnHost(i, reader->num_inputs());
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = pinned.begin(); it != pinned.end();) {
      const Node* n = *it;
      bool keep = true;
      for (int i = 0; keep && i < n->num_inputs(); ++i) keep = on_host(n->input(i).node);
      for (const auto& [reader, i] : readers.at(n)) keep = keep && read_on_host(reader, i);
      if (keep) {
        ++it;
      } else {
        pinned.erase(it++);
        changed = true;
      }
    }
  }
  for (const Node* n : pinned) {
    std::string reason =
        "pinned to the host: integer values computed from host values and read on the host";
    if (!n->requested_device().empty()) {
      absl::StrAppend(&reason, " (requested '", n->requested_device(), "')");
    }
    (*placed)[n] = Placement{host, std::move(reason)};
  }
}

// Pass 2: the devices where every member of `group` has a kernel, keeping an earlier
// decision for any of them. Members outside this run narrow the choice only where some
// device still suits the run's own (a node that no run reaches cannot fail this one).
std::vector<Device*> Candidates(const std::vector<const Node*>& group,
                                const std::vector<const Node*>& in_run, const DeviceSet& devices,
                                const PlacementMap& placed) {
  Device* fixed = nullptr;
  for (const Node* m : group) {
    if (auto it = placed.find(m); it != placed.end()) fixed = it->second.device;
  }
  for (const std::vector<const Node*>* members : {&group, &in_run}) {
    std::vector<Device*> candidates;
    for (const auto& d : devices.devices()) {
      bool all = true;
      for (const Node* m : *members) all = all && HasKernel(*m, *d);
      if (all && (fixed == nullptr || fixed == d.get())) candidates.push_back(d.get());
    }
    if (!candidates.empty()) return candidates;
  }
  return {};
}

// No device suits the group: a member without any kernel, or members (`group`, the whole
// graph's; `in_run`, this run's) whose kernels share no device, or the one an earlier run
// chose.
absl::Status NoCandidate(const std::vector<const Node*>& in_run,
                         const std::vector<const Node*>& group, const DeviceSet& devices,
                         const PlacementMap& placed) {
  for (const Node* m : in_run) {
    if (DevicesWithKernel(*m, devices) == "none") {
      return errors::NotFound(m->DebugName(), " with dtype ", DtypeOf(*m),
                              ": no registered kernel on any device");
    }
  }
  // The group's placed member to name: its variable when placed, else any.
  const Node* shown = nullptr;
  for (const Node* m : group) {
    if (placed.contains(m) && (shown == nullptr || m->IsVariable())) shown = m;
  }
  const std::string bound =
      shown == nullptr ? ""
                       : absl::StrCat("; ", shown->DebugName(), " is on ",
                                      placed.at(shown).device->name(), " since an earlier run");
  return errors::InvalidArgument("cannot colocate ", in_run.front()->DebugName(), " with ",
                                 group.size() - 1,
                                 " other node(s): no device has a kernel for all of them", bound);
}

// Passes 3 and 5: the first member's request that a candidate meets; nullptr when none
// requests anything or (with soft placement) a request cannot be met, `reason` saying so.
absl::StatusOr<Device*> Requested(const std::vector<const Node*>& members,
                                  const std::vector<Device*>& candidates, const DeviceSet& devices,
                                  const PlacementOptions& options, std::string* reason) {
  for (const Node* m : members) {
    if (m->requested_device().empty()) continue;
    DeviceName spec = *DeviceName::Parse(m->requested_device());  // checked at AddNode
    for (Device* d : candidates) {
      if (spec.Matches(d->parsed_name())) {
        *reason = absl::StrCat("requested ", m->requested_device());
        return d;
      }
    }
    std::string why = absl::StrCat(m->DebugName(), " with dtype ", DtypeOf(*m),
                                   " was requested on '", m->requested_device(),
                                   "', which this session cannot satisfy; devices with a "
                                   "kernel for it: ",
                                   DevicesWithKernel(*m, devices));
    if (!options.allow_soft_placement) {
      return errors::InvalidArgument(why, ". Enable soft placement to fall back.");
    }
    *reason = absl::StrCat("soft placement: ", why);
    return nullptr;
  }
  return nullptr;
}

}  // namespace

// Pass 1 over the whole graph, not only the run's nodes: a variable placed by the run that
// initializes it must suit the ops that take it by reference in later runs (an int32
// ScatterNdUpdate has no GPU kernel, its Assign does), as TensorFlow places the whole graph
// at once.
void ColocationGroups::Update(const Graph& graph) {
  int& read = read_[&graph];
  const int n = graph.num_nodes();
  for (; read < n; ++read) {
    const Node* node = graph.node(read);
    for (int i = 0; i < node->num_inputs(); ++i) {
      if (node->input_is_ref(i)) Union(node, node->input(i).node);
    }
    if (!node->colocate_with().empty()) {
      if (const Node* other = graph.FindNode(node->colocate_with())) Union(node, other);
    }
  }
}

const Node* ColocationGroups::Root(const Node* n) const {
  for (auto it = parent_.find(n); it != parent_.end(); it = parent_.find(n)) n = it->second;
  return n;
}

std::vector<const Node*> ColocationGroups::Members(const Node* root) const {
  auto it = members_.find(root);
  return it == members_.end() ? std::vector<const Node*>{root} : it->second;
}

// The larger group's root stays the root, so chains of roots stay short and each node
// moves to a bigger group at most log(n) times.
void ColocationGroups::Union(const Node* a, const Node* b) {
  a = Root(a);
  b = Root(b);
  if (a == b) return;
  auto size = [&](const Node* root) {
    auto it = members_.find(root);
    return it == members_.end() ? size_t{1} : it->second.size();
  };
  if (size(a) < size(b)) std::swap(a, b);
  std::vector<const Node*>& big = members_[a];
  if (big.empty()) big.push_back(a);
  if (auto it = members_.find(b); it != members_.end()) {
    big.insert(big.end(), it->second.begin(), it->second.end());
    members_.erase(it);
  } else {
    big.push_back(b);
  }
  parent_[b] = a;
}

absl::Status PlaceNodes(const Graph& graph, const DeviceSet& devices,
                        const PlacementOptions& options, const std::vector<const Node*>& nodes,
                        const absl::flat_hash_set<const Node*>& fed, ColocationGroups* graph_groups,
                        PlacementMap* placed) {
  graph_groups->Update(graph);
  // The run's members of each group, in the run's order.
  std::vector<const Node*> todo, roots;
  absl::flat_hash_map<const Node*, std::vector<const Node*>> groups;
  for (const Node* n : nodes) {
    if (placed->contains(n)) continue;
    todo.push_back(n);
    const Node* root = graph_groups->Root(n);
    if (!groups.contains(root)) roots.push_back(root);
    groups[root].push_back(n);
  }
  std::vector<const Node*> movable;  // groups of one that pass 6 may move to the host
  for (const Node* root : roots) {
    const std::vector<const Node*>& members = groups.at(root);
    const std::vector<const Node*> whole = graph_groups->Members(root);
    const std::vector<Device*> candidates = Candidates(whole, members, devices, *placed);
    if (candidates.empty()) return NoCandidate(members, whole, devices, *placed);
    std::string reason = "default: highest-priority device with a kernel";
    RILL_ASSIGN_OR_RETURN(Device * chosen, Requested(whole, candidates, devices, options, &reason));
    if (chosen == nullptr) chosen = candidates.front();  // pass 4
    const Node* first = members.front();
    if (whole.size() == 1) movable.push_back(first);
    for (const Node* m : members) {
      (*placed)[m] = Placement{
          chosen, m == first || members.size() == 1
                      ? reason
                      : absl::StrCat(reason, " (colocated group of '", first->name(), "')")};
    }
  }

  PinHostValues(devices, fed, nodes, movable, placed);

  if (options.log_device_placement) {
    for (const Node* n : todo) {
      std::fprintf(stderr, "%s (%s): %s\n", n->name().c_str(), n->type_string().c_str(),
                   placed->at(n).device->name().c_str());
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
