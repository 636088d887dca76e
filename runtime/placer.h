// The placer assigns each node a device, as passes (see docs/design.md):
//   1. group nodes that must share a device: a variable with every op that takes it by
//      reference (Assign, AssignAdd, optimizer updates), and ColocateWith requests; the
//      groups are the whole graph's, so a run that reaches only some members places them
//      where the others have kernels too;
//   2. a group's candidates are the devices where every member has a kernel;
//   3. an explicit request ("/GPU:0", "/device:GPU:*", "/cpu:0") picks among them;
//   4. otherwise the highest-priority candidate: GPU, then CPU;
//   5. an unmeetable request falls back to (4) under soft placement and says why; with
//      soft placement off it is an error naming node, op, dtype, request and the devices
//      that do have a kernel;
//   6. integer values computed from host values and read only on the host (labels a loss
//      kernel checks, shapes) are computed on the host, not on the accelerator passes 3 and
//      4 chose (as TensorFlow's pin-to-host optimization, even when requested there).
// Decisions persist for the Session: a node, once placed, keeps its device.
#pragma once

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "rill/runtime/device.h"

namespace rill {

struct PlacementOptions {
  bool allow_soft_placement = true;
  bool log_device_placement = false;
};

struct Placement {
  Device* device = nullptr;
  std::string reason;  // why this device: "requested", "default", "soft placement: ..."
};

using PlacementMap = absl::flat_hash_map<const Node*, Placement>;

// Pass 1's groups over whole graphs, kept beside a PlacementMap as the graphs grow (a
// graph only gains nodes): each Update reads the nodes added since the last, so placing a
// run costs its own nodes, not the graph's. Only grouped nodes are stored.
class ColocationGroups {
 public:
  void Update(const Graph& graph);
  const Node* Root(const Node* n) const;
  // The members of `root`'s group (`root` alone when it has none).
  std::vector<const Node*> Members(const Node* root) const;

 private:
  void Union(const Node* a, const Node* b);
  absl::flat_hash_map<const Node*, const Node*> parent_;                // non-roots
  absl::flat_hash_map<const Node*, std::vector<const Node*>> members_;  // roots of 2+
  absl::flat_hash_map<const Graph*, int> read_;                         // nodes read
};

// `fed`: the nodes whose values the run feeds (host values, wherever the node is placed).
// `groups` and `placed` persist for the Session.
absl::Status PlaceNodes(const Graph& graph, const DeviceSet& devices,
                        const PlacementOptions& options, const std::vector<const Node*>& nodes,
                        const absl::flat_hash_set<const Node*>& fed, ColocationGroups* groups,
                        PlacementMap* placed);

}  // namespace rill
