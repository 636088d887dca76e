// TensorFlow's GraphDef flow for ported programs, over rill's graph text (the format of
// graph files, docs/guide.md "Graph files"):
//   GraphDef def;
//   TF_CHECK_OK(root.ToGraphDef(&def));
//   std::unique_ptr<Session> session(NewSession(SessionOptions()));
//   TF_CHECK_OK(session->Create(def));
//   TF_CHECK_OK(session->Run({{"x", x}}, {"y:0"}, {}, &outputs));
// Its nodes are NodeDefs (runtime/io/node_def.h), to read, change or add to before Create:
//   for (NodeDef& n : *def.mutable_node()) n.set_device("/device:CPU:0");
//   *def.add_node() = node_def_from_a_builder;
// Nodes may come in any order; Create adds them inputs first.
// A GraphDef holds rill's graph text, not TensorFlow's protobuf: one written by TensorFlow
// does not load.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rill/runtime/io/graph_io.h"
#include "rill/runtime/io/node_def.h"
#include "rill/runtime/session.h"

namespace rill {

class GraphDef {
 public:
  GraphDef() = default;
  // The nodes of a graph text. A text that does not parse is kept as it is, with no
  // nodes to see, for Create to say why; nodes added to it are appended to it.
  explicit GraphDef(std::string text);
  // A graph's nodes as they are (Scope::ToGraphDef).
  explicit GraphDef(GraphParts parts) : parts_(std::move(parts)) {}

  // The graph text: the functions, the nodes in order, the initializers. FailedPrecondition
  // for a node attribute that cannot be written (a tensor that is not on the host); text()
  // gives that error as a comment instead.
  absl::StatusOr<std::string> ToText() const;
  std::string text() const;
  std::string DebugString() const { return text(); }

  int node_size() const { return static_cast<int>(parts_.nodes.size()); }
  const NodeDef& node(int i) const { return parts_.nodes[static_cast<size_t>(i)]; }
  NodeDef* mutable_node(int i) { return &parts_.nodes[static_cast<size_t>(i)]; }
  const std::vector<NodeDef>& node() const { return parts_.nodes; }
  std::vector<NodeDef>* mutable_node() { return &parts_.nodes; }
  NodeDef* add_node() { return &parts_.nodes.emplace_back(); }

  // Adds the graph's nodes to the scope's graph (what Session::Create does).
  absl::Status AddTo(const Scope& scope) const;

 private:
  std::string unparsed_;  // a text that did not parse, whole
  GraphParts parts_;      // the functions as the text wrote them, the nodes, initializers
};

// A Session of no graph yet (TensorFlow's NewSession): Create adds one. Bad options give
// a Session whose every call returns why (see Session::status()).
std::unique_ptr<Session> NewSession(const SessionOptions& options);
absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* out);

namespace graph {
// Gives every node of `def` that requests no device `device` (TensorFlow's
// graph::SetDefaultDevice). A def whose text did not parse has no nodes to change; a bad
// device string is reported by Session::Create, naming the node.
void SetDefaultDevice(const std::string& device, GraphDef* def);
}  // namespace graph

// True when the two graphs have the same nodes by name, each with the same op, inputs,
// control inputs, requested device and attributes, in whatever order they were added
// (TensorFlow's EqualGraphDef). Otherwise false, and *diff (when given) names the first
// node that differs and how. A GraphDef that does not parse differs, saying why.
bool EqualGraphDef(const GraphDef& actual, const GraphDef& expected, std::string* diff);

}  // namespace rill
