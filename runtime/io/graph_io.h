// Graph files: a graph saved as text (ops, attributes, constants, requested devices and,
// when a Session is given, the devices it assigned) and loaded back in another process.
//
//   RILL_RETURN_IF_ERROR(SaveGraph(*scope.graph(), "model.rgraph"));
//   ...
//   Scope root = Scope::NewRootScope();
//   RILL_RETURN_IF_ERROR(LoadGraph("model.rgraph", root));
//   RILL_ASSIGN_OR_RETURN(Output y, FindOutput(*root.graph(), "dense/Relu:0"));
//
// The format is documented in docs/guide.md ("Graph files"). Loading validates the whole
// file (syntax, ops, attributes, dtypes, shapes, inputs, devices) before the graph is
// touched: a malformed file is an InvalidArgument naming line or node, and leaves the
// graph as it was.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rill/ops/scope.h"
#include "rill/runtime/io/node_def.h"
#include "rill/runtime/tensor_names.h"  // FindOutput, FindOperation

namespace rill {

class Session;

inline constexpr int kGraphFormatVersion = 1;
// The largest graph file LoadGraph reads (1 GiB). Loading takes about the file's size
// plus its tensors (each value takes >= 2 bytes of text and <= 8 in memory) plus the nodes.
inline constexpr int64_t kMaxGraphFileBytes = int64_t{1} << 30;

struct GraphExportOptions {
  // When set, each node this Session has placed carries its assigned device.
  const Session* session = nullptr;
};

struct GraphImportResult {
  std::vector<Operation> nodes;  // in file order
  // Devices a Session had assigned when the file was written, by node name.
  std::map<std::string, std::string> assigned_devices;
};

absl::StatusOr<std::string> GraphToText(const Graph& graph, const GraphExportOptions& options = {});
// Adds the nodes of `text` to the scope's graph under their own names; AlreadyExists when
// one of them is taken. Variable initializers are registered as they were.
absl::Status GraphFromText(absl::string_view text, const Scope& scope,
                           GraphImportResult* result = nullptr);

// A graph as a GraphDef (runtime/io/graph_def.h) holds it, its nodes as NodeDefs rather
// than text (a GraphDef of large constants goes to a Session without being written out
// and read back): the text of its function library, its nodes, its initializers' names.
struct GraphParts {
  std::string library;
  std::vector<NodeDef> nodes;
  std::vector<std::string> initializers;
};
absl::StatusOr<GraphParts> GraphToParts(const Graph& graph);
// Adds the parts to the scope's graph as GraphFromText adds a text's; errors name a node
// by its place in `parts.nodes` ("GraphDef node 3").
absl::Status GraphFromParts(const GraphParts& parts, const Scope& scope);

// The same through a file; saving writes a temporary file and renames it.
absl::Status SaveGraph(const Graph& graph, const std::string& path,
                       const GraphExportOptions& options = {});
absl::Status LoadGraph(const std::string& path, const Scope& scope,
                       GraphImportResult* result = nullptr);

}  // namespace rill
