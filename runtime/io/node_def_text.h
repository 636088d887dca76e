// One node of rill's graph text as a NodeDef (runtime/io/node_def.h), read and written:
// the node blocks of graph files (runtime/io/graph_io.cc) and of GraphDefs.
//   node {
//     name: "y"  op: "Neg"  input: "x:0"  device: "/CPU:0"
//     attr { key: "T" type: float }
//   }
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "rill/runtime/io/node_def.h"
#include "rill/runtime/io/text_format.h"

namespace rill {

// A `node { ... }` field: InvalidArgument naming the line for a field given twice, an
// unknown field, an attribute that does not parse, a bad assigned device, or no name or op.
absl::StatusOr<NodeDef> NodeDefFromText(const text::Field& f);

// The node block, every line starting with `indent`; FailedPrecondition for an attribute
// that cannot be written (a tensor that is not on the host).
absl::StatusOr<std::string> NodeDefToText(const NodeDef& n, const std::string& indent);

}  // namespace rill
