// Pass 1, prune: the nodes a signature needs.
//
// From every fetch and target, walk data and control inputs backwards and keep what is
// reached; a fed node is not walked through (its value comes from the caller, so what
// computes it need not run). A Placeholder reached this way has no value in this run,
// which is the caller's error: it is reported here, before anything is placed or run,
// naming the placeholder, its dtype and shape, as TensorFlow reports it.
//
// The same pass runs again after the optimizer, on the plan's own graph, to drop what the
// rewrites left unused.
#include "rill/runtime/passes/passes.h"

namespace rill {

absl::StatusOr<std::vector<const Node*>> Prune(const std::vector<NodeOut>& fetches,
                                               const std::vector<const Node*>& targets,
                                               const absl::flat_hash_set<const Node*>& fed) {
  std::vector<const Node*> stack, out;
  absl::flat_hash_set<const Node*> seen;
  auto visit = [&](const Node* n) {
    if (!fed.contains(n) && seen.insert(n).second) stack.push_back(n);
  };
  for (const NodeOut& f : fetches) visit(f.node);
  for (const Node* t : targets) visit(t);
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

}  // namespace rill
