// Outputs and ops by the names TensorFlow uses for them: "node:index", or "node" for its
// first output; ops by node name. What a Session's by-name Run and the graph tools read.
#pragma once

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rill/core/graph.h"
#include "rill/ops/scope.h"

namespace rill {

// "name" or "name:index" to an Output of the graph; NotFound for a node the graph does not
// have, InvalidArgument for a malformed name or an index past the node's outputs.
absl::StatusOr<Output> FindOutput(const Graph& graph, absl::string_view name);
absl::StatusOr<Operation> FindOperation(const Graph& graph, absl::string_view name);

}  // namespace rill
