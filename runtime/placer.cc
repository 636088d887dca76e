#include "rill/runtime/placer.h"

#include <cstdio>

#include "absl/strings/str_join.h"

namespace rill {
namespace {

struct UnionFind {
  absl::flat_hash_map<const Node*, const Node*> parent;
  const Node* Find(const Node* n) {
    auto it = parent.find(n);
    if (it == parent.end()) {
      parent[n] = n;
      return n;
    }
    if (it->second == n) return n;
    const Node* root = Find(it->second);
    parent[n] = root;
    return root;
  }
  void Union(const Node* a, const Node* b) { parent[Find(a)] = Find(b); }
};

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

// Pass 6. A node left on an accelerator by pass 4 whose values are integers, whose inputs
// are all on the host (fed, on the CPU, or made there by a kernel with host-memory
// outputs) and whose every reader reads them on the host (a kernel's host-memory input:
// labels a loss checks, a shape, an axis) runs on the host instead: on the accelerator it
// would cost an upload, a launch and a download the host waits for, inside the step
// (TensorFlow's pin-to-host optimization keeps small integer work there likewise).
// Chains (a labels Cast, then a Reshape and its shape constant) move together: the set is
// the largest one closed under the rule, found by removing nodes that break it until none
// does. A node without readers (only fetched) stays where it is.
void PinHostValues(const DeviceSet& devices, const absl::flat_hash_set<const Node*>& fed,
                   const std::vector<const Node*>& nodes, const std::vector<const Node*>& defaulted,
                   PlacementMap* placed) {
  Device* host = devices.cpu();
  absl::flat_hash_map<const Node*, std::vector<std::pair<const Node*, int>>> readers;
  for (const Node* n : nodes) {
    for (int i = 0; i < n->num_inputs(); ++i) readers[n->input(i).node].push_back({n, i});
  }
  absl::flat_hash_set<const Node*> pinned;
  for (const Node* n : defaulted) {
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
    (*placed)[n] = Placement{host,
                             "pinned to the host: integer values computed from host values and "
                             "read on the host"};
  }
}

}  // namespace

absl::Status PlaceNodes(const Graph& graph, const DeviceSet& devices,
                        const PlacementOptions& options, const std::vector<const Node*>& nodes,
                        const absl::flat_hash_set<const Node*>& fed, PlacementMap* placed) {
  // Pass 1: colocation groups.
  UnionFind uf;
  std::vector<const Node*> todo;
  for (const Node* n : nodes) {
    if (placed->contains(n)) continue;
    todo.push_back(n);
    uf.Find(n);
    for (int i = 0; i < n->num_inputs(); ++i) {
      if (n->input_is_ref(i)) uf.Union(n, n->input(i).node);
    }
    if (!n->colocate_with().empty()) {
      if (const Node* other = graph.FindNode(n->colocate_with())) uf.Union(n, other);
    }
  }
  absl::flat_hash_map<const Node*, std::vector<const Node*>> groups;
  std::vector<const Node*> defaulted;  // groups of one that pass 4 placed
  for (const auto& [n, unused] : uf.parent) groups[uf.Find(n)].push_back(n);

  for (auto& [root, members] : groups) {
    bool needs_placing = false;
    for (const Node* m : members) needs_placing |= !placed->contains(m);
    if (!needs_placing) continue;

    // Pass 2: candidates where every member has a kernel; an earlier decision binds.
    std::vector<Device*> candidates;
    Device* fixed = nullptr;
    for (const Node* m : members) {
      if (auto it = placed->find(m); it != placed->end()) fixed = it->second.device;
    }
    for (const auto& d : devices.devices()) {
      bool all = true;
      for (const Node* m : members) all = all && HasKernel(*m, *d);
      if (all && (fixed == nullptr || fixed == d.get())) candidates.push_back(d.get());
    }
    const Node* first = members.front();
    if (candidates.empty()) {
      for (const Node* m : members) {
        if (DevicesWithKernel(*m, devices) == "none") {
          return errors::NotFound(m->DebugName(), " with dtype ", DtypeOf(*m),
                                  ": no registered kernel on any device");
        }
      }
      return errors::InvalidArgument("cannot colocate ", first->DebugName(), " with ",
                                     members.size() - 1,
                                     " other node(s): no device has a kernel for all of them");
    }

    // Pass 3: explicit requests.
    Device* chosen = nullptr;
    std::string reason = "default: highest-priority device with a kernel";
    for (const Node* m : members) {
      if (m->requested_device().empty()) continue;
      DeviceName spec = *DeviceName::Parse(m->requested_device());  // checked at AddNode
      for (Device* d : candidates) {
        if (spec.Matches(d->parsed_name())) {
          chosen = d;
          reason = absl::StrCat("requested ", m->requested_device());
          break;
        }
      }
      if (chosen != nullptr) break;
      // Pass 5: the request cannot be met.
      std::string why = absl::StrCat(m->DebugName(), " with dtype ", DtypeOf(*m),
                                     " was requested on '", m->requested_device(),
                                     "', which this session cannot satisfy; devices with a "
                                     "kernel for it: ",
                                     DevicesWithKernel(*m, devices));
      if (!options.allow_soft_placement) {
        return errors::InvalidArgument(why, ". Enable soft placement to fall back.");
      }
      reason = absl::StrCat("soft placement: ", why);
      break;
    }
    // Pass 4: the default.
    if (chosen == nullptr) {
      chosen = candidates.front();
      if (members.size() == 1 && first->requested_device().empty()) defaulted.push_back(first);
    }
    for (const Node* m : members) {
      if (placed->contains(m)) continue;
      (*placed)[m] = Placement{
          chosen, m == first || members.size() == 1
                      ? reason
                      : absl::StrCat(reason, " (colocated group of '", first->name(), "')")};
    }
  }

  PinHostValues(devices, fed, nodes, defaulted, placed);

  if (options.log_device_placement) {
    for (const Node* n : todo) {
      std::fprintf(stderr, "%s (%s): %s\n", n->name().c_str(), n->type_string().c_str(),
                   placed->at(n).device->name().c_str());
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
