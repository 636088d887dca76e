#include "rill/runtime/tensor_names.h"

#include "absl/strings/numbers.h"
#include "rill/core/status.h"

namespace rill {

absl::StatusOr<Operation> FindOperation(const Graph& graph, absl::string_view name) {
  Node* n = graph.FindNode(name);
  if (n == nullptr) return errors::NotFound("the graph has no node named '", name, "'");
  return Operation(n);
}

absl::StatusOr<Output> FindOutput(const Graph& graph, absl::string_view name) {
  int index = 0;
  absl::string_view node_name = name;
  size_t colon = name.rfind(':');
  if (colon != absl::string_view::npos) {
    if (!absl::SimpleAtoi(name.substr(colon + 1), &index) || index < 0) {
      return errors::InvalidArgument("'", name, "' is not 'node' or 'node:index'");
    }
    node_name = name.substr(0, colon);
  }
  RILL_ASSIGN_OR_RETURN(Operation op, FindOperation(graph, node_name));
  if (index >= op.num_outputs()) {
    return errors::InvalidArgument("'", name, "': ", op.node()->DebugName(), " has ",
                                   op.num_outputs(), " outputs");
  }
  return Output(op, index);
}

}  // namespace rill
