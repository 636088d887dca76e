// TensorFlow's GraphDef flow for ported programs, over rill's graph text (the format of
// graph files, docs/guide.md "Graph files"):
//   GraphDef def;
//   TF_CHECK_OK(root.ToGraphDef(&def));
//   std::unique_ptr<Session> session(NewSession(SessionOptions()));
//   TF_CHECK_OK(session->Create(def));
//   TF_CHECK_OK(session->Run({{"x", x}}, {"y:0"}, {}, &outputs));
// A GraphDef holds rill's text, not TensorFlow's protobuf: one written by TensorFlow does
// not load.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "rill/runtime/session.h"

namespace rill {

class GraphDef {
 public:
  GraphDef() = default;
  explicit GraphDef(std::string text) : text_(std::move(text)) {}
  // The graph text; empty for an empty GraphDef (a graph of no nodes).
  const std::string& text() const { return text_; }
  const std::string& DebugString() const { return text_; }

 private:
  std::string text_;
};

// A Session of no graph yet (TensorFlow's NewSession): Create adds one. Bad options give
// a Session whose every call returns why (see Session::status()).
std::unique_ptr<Session> NewSession(const SessionOptions& options);
absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* out);

namespace graph {
// Gives every node of `def` that requests no device `device` (TensorFlow's
// graph::SetDefaultDevice). A def that does not load is left as it is, for Session::Create
// to say why; a bad device string is reported there too, naming the node.
void SetDefaultDevice(const std::string& device, GraphDef* def);
}  // namespace graph

// True when the two graphs have the same nodes by name, each with the same op, inputs,
// control inputs, requested device and attributes, in whatever order they were added
// (TensorFlow's EqualGraphDef). Otherwise false, and *diff (when given) names the first
// node that differs and how. A GraphDef that does not parse differs, saying why.
bool EqualGraphDef(const GraphDef& actual, const GraphDef& expected, std::string* diff);

}  // namespace rill
