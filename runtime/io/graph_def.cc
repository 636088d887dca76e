#include "rill/runtime/io/graph_def.h"

#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "rill/runtime/io/graph_io.h"
#include "rill/runtime/io/node_def_text.h"
#include "rill/runtime/io/text_format.h"

namespace rill {

absl::Status Scope::ToGraphDef(GraphDef* out) const {
  RILL_RETURN_IF_ERROR(status());
  RILL_ASSIGN_OR_RETURN(GraphParts parts, GraphToParts(*graph()));
  *out = GraphDef(std::move(parts));
  return absl::OkStatus();
}

absl::Status Session::Create(const GraphDef& graph) {
  RILL_RETURN_IF_ERROR(status());
  const Scope root = scope();
  if (root.graph()->num_nodes() > 0) {
    return errors::AlreadyExists("Session::Create: the Session already has a graph (",
                                 root.graph()->num_nodes(), " nodes); Extend adds to it");
  }
  return graph.AddTo(root);
}

absl::Status Session::Extend(const GraphDef& graph) {
  RILL_RETURN_IF_ERROR(status());
  return graph.AddTo(scope());
}

namespace {

// Splits a parsed graph text into a GraphDef's parts; false (the parts then partial, for
// the caller to drop) when it has a part a GraphDef cannot hold apart (no version or another, a
// field it does not know, a node that does not parse, a function sharing a line with what follows
// it).
bool SplitGraphText(absl::string_view text, const text::Message& top, GraphParts* parts) {
  const std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  std::vector<NodeDef> nodes;
  bool versioned = false;
  for (size_t i = 0; i < top.fields.size(); ++i) {
    const text::Field& f = top.fields[i];
    if (f.name == "version") {
      absl::StatusOr<int64_t> v = text::AsInt(f);
      if (!v.ok() || *v != kGraphFormatVersion || versioned) return false;
      versioned = true;
    } else if (f.name == "node") {
      absl::StatusOr<NodeDef> n = NodeDefFromText(f);
      if (!n.ok()) return false;
      nodes.push_back(*std::move(n));
    } else if (f.name == "initializer") {
      absl::StatusOr<std::string> name = text::AsString(f);
      if (!name.ok()) return false;
      parts->initializers.push_back(*std::move(name));
    } else if (f.name == "function") {
      // Kept as written: its lines up to the next field's.
      const size_t end = i + 1 < top.fields.size() ? static_cast<size_t>(top.fields[i + 1].line - 1)
                                                   : lines.size();
      std::string block;
      for (size_t l = static_cast<size_t>(f.line - 1); l < end && l < lines.size(); ++l) {
        absl::StrAppend(&block, lines[l], "\n");
      }
      absl::StatusOr<text::Message> alone = text::Parse(block);
      if (!alone.ok() || alone->fields.size() != 1) return false;
      parts->library += block;
    } else {
      return false;
    }
  }
  if (!versioned) return false;
  parts->nodes = std::move(nodes);
  return true;
}

}  // namespace

GraphDef::GraphDef(std::string text) {
  if (text.empty()) return;
  absl::StatusOr<text::Message> top = text::Parse(text);
  GraphParts parts;
  if (top.ok() && SplitGraphText(text, *top, &parts)) {
    parts_ = std::move(parts);
  } else {
    unparsed_ = std::move(text);
  }
}

absl::StatusOr<std::string> GraphDef::ToText() const {
  std::string out = unparsed_;
  if (out.empty() &&
      !(parts_.nodes.empty() && parts_.library.empty() && parts_.initializers.empty())) {
    out = absl::StrCat("version: ", kGraphFormatVersion, "\n", parts_.library);
  }
  for (const NodeDef& n : parts_.nodes) {
    RILL_ASSIGN_OR_RETURN(std::string block, NodeDefToText(n, ""));
    out += block;
  }
  for (const std::string& name : parts_.initializers) {
    absl::StrAppend(&out, "initializer: ", text::Quote(name), "\n");
  }
  return out;
}

absl::Status GraphDef::AddTo(const Scope& scope) const {
  if (unparsed_.empty()) return GraphFromParts(parts_, scope);
  RILL_ASSIGN_OR_RETURN(std::string text, ToText());  // for the parser to say what is wrong
  return GraphFromText(text, scope);
}

std::string GraphDef::text() const {
  absl::StatusOr<std::string> text = ToText();
  return text.ok() ? *std::move(text) : absl::StrCat("# ", text.status().ToString(), "\n");
}

std::unique_ptr<Session> NewSession(const SessionOptions& options) {
  return std::make_unique<Session>(Scope::NewRootScope(), options);
}

absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* out) {
  *out = NewSession(options);
  return (*out)->status();
}

namespace {

// The text of def's graph as GraphToText writes it (one "node {" block per node).
absl::StatusOr<std::string> Canonical(const GraphDef& def) {
  Scope scope = Scope::NewRootScope();
  RILL_RETURN_IF_ERROR(def.AddTo(scope));
  return GraphToText(*scope.graph());
}

}  // namespace

namespace graph {
void SetDefaultDevice(const std::string& device, GraphDef* def) {
  for (NodeDef& n : *def->mutable_node()) {
    if (n.device().empty()) n.set_device(device);
  }
}
}  // namespace graph

namespace {

// The graph's nodes as text blocks by name, after a round trip through a fresh graph (so
// that two texts of one graph compare equal however they were written).
absl::StatusOr<std::map<std::string, std::string>> NodeBlocks(const GraphDef& def) {
  RILL_ASSIGN_OR_RETURN(std::string text, Canonical(def));
  std::map<std::string, std::string> blocks;
  for (absl::string_view block : absl::StrSplit(text, "\nnode {\n", absl::SkipEmpty())) {
    if (!absl::StartsWith(block, "  name: \"")) continue;  // the header before the first node
    const size_t end = block.find("\"\n", 9);
    // The last block keeps the text's final newline; the others lost theirs to the split.
    blocks.emplace(std::string(block.substr(9, end - 9)),
                   std::string(absl::StripSuffix(block, "\n")));
  }
  return blocks;
}

// Why `actual` differs from `expected`, or "" when they are equal.
std::string FirstDifference(const std::map<std::string, std::string>& actual,
                            const std::map<std::string, std::string>& expected) {
  for (const auto& [name, block] : expected) {
    auto found = actual.find(name);
    if (found == actual.end()) return absl::StrCat("node '", name, "' is expected but missing");
    if (found->second != block) {
      return absl::StrCat("node '", name, "' differs; expected:\n", block, "\nactual:\n",
                          found->second);
    }
  }
  for (const auto& [name, block] : actual) {
    if (!expected.contains(name)) return absl::StrCat("node '", name, "' is not expected");
  }
  return "";
}

}  // namespace

bool EqualGraphDef(const GraphDef& actual, const GraphDef& expected, std::string* diff) {
  absl::StatusOr<std::map<std::string, std::string>> a = NodeBlocks(actual);
  absl::StatusOr<std::map<std::string, std::string>> e = NodeBlocks(expected);
  std::string why;
  if (!a.ok() || !e.ok()) {
    why = absl::StrCat("a GraphDef does not load: ", (a.ok() ? e : a).status().ToString());
  } else {
    why = FirstDifference(*a, *e);
  }
  if (diff != nullptr) *diff = why;
  return why.empty();
}

}  // namespace rill
