// Optimizer pass: a While and the _WhileRecord its gradient added run one loop.
//
// The gradient of a While (ops/control_flow_grad.cc) cannot change the forward node, so it
// adds a _WhileRecord that runs the same loop again on the same inputs and also logs the
// values the backward loop needs. A training step that needs both (the loss and the
// update) would run the loop twice; the record's first outputs are the While's outputs,
// so the plan drops the While and reads those instead. That is right because the gradient
// refused functions with stateful ops: both loops compute the same values.
//
// Twins: same inputs in the new graph, the same cond function and the same body (or the
// record's, over the same graph, also returning the values it logs), same device. The record is
// copied early, when its While is visited: its inputs are the While's, so they are already in the
// new graph; its control inputs must be too.
#include "absl/strings/str_cat.h"
#include "rill/core/function.h"
#include "rill/runtime/passes/passes.h"

namespace rill {
namespace {

// The record runs the loop's condition and body: the same condition, and the same body or
// one over the same graph returning more (the values it logs).
bool SameFunctions(const Node& loop, const Node& record) {
  if (loop.attr<FunctionRef>("cond") != record.attr<FunctionRef>("cond")) return false;
  const Function& body = *loop.attr<FunctionRef>("body");
  const Function& logging = *record.attr<FunctionRef>("body");
  if (&body.graph() != &logging.graph() || body.args() != logging.args() ||
      logging.num_rets() < body.num_rets()) {
    return false;
  }
  for (int k = 0; k < body.num_rets(); ++k) {
    if (body.rets()[k].node != logging.rets()[k].node ||
        body.rets()[k].index != logging.rets()[k].index) {
      return false;
    }
  }
  return true;
}

// The _WhileRecord of `loop` in the input graph whose copy can be made now, else nullptr.
const Node* TwinOf(const Node& loop, const std::vector<const Node*>& records,
                   const GraphRewriter& rw) {
  const PlanGraph& in = rw.input();
  for (const Node* r : records) {
    if (r->num_inputs() != loop.num_inputs() || !SameFunctions(loop, *r) ||
        in.DeviceOf(r) != in.DeviceOf(&loop)) {
      continue;
    }
    bool same = true;
    for (int i = 0; i < loop.num_inputs() && same; ++i) {
      const NodeOut a = rw.Map(loop.input(i)), b = rw.Map(r->input(i));
      same = a.node != nullptr && a.node == b.node && a.index == b.index;
    }
    for (const Node* c : r->control_inputs()) same = same && rw.Mapped({const_cast<Node*>(c), 0});
    if (same) return r;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<PlanGraph> MergeLoopTwins(const PlanGraph& in) {
  std::vector<const Node*> records;
  const absl::flat_hash_set<const Node*> live = Reachable(in);
  for (int id = 0; id < in.graph->num_nodes(); ++id) {
    const Node* n = in.graph->node(id);
    if (n->type_string() == "_WhileRecord" && live.contains(n) && !in.fed.contains(n)) {
      records.push_back(n);
    }
  }
  absl::flat_hash_map<const Node*, Node*> copied;  // record -> its early copy
  GraphRewriter rw(in, "loop twins");
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    if (auto it = copied.find(&old); it != copied.end()) {
      std::vector<NodeOut> outs;
      for (int k = 0; k < it->second->num_outputs(); ++k) outs.push_back({it->second, k});
      rw.Replace(old, std::move(outs), {it->second});
      return true;
    }
    if (old.type_string() != "While") return false;
    const Node* twin = TwinOf(old, records, rw);
    if (records.empty() || twin == nullptr || copied.contains(twin)) return false;
    std::vector<std::string> names = rw.NamesOf(*twin);
    for (std::string& n : rw.NamesOf(old)) names.push_back(std::move(n));
    RILL_ASSIGN_OR_RETURN(Node * rec,
                          rw.Add(rw.SpecOf(*twin), rw.input().DeviceOf(twin), std::move(names)));
    copied[twin] = rec;
    std::vector<NodeOut> outs;
    for (int k = 0; k < old.num_outputs(); ++k) outs.push_back({rec, k});
    rw.Replace(old, std::move(outs), {rec});
    return true;
  });
}

}  // namespace rill
