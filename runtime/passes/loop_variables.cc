// Optimizer pass: loop variables that nothing needs leave their While.
//
// A While computes every loop variable on every iteration, whether or not anything reads
// the final value. The backward loop of a While's gradient (ops/control_flow_grad.cc) is
// the common case: it carries a gradient for every loop variable of the forward loop,
// while the step reads only those of weights; a gradient for a fed input, a counter or an
// integer is work the step throws away (in a recurrent net's step, the input's gradient is
// a scatter into a [steps, batch, features] tensor and a sum of it every iteration).
//
// A variable is needed when its final value is read (a data edge or a fetch), when the
// condition reads it, or when the body's value of a needed variable depends on it (data or
// control edges), to a fixed point. The others leave: the node is remade with the needed
// inputs and functions whose args and rets are the needed ones (the same function graphs:
// the function's own plan prunes what only the dropped rets needed). `_WhileRecord` keeps
// its variables: its log needs them all.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "rill/core/function_chain.h"
#include "rill/runtime/passes/passes.h"

namespace rill {
namespace {

std::vector<bool> NeededVariables(const Node& loop, const UseCounts& uses) {
  const Function& cond = *loop.attr<FunctionRef>("cond");
  const Function& body = *loop.attr<FunctionRef>("body");
  const int n = loop.num_outputs();
  std::vector<bool> needed = ArgsReaching(cond, {0}, /*through_control=*/true);
  for (int k = 0; k < n; ++k) {
    const NodeOut out{const_cast<Node*>(&loop), k};
    if (uses.data(out) > 0 || uses.fetched(out)) needed[k] = true;
  }
  for (bool grew = true; grew;) {
    std::vector<int> rets;
    for (int k = 0; k < n; ++k)
      if (needed[k]) rets.push_back(k);
    const std::vector<bool> reached = ArgsReaching(body, rets, /*through_control=*/true);
    grew = false;
    for (int k = 0; k < n; ++k) {
      if (reached[k] && !needed[k]) needed[k] = grew = true;
    }
  }
  return needed;
}

// `f` with only the args (and, unless `all_rets`, the rets) `keep` marks, over the same
// graph, which the new function keeps alive through `f`.
absl::StatusOr<FunctionRef> Keep(const FunctionRef& f, const std::vector<bool>& keep,
                                 bool all_rets) {
  std::vector<Node*> args;
  std::vector<NodeOut> rets;
  for (int k = 0; k < f->num_args(); ++k)
    if (keep[k]) args.push_back(f->args()[k]);
  for (int k = 0; k < f->num_rets(); ++k)
    if (all_rets || keep[k]) rets.push_back(f->rets()[k]);
  return Function::Create(absl::StrCat(f->name(), "_live"),
                          std::shared_ptr<const Graph>(f, &f->graph()), std::move(args),
                          std::move(rets));
}

}  // namespace

absl::StatusOr<PlanGraph> PruneLoopVariables(const PlanGraph& in) {
  const UseCounts uses(in);
  GraphRewriter rw(in, "loop variables");
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    if (old.type_string() != "While") return false;
    const std::vector<bool> needed = NeededVariables(old, uses);
    const int kept = static_cast<int>(std::count(needed.begin(), needed.end(), true));
    if (kept == old.num_outputs() || kept == 0) return false;
    RILL_ASSIGN_OR_RETURN(FunctionRef cond, Keep(old.attr<FunctionRef>("cond"), needed, true));
    RILL_ASSIGN_OR_RETURN(FunctionRef body, Keep(old.attr<FunctionRef>("body"), needed, false));
    NodeSpec spec = rw.SpecOf(old);
    std::vector<NodeOut> inputs;
    std::vector<DataType> types;
    for (int k = 0; k < old.num_inputs(); ++k) {
      if (!needed[k]) continue;
      inputs.push_back(spec.inputs[k]);
      types.push_back(old.input_type(k));
    }
    spec.inputs = std::move(inputs);
    spec.attrs["T"] = types;
    spec.attrs["cond"] = cond;
    spec.attrs["body"] = body;
    RILL_ASSIGN_OR_RETURN(Node * loop,
                          rw.Add(std::move(spec), rw.input().DeviceOf(&old), rw.NamesOf(old)));
    std::vector<NodeOut> outs;
    for (int k = 0, next = 0; k < old.num_outputs(); ++k) {
      outs.push_back(needed[k] ? NodeOut{loop, next++} : NodeOut{});
    }
    rw.Replace(old, std::move(outs), {loop});
    return true;
  });
}

}  // namespace rill
