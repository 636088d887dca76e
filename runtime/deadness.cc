// Dead values, TensorFlow 1's rule for Switch and Merge, in plans that hold a Switch (the
// executor keeps no flags for others). A Switch's untaken output is dead; a node reading a
// dead value, by a data or a control edge, does not run and its outputs are dead; a Merge
// runs when any data input is live. The plan is acyclic, so a Merge waits for all its
// inputs (the dead ones arrive as soon as their producers are skipped) and takes the
// lowest-numbered live one.
#include "absl/strings/str_cat.h"
#include "rill/runtime/executor_state.h"

namespace rill {

bool InputsDead(const Executor::State& s, const PlanNode& pn) {
  const char* dead = s.dead_slots.get();
  if (pn.is_merge) {
    for (int slot : pn.input_slots) {
      if (!dead[slot]) return false;
    }
    return true;
  }
  for (int slot : pn.input_slots) {
    if (dead[slot]) return true;
  }
  for (int c : pn.control_inputs) {
    if (s.dead_nodes[c]) return true;
  }
  return false;
}

void MarkDead(Executor::State* s, const PlanNode& pn) {
  s->dead_nodes[&pn - s->plan.nodes.data()] = 1;
  for (int o = 0; o < pn.node->num_outputs(); ++o) s->dead_slots[pn.first_output_slot + o] = 1;
}

void MarkUnsetOutputsDead(Executor::State* s, const PlanNode& pn) {
  for (int o = 0; o < pn.node->num_outputs(); ++o) {
    const int slot = pn.first_output_slot + o;
    if (!s->slots[slot].IsInitialized()) s->dead_slots[slot] = 1;
  }
}

absl::Status CheckFetchLive(const Executor::State& s, int fetch) {
  const ExecutionPlan& plan = s.plan;
  if (s.dead_slots == nullptr || plan.fetch_vars[fetch] != nullptr ||
      !s.dead_slots[plan.fetch_slots[fetch]]) {
    return absl::OkStatus();
  }
  return errors::InvalidArgument(
      "fetch ", fetch, " (", plan.fetch_producers[fetch]->DebugName(),
      ") is dead in this run: a Switch before it sent its value down the other branch; "
      "fetch a Merge of the branches (TensorFlow: \"Retval does not have value\")");
}

}  // namespace rill
