// Pass 2b, copy: the plan's own graph.
//
// The optimizer rewrites graphs, and the user's Graph must never change (other plans,
// later nodes and the user's own reads depend on it), so each plan gets a copy of the
// nodes the prune pass kept, in the user's order, each with the device the placer chose
// for it (placement is a property of the user's node and persists for the Session). A fed
// node becomes a Placeholder of its name, dtype and static shape on the host: inside the
// plan its value is the caller's, and no rewrite may look through it to the node it
// stands for (constant folding would otherwise fold a fed constant to its graph value).
#include "rill/runtime/passes/passes.h"

namespace rill {

absl::StatusOr<PlanGraph> CopyForPlan(const std::vector<NodeOut>& feeds,
                                      const std::vector<NodeOut>& fetches,
                                      const std::vector<const Node*>& targets,
                                      const std::vector<const Node*>& pruned,
                                      const PlacementMap& placed, Device* host) {
  PlanGraph pg;
  pg.host = host;
  absl::flat_hash_map<const Node*, Node*> copy_of;
  auto add = [&](NodeSpec spec, Device* d) -> absl::StatusOr<Node*> {
    absl::StatusOr<Node*> n = pg.graph->AddNode(std::move(spec));
    if (!n.ok()) return errors::Annotate(n.status(), "copying the graph for a plan: ");
    pg.device[*n] = d;
    return *n;
  };
  for (const NodeOut& f : feeds) {
    if (copy_of.contains(f.node)) continue;
    NodeSpec spec;
    spec.name = f.node->name();
    spec.op = "Placeholder";
    spec.attrs = {{"dtype", f.node->output_type(0)}, {"shape", f.node->output_shape(0)}};
    RILL_ASSIGN_OR_RETURN(copy_of[f.node], add(std::move(spec), host));
  }
  std::vector<const Node*> order(pruned);
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
  for (const Node* n : order) {
    NodeSpec spec;
    spec.name = n->name();
    spec.op = n->type_string();
    spec.attrs = n->attrs();
    spec.device = n->requested_device();
    for (int i = 0; i < n->num_inputs(); ++i) {
      spec.inputs.push_back({copy_of.at(n->input(i).node), n->input(i).index});
    }
    for (const Node* c : n->control_inputs()) {
      if (auto it = copy_of.find(c); it != copy_of.end()) spec.control_inputs.push_back(it->second);
    }
    RILL_ASSIGN_OR_RETURN(copy_of[n], add(std::move(spec), placed.at(n).device));
  }
  for (const NodeOut& f : feeds) {
    pg.feeds.push_back({copy_of.at(f.node), 0});
    pg.fed.insert(pg.feeds.back().node);
  }
  for (const NodeOut& f : fetches) pg.fetches.push_back({copy_of.at(f.node), f.index});
  for (const Node* t : targets) pg.targets.push_back(copy_of.at(t));
  return pg;
}

}  // namespace rill
