#include "rill/core/function_chain.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "rill/core/status.h"

namespace rill {

absl::Status CopyNode(const Node& n, Graph& into, std::map<const Node*, std::vector<NodeOut>>& map,
                      const std::string& prefix) {
  auto out = [&](const Node* in, int index) -> absl::StatusOr<NodeOut> {
    auto it = map.find(in);
    if (it == map.end()) {
      return errors::Internal("copying ", n.DebugName(), ": its input ", in->DebugName(),
                              " was not copied before it");
    }
    return it->second[index];
  };
  NodeSpec spec;
  const std::string name = absl::StrCat(prefix, n.name());
  spec.name = name;
  for (int k = 1; into.HasNode(spec.name); ++k) spec.name = absl::StrCat(name, "_", k);
  spec.op = n.type_string();
  spec.attrs = n.attrs();
  spec.device = n.requested_device();
  if (const Node* c = n.graph()->FindNode(n.colocate_with()); c != nullptr && map.contains(c)) {
    spec.colocate_with = map.at(c)[0].node->name();
  }
  for (int i = 0; i < n.num_inputs(); ++i) {
    RILL_ASSIGN_OR_RETURN(NodeOut in, out(n.input(i).node, n.input(i).index));
    spec.inputs.push_back(in);
  }
  for (const Node* c : n.control_inputs()) {
    RILL_ASSIGN_OR_RETURN(NodeOut in, out(c, 0));
    spec.control_inputs.push_back(in.node);
  }
  RILL_ASSIGN_OR_RETURN(Node * m, into.AddNode(std::move(spec)));
  std::vector<NodeOut>& outs = map[&n];
  for (int k = 0; k < m->num_outputs(); ++k) outs.push_back({m, k});
  return absl::OkStatus();
}

namespace {

// Copies every node of `from` into `into` in id order (inputs come first), with inputs
// mapped through `map`; nodes already in `map` (bound args) are not copied. Names get
// `prefix` in front; one already in `into` gets a suffix.
absl::Status CopyNodes(const Graph& from, Graph& into,
                       std::map<const Node*, std::vector<NodeOut>>& map,
                       const std::string& prefix = "") {
  for (int id = 0; id < from.num_nodes(); ++id) {
    const Node* n = from.node(id);
    if (!map.contains(n)) RILL_RETURN_IF_ERROR(CopyNode(*n, into, map, prefix));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FunctionRef> ChainFunctions(const Function& first, const Function& second) {
  const std::string name = absl::StrCat(first.name(), "_then_", second.name());
  if (second.num_args() > first.num_rets()) {
    return errors::InvalidArgument("function '", name, "': ", FunctionDebugName(second), " takes ",
                                   second.num_args(), " args, ", FunctionDebugName(first),
                                   " returns ", first.num_rets());
  }
  for (int i = 0; i < second.num_args(); ++i) {
    if (second.arg_type(i) != first.ret_type(i)) {
      return errors::InvalidArgument(
          "function '", name, "': arg ", i, " of ", FunctionDebugName(second), " is ",
          DataTypeString(second.arg_type(i)), ", not ", DataTypeString(first.ret_type(i)));
    }
  }
  auto graph = std::make_shared<Graph>();
  std::map<const Node*, std::vector<NodeOut>> map;
  RILL_RETURN_IF_ERROR(CopyNodes(first.graph(), *graph, map));
  std::vector<NodeOut> rets;
  for (const NodeOut& r : first.rets()) rets.push_back(map.at(r.node)[r.index]);
  // second's args are bound to first's rets: its Placeholders are not copied.
  for (int i = 0; i < second.num_args(); ++i) map[second.args()[i]] = {rets[i]};
  RILL_RETURN_IF_ERROR(CopyNodes(second.graph(), *graph, map));
  for (const NodeOut& r : second.rets()) rets.push_back(map.at(r.node)[r.index]);
  std::vector<Node*> args;
  for (Node* a : first.args()) args.push_back(map.at(a)[0].node);
  return Function::Create(name, std::move(graph), std::move(args), std::move(rets));
}

absl::StatusOr<InlinedFunction> InlineFunction(const Function& f, const std::vector<NodeOut>& args,
                                               Graph& into, const std::string& prefix) {
  if (static_cast<int>(args.size()) != f.num_args()) {
    return errors::InvalidArgument(FunctionDebugName(f), " takes ", f.num_args(),
                                   " args; inlining it was given ", args.size());
  }
  InlinedFunction inlined;
  std::map<const Node*, std::vector<NodeOut>>& map = inlined.values;
  for (int i = 0; i < f.num_args(); ++i) {
    const DataType dt = args[i].node->output_type(args[i].index);
    if (dt != f.arg_type(i)) {
      return errors::InvalidArgument(FunctionDebugName(f), " takes arg ", i, " of dtype ",
                                     DataTypeString(f.arg_type(i)), "; inlining it was given ",
                                     DataTypeString(dt));
    }
    map[f.args()[i]] = {args[i]};
  }
  RILL_RETURN_IF_ERROR(CopyNodes(f.graph(), into, map, prefix.empty() ? "" : prefix + "/"));
  for (const NodeOut& r : f.rets()) inlined.rets.push_back(map.at(r.node)[r.index]);
  return inlined;
}

std::vector<bool> ArgsReaching(const Function& f, const std::vector<int>& rets,
                               bool through_control) {
  std::vector<bool> seen(f.graph().num_nodes(), false);
  std::vector<const Node*> stack;
  for (int k : rets) stack.push_back(f.rets()[k].node);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (seen[n->id()]) continue;
    seen[n->id()] = true;
    for (int i = 0; i < n->num_inputs(); ++i) stack.push_back(n->input(i).node);
    if (through_control)
      stack.insert(stack.end(), n->control_inputs().begin(), n->control_inputs().end());
  }
  std::vector<bool> reaching;
  for (const Node* a : f.args()) reaching.push_back(seen[a->id()]);
  return reaching;
}

}  // namespace rill
