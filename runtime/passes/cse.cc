// Optimizer pass: common-subexpression elimination.
//
// Two nodes that run the same op with the same attributes on the same inputs, on the same
// device and after the same control inputs, compute the same values; the plan keeps the
// first and sends the second's readers to it. Graphs built by composing functions repeat
// work this way (two layers asking for the same Shape, a gradient recomputing a forward
// product, the same constant made twice).
//
// Never merged: stateful ops (two reads of a random op are two draws; two Assigns are two
// updates), Placeholders (two inputs of one dtype are still two inputs), nodes taking a
// variable by reference, and constants larger than 64 KiB (comparing them would cost more
// than it saves; AppendAttrKey refuses them).
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "rill/runtime/passes/passes.h"

namespace rill {
namespace {

// The identity of `old`'s computation in the new graph, or "" when it must not be merged.
std::string KeyOf(const Node& old, const GraphRewriter& rw) {
  if (old.op_def().is_stateful || old.IsPlaceholder() || old.num_outputs() == 0) return "";
  std::string key = absl::StrCat(old.type_string(), "|", rw.input().DeviceOf(&old)->name(), "|");
  for (int i = 0; i < old.num_inputs(); ++i) {
    if (old.input_is_ref(i)) return "";
    NodeOut in = rw.Map(old.input(i));
    absl::StrAppend(&key, in.node->id(), ":", in.index, ",");
  }
  NodeSpec spec = rw.SpecOf(old);
  std::vector<int> control;
  for (const Node* c : spec.control_inputs) control.push_back(c->id());
  std::sort(control.begin(), control.end());
  for (int c : control) absl::StrAppend(&key, "^", c, ",");
  for (const auto& [name, value] : old.attrs()) {
    absl::StrAppend(&key, "|", name, "=");
    if (!AppendAttrKey(value, &key)) return "";
  }
  return key;
}

}  // namespace

absl::StatusOr<PlanGraph> EliminateCommonSubexpressions(const PlanGraph& in) {
  GraphRewriter rw(in, "common-subexpression elimination");
  absl::flat_hash_map<std::string, Node*> seen;
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    const std::string key = KeyOf(old, rw);
    if (key.empty()) return false;
    if (auto it = seen.find(key); it != seen.end()) {
      std::vector<NodeOut> outs;
      for (int k = 0; k < it->second->num_outputs(); ++k) outs.push_back({it->second, k});
      rw.Replace(old, std::move(outs), {it->second});
      return true;
    }
    RILL_ASSIGN_OR_RETURN(seen[key], rw.Copy(old));
    return true;
  });
}

}  // namespace rill
