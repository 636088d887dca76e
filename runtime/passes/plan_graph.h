// The graph a plan is built from: a copy of the part of the user's graph that one
// signature needs, which the optimizer rewrites (the user's Graph never changes), and the
// tool every rewriting pass uses to make the next copy.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "rill/core/graph.h"
#include "rill/runtime/device.h"

namespace rill {

struct PlanGraph {
  std::unique_ptr<Graph> graph = std::make_unique<Graph>();
  // Per feed of the request: the Placeholder that stands for the fed value (named as the
  // fed node), so that no pass can see through a feed to what it replaces.
  std::vector<NodeOut> feeds;
  std::vector<NodeOut> fetches;  // per fetch of the request
  std::vector<const Node*> targets;
  absl::flat_hash_set<const Node*> fed;  // the feeds' Placeholders: not run, not rewritten
  absl::flat_hash_map<const Node*, Device*> device;
  Device* host = nullptr;  // where feeds arrive and fetches leave
  // A node that stands for other nodes (a fusion, a folded constant, a merged duplicate):
  // the names of the user's nodes it replaced, for the plan's picture and trace.
  absl::flat_hash_map<const Node*, std::vector<std::string>> replaces;

  Device* DeviceOf(const Node* n) const { return device.at(n); }
};

// The readers of each output (one entry per data edge) and the control consumers of each
// node, over the nodes reachable from the fetches and targets; fetched outputs are marked.
class UseCounts {
 public:
  explicit UseCounts(const PlanGraph& g);
  const std::vector<const Node*>& consumers(NodeOut out) const;
  int data(NodeOut out) const;
  int control(const Node* n) const;
  bool fetched(NodeOut out) const;
  // Only one data edge reads `out`, nothing else needs it: a rewrite may absorb it.
  bool SoleUse(NodeOut out) const {
    return data(out) == 1 && control(out.node) == 0 && !fetched(out);
  }

 private:
  absl::flat_hash_map<std::pair<const Node*, int>, std::vector<const Node*>> consumers_;
  absl::flat_hash_map<const Node*, int> control_;
  absl::flat_hash_set<std::pair<const Node*, int>> fetched_;
};

// Builds the next PlanGraph from `in`: visits every node of `in` in id order (a
// topological order, since inputs precede their consumers), lets the pass decide for it,
// and copies with inputs mapped whatever the pass leaves alone.
class GraphRewriter {
 public:
  // Returns true when it decided for the node (emitted or mapped it); false to copy it.
  using Visit = std::function<absl::StatusOr<bool>(const Node& old, GraphRewriter& rw)>;

  GraphRewriter(const PlanGraph& in, std::string pass) : in_(in), pass_(std::move(pass)) {}
  absl::StatusOr<PlanGraph> Run(const Visit& visit);

  const PlanGraph& input() const { return in_; }
  // Where an output of `in` is in the new graph; {nullptr, 0} when not (yet) there.
  NodeOut Map(NodeOut old) const;
  bool Mapped(NodeOut old) const { return Map(old).node != nullptr; }
  // `old`'s spec with inputs and control inputs mapped (all must be mapped).
  NodeSpec SpecOf(const Node& old) const;
  // Adds a node to the new graph on `device`, standing for `replaces` (names of user
  // nodes; empty for a plain copy).
  absl::StatusOr<Node*> Add(NodeSpec spec, Device* device, std::vector<std::string> replaces);
  // `old` copied with its inputs mapped (what Run does for a node the pass leaves alone).
  absl::StatusOr<Node*> Copy(const Node& old);
  // `old`'s outputs are `outputs` in the new graph; its control edges go to `control`.
  void Replace(const Node& old, std::vector<NodeOut> outputs, std::vector<Node*> control);
  // The user's nodes `old` stands for: what it replaced, or its own name.
  std::vector<std::string> NamesOf(const Node& old) const;
  // `base`, or `base_1`, `base_2`, ... : a name neither graph has.
  std::string FreeName(const std::string& base) const;

 private:
  std::vector<Node*> MapControl(const Node* old) const;

  const PlanGraph& in_;
  std::string pass_;
  PlanGraph out_;
  absl::flat_hash_map<const Node*, std::vector<NodeOut>> outputs_;
  absl::flat_hash_map<const Node*, std::vector<Node*>> control_;
};

// Appends an exact description of an attribute value to *key: equal text, equal value
// (floats and tensors by their bits, so -0 and NaNs stay distinct). False, for a tensor
// larger than max_tensor_bytes or of a dtype without bytes: too costly or not comparable.
bool AppendAttrKey(const AttrValue& v, std::string* key, int64_t max_tensor_bytes = 64 << 10);

// Every node the fetches and targets reach, and the feeds' Placeholders.
absl::flat_hash_set<const Node*> Reachable(const PlanGraph& g);

// True when `op` has a kernel on `device_type` for a node with these attrs (the test the
// kernel registry makes for a node, before the node exists).
bool HasKernelFor(const std::string& op, const AttrMap& attrs, const std::string& device_type);

}  // namespace rill
