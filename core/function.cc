#include "rill/core/function.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "rill/core/op_registry.h"
#include "rill/core/status.h"

namespace rill {
namespace {

// Walks back from the rets: every Placeholder reached must be an arg (nothing else could
// feed it), and no variable may be read (a function holds no state of its own).
absl::Status CheckReachable(const std::string& where, const std::vector<Node*>& args,
                            const std::vector<NodeOut>& rets) {
  const std::set<const Node*> arg_set(args.begin(), args.end());
  std::set<const Node*> seen;
  std::vector<const Node*> stack;
  for (const NodeOut& r : rets) stack.push_back(r.node);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    if (n->IsPlaceholder() && !arg_set.contains(n)) {
      return errors::InvalidArgument(where, "the return values depend on ", n->DebugName(),
                                     ", which is not an argument of the function");
    }
    if (n->IsVariable()) {
      return errors::InvalidArgument(where, n->DebugName(),
                                     " is a variable; a function holds no state: pass the "
                                     "variable's value in as an argument");
    }
    for (int i = 0; i < n->num_inputs(); ++i) stack.push_back(n->input(i).node);
    for (const Node* c : n->control_inputs()) stack.push_back(c);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FunctionRef> Function::Create(std::string name, std::shared_ptr<const Graph> graph,
                                             std::vector<Node*> args, std::vector<NodeOut> rets) {
  const std::string where = absl::StrCat("function '", name, "': ");
  if (graph == nullptr) return errors::InvalidArgument(where, "no graph");
  if (args.size() > static_cast<size_t>(kMaxOutputListLength) ||
      rets.size() > static_cast<size_t>(kMaxOutputListLength)) {
    return errors::InvalidArgument(where, args.size(), " args and ", rets.size(),
                                   " return values; at most ", kMaxOutputListLength, " each");
  }
  std::set<const Node*> distinct;
  for (size_t i = 0; i < args.size(); ++i) {
    const Node* a = args[i];
    if (a == nullptr || graph->FindNode(a->name()) != a || !a->IsPlaceholder()) {
      return errors::InvalidArgument(where, "arg ", i, " is not a Placeholder of its graph");
    }
    if (!distinct.insert(a).second) {
      return errors::InvalidArgument(where, "arg ", i, " (", a->name(), ") is given twice");
    }
  }
  for (size_t i = 0; i < rets.size(); ++i) {
    const NodeOut& r = rets[i];
    if (r.node == nullptr || graph->FindNode(r.node->name()) != r.node ||
        !r.node->has_output(r.index)) {
      return errors::InvalidArgument(where, "return value ", i,
                                     " is not an output of a node of its graph");
    }
  }
  RILL_RETURN_IF_ERROR(CheckReachable(where, args, rets));
  auto f = std::shared_ptr<Function>(new Function());
  f->name_ = std::move(name);
  f->graph_ = std::move(graph);
  f->args_ = std::move(args);
  f->rets_ = std::move(rets);
  return FunctionRef(std::move(f));
}

std::vector<DataType> Function::arg_types() const {
  std::vector<DataType> out;
  for (int i = 0; i < num_args(); ++i) out.push_back(arg_type(i));
  return out;
}

std::vector<DataType> Function::ret_types() const {
  std::vector<DataType> out;
  for (int i = 0; i < num_rets(); ++i) out.push_back(ret_type(i));
  return out;
}

std::string FunctionDebugName(const Function& f) {
  return absl::StrCat("function '", f.name(), "'");
}

}  // namespace rill
