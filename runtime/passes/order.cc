// Pass 5a, order: a topological order of the plan's nodes.
//
// Kahn's algorithm over data and control edges inside the plan; among nodes ready at the
// same time the one with the lowest id goes first, so the order is stable from build to
// build and follows the order the graph was written in (which keeps a trace readable).
// The graph is acyclic by construction (inputs exist before their consumers), so every
// node is ordered.
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "rill/runtime/passes/passes.h"

namespace rill {

std::vector<const Node*> Order(const std::vector<const Node*>& nodes) {
  const absl::flat_hash_set<const Node*> in_plan(nodes.begin(), nodes.end());
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
  return order;
}

}  // namespace rill
